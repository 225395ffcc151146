/** The two-step task: problems, splits, plans, and the demonstrations SFT imitates (with failed calls and recoveries). */
import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { agentEnvironment, planDemonstration, type DemoFailure } from '@/lib/tasks/agent';
import { createTwoStepTask, twoStepProblem } from '@/lib/tasks/agent-two-step';
import { CALCULATOR_ERROR } from '@/lib/tasks/environment';
import { AGENT_TWO_STEP_MAX_COMPLETION } from '@/lib/train/lab-setup';

const task = createTwoStepTask();
const env = agentEnvironment(task, 3);
/** 347*6+58's demonstration: its text, the tokens masked out of the loss, its length. */
const demo = (useTool: boolean, failure?: DemoFailure) => {
  const d = task.demonstration(twoStepProblem(347, 6, '+', 58), env, useTool, failure);
  const text = task.tokenizer.decode(d.completion);
  const observed = d.completion.flatMap((id, i) => (d.mask[i] === 0 ? [task.tokenizer.decode([id])] : [])).join('');
  return { text, observed, length: d.completion.length };
};

describe('two-step agent task', () => {
  it('writes a × b ± c with its plan of two one-operation calls', () => {
    expect(twoStepProblem(347, 6, '+', 58)).toMatchObject({ prompt: '347*6+58=', expression: '347*6', plan: ['347*6', '2082+58'], answer: '2140', easy: false });
    expect(twoStepProblem(100, 2, '-', 99)).toMatchObject({ prompt: '100*2-99=', plan: ['100*2', '200-99'], answer: '101' });
    expect(task.kind).toBe('two_step');
    expect(task.maxOperations).toBe(1);
    expect(task.promptLength).toBe(1 + '347*6+58='.length);
  });

  it('never trains on a held-out problem, and tests only on held-out ones, in a fixed order', () => {
    expect(task.sample('train', 2000, createRng('train')).filter((p) => task.isHeldOut(p))).toEqual([]);
    expect(task.sample('test', 500, createRng('test')).every((p) => task.isHeldOut(p))).toBe(true);
    const set = task.testSet(200);
    expect(set.every((p) => task.isHeldOut(p))).toBe(true);
    expect(new Set(set.map((p) => p.prompt)).size).toBe(200);
    expect(task.testSet(200)).toEqual(set);
    // Both operators; every product, and so every number the policy copies, has four digits.
    expect(new Set(set.map((p) => p.prompt[5]))).toEqual(new Set(['+', '-']));
    const all = [...set, ...task.sample('train', 2000, createRng('train'))];
    expect(all.every((p) => p.a * p.b >= 1100 && p.answer.length === 4 && p.a >= 100 && p.a <= 999)).toBe(true);
  });

  it('demonstrates the plan: two calls, the second copying the first one’s result; the calculator’s tokens masked', () => {
    expect(demo(true)).toMatchObject({ text: '[347*6]=2082 [2082+58]=2140 #### 2140', observed: '=2082=2140' });
    expect(demo(false).text).toBe('#### 2140');
  });

  it('demonstrates a failed call made again, or given up on', () => {
    expect(demo(true, { call: 0, retry: true })).toMatchObject({ text: '[347*6]=? [347*6]=2082 [2082+58]=2140 #### 2140', observed: '=?=2082=2140' });
    expect(demo(true, { call: 1, retry: true }).text).toBe('[347*6]=2082 [2082+58]=? [2082+58]=2140 #### 2140');
    expect(demo(true, { call: 0, retry: false }).text).toBe(`[347*6]${CALCULATOR_ERROR} #### 2140`);
    expect(demo(true, { call: 1, retry: false }).text).toBe('[347*6]=2082 [2082+58]=? #### 2140');
    expect(() => demo(true, { call: 2, retry: true })).toThrow(/not a call of the plan/);
  });

  it('fits the longest episode, a two-call plan with its longer call made twice, in the model’s completion length', () => {
    const longest = planDemonstration(task.tokenizer, twoStepProblem(999, 9, '+', 99), env, true, { call: 1, retry: true });
    expect(task.tokenizer.decode(longest.completion)).toBe('[999*9]=8991 [8991+99]=? [8991+99]=9090 #### 9090');
    expect(longest.completion.length).toBe(AGENT_TWO_STEP_MAX_COMPLETION);
    expect(planDemonstration(task.tokenizer, twoStepProblem(999, 9, '+', 99), env, true).completion.length).toBe(task.maxCompletionLength);
  });

  it('gives a call with two operations the error reply', () => {
    expect(task.tokenizer.decode(env.respond(task.tokenizer.encode('[347*6+58]'))!.tokens)).toBe(CALCULATOR_ERROR);
  });
});
