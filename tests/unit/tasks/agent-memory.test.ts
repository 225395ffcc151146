/**
 * The memory task and its tool (lib/tasks/agent-memory.ts), and reflection's retry environment (lib/tasks/reflection.ts):
 * model-free, text in and replies out.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { agentProblem, createAgentTask } from '@/lib/tasks/agent';
import { episodeEnvironment } from '@/lib/tasks/agent-episodes';
import { createMemoryEnv, createMemoryTask, memoryDemonstration, memoryProblem, memoryStats } from '@/lib/tasks/agent-memory';
import type { ToolEnvironment } from '@/lib/tasks/environment';
import { attemptTexts, withRetries, WRONG_REPLY } from '@/lib/tasks/reflection';

const task = createMemoryTask();
const tok = task.tokenizer;
const problem = memoryProblem(37, 52, 'b', [81, 20, 44]);

/** Feeds a policy text one character at a time and returns the whole episode, the environment's replies inserted. */
function play(env: ToolEnvironment, policy: string, row = 0, eos = false): string {
  const done: number[] = [];
  for (const id of tok.encode(policy)) {
    done.push(id);
    const reply = env.respond(done, row);
    if (reply?.done) return tok.decode(done) + '|ended';
    done.push(...(reply?.tokens ?? []));
  }
  if (eos) done.push(tok.eos);
  return tok.decode(done);
}

describe('the memory task', () => {
  it('asks about a fact after three distractors, and its answer is that fact', () => {
    expect(problem.prompt).toBe('a=37 b=52');
    expect(problem.memory).toEqual({ observation: ' c=81 d=20 e=44 b?', asked: 'b' });
    expect(problem.answer).toBe('52');
    expect(memoryProblem(37, 52, 'a', [81, 20, 44]).answer).toBe('37');
  });

  it('remembers what was written and answers a read with it; without the tool every read misses', () => {
    const env = createMemoryEnv(tok, [problem], { useTool: true, maxCalls: 3 });
    expect(play(env, '[a=37][b=52];[b] #### 52')).toBe('[a=37][b=52]; c=81 d=20 e=44 b?[b]=52 #### 52');
    expect(play(env, '[a=37];[b]')).toBe('[a=37]; c=81 d=20 e=44 b?[b]=?'); // never written
    expect(play(env, '[b=11][b=52];[b]')).toBe('[b=11][b=52]; c=81 d=20 e=44 b?[b]=52'); // the latest write
    expect(play(env, ';;[ab]')).toBe('; c=81 d=20 e=44 b?;[ab]=?'); // the question comes once; a malformed call misses
    const off = createMemoryEnv(tok, [problem], { useTool: false, maxCalls: 3 });
    expect(play(off, '[a=37][b=52];[b]')).toBe('[a=37][b=52]; c=81 d=20 e=44 b?[b]=?');
  });

  it('ends the episode at a call beyond the cap, and answers each row with its own problem', () => {
    const env = createMemoryEnv(tok, [problem, memoryProblem(10, 11, 'a', [12, 13, 14])], { useTool: true, maxCalls: 2 });
    expect(play(env, '[a=37][b=52][a]')).toBe('[a=37][b=52][a]|ended');
    expect(play(env, ';', 1)).toBe('; c=12 d=13 e=14 a?');
    expect(() => createMemoryEnv(tok, [agentProblem(3, 4)], { useTool: true, maxCalls: 2 }).respond(tok.encode(';'), 0)).toThrow(/no problem/);
  });

  it('counts memory use only when the asked fact was written, read back and answered', () => {
    expect(memoryStats('[a=37][b=52]; c=81 d=20 e=44 b?[b]=52 #### 52', 'b', '52').usedMemory).toBe(true);
    expect(memoryStats('[a=37]; c=81 d=20 e=44 b?[b]=? #### 52', 'b', '52').usedMemory).toBe(false); // guessed right
    expect(memoryStats('[b=52]; c=81 d=20 e=44 b? #### 52', 'b', '52').usedMemory).toBe(false); // never read
    expect(memoryStats('[b=52]; c=81 d=20 e=44 b?[b]=52 #### 25', 'b', '25').usedMemory).toBe(false); // did not use it
  });

  it('demonstrates with and without the tool, the environment’s tokens masked', () => {
    const withTool = memoryDemonstration(tok, problem, true);
    expect(tok.decode(withTool.completion)).toBe('[a=37][b=52]; c=81 d=20 e=44 b?[b]=52 #### 52');
    const observed = withTool.completion.filter((_, i) => withTool.mask[i] === 0);
    expect(tok.decode(observed)).toBe(' c=81 d=20 e=44 b?=52');
    expect(withTool.completion.length).toBeLessThanOrEqual(task.maxCompletionLength);
    expect(tok.decode(memoryDemonstration(tok, problem, false).completion)).toBe('; c=81 d=20 e=44 b? #### 52');
  });

  it('keeps held-out problems out of training and has a fixed, varied test set', () => {
    const train = task.sample('train', 300, createRng(1));
    expect(train.some((p) => task.isHeldOut(p))).toBe(false);
    expect(task.sample('test', 50, createRng(2)).every((p) => task.isHeldOut(p))).toBe(true);
    const set = task.testSet(100);
    expect(set).toEqual(task.testSet(100));
    expect(new Set(set.map((p) => p.answer)).size).toBeGreaterThan(50);
    expect(new Set(set.map((p) => p.memory!.asked))).toEqual(new Set(['a', 'b']));
  });
});

describe('reflection: one more try after a wrong answer', () => {
  const product = createAgentTask();
  const ptok = product.tokenizer;
  const answers = ['2082'];

  it('says only "?" after a wrong answer, once, and nothing after a right one', () => {
    const env = withRetries(undefined, ptok, answers, 2)!;
    const wrong = [...ptok.encode('#### 2000'), ptok.eos];
    expect(ptok.decode(env.respondToEnd!(wrong, 0)!.tokens)).toBe(WRONG_REPLY);
    expect(env.respondToEnd!([...ptok.encode('#### 2082'), ptok.eos], 0)).toBeNull();
    const twice = [...wrong, ...ptok.encode(`${WRONG_REPLY}#### 2001`), ptok.eos];
    expect(env.respondToEnd!(twice, 0)).toBeNull(); // no third try
    expect(withRetries(undefined, ptok, answers, 1)).toBeUndefined();
    expect(() => withRetries(undefined, ptok, answers, 0)).toThrow(/maxAttempts/);
  });

  it('passes tool calls to the calculator underneath', () => {
    const env = episodeEnvironment(product, [agentProblem(347, 6)], { useTools: true, maxCalls: 2, maxAttempts: 2 })!;
    expect(ptok.decode(env.respond(ptok.encode('[347*6]'), 0)!.tokens)).toBe('=2082');
    expect(env.respondToEnd).toBeDefined();
  });

  it('with toolAfterVerdict, answers no call before the verdict and every call after it', () => {
    const env = episodeEnvironment(product, [agentProblem(347, 6)], { useTools: true, maxCalls: 2, maxAttempts: 2, toolAfterVerdict: true })!;
    expect(env.respond(ptok.encode('[347*6]'), 0)).toBeNull(); // the first try: as if there were no calculator
    const told = [...ptok.encode('#### 2000'), ptok.eos, ...ptok.encode(WRONG_REPLY)];
    expect(ptok.decode(env.respondToEnd!([...ptok.encode('#### 2000'), ptok.eos], 0)!.tokens)).toBe(WRONG_REPLY);
    expect(ptok.decode(env.respond([...told, ...ptok.encode('[347*6]')], 0)!.tokens)).toBe('=2082');
    // One try has no verdict to wait for: refused rather than a calculator that never answers.
    expect(() => withRetries(undefined, ptok, answers, 1, { toolAfterVerdict: true })).toThrow(/toolAfterVerdict/);
  });

  it('splits an episode into its tries, without the reply', () => {
    const episode = [...ptok.encode('#### 2000'), ptok.eos, ...ptok.encode(`${WRONG_REPLY}[347*6]=2082 #### 2082`), ptok.eos, ptok.pad, ptok.pad];
    expect(attemptTexts(episode, ptok)).toEqual(['#### 2000', '[347*6]=2082 #### 2082']);
    expect(attemptTexts([...ptok.encode('#### 2082'), ptok.eos, ptok.pad], ptok)).toEqual(['#### 2082']);
    expect(attemptTexts(ptok.encode('#### 20'), ptok)).toEqual(['#### 20']); // cut off
  });
});
