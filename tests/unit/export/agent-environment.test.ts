/**
 * The agent's multi-turn presets exported through TRL's environment_factory (lib/export/python/environment.ts): which
 * runs get an environment and what their rows say, and, run in python3, common.AgentEnvironment answering made-up
 * calls as the lab's own environments do (lib/tasks/reflection.ts, agent.ts, agent-memory.ts) on the same inputs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usesEnvironment } from '@/lib/export/mapping';
import { agentEpisodeRules, EPISODE_OVER } from '@/lib/export/python/environment';
import { TRAINERS } from '@/lib/spec/registry';
import { hash32 } from '@/lib/tasks/arithmetic';
import { createAgentTask, randomCallFailures, toolCallCount } from '@/lib/tasks/agent';
import { createMemoryEnv, createMemoryTask, memoryProblem } from '@/lib/tasks/agent-memory';
import { createCalculatorEnv } from '@/lib/tasks/environment';
import { withRetries } from '@/lib/tasks/reflection';
import { correctnessReward } from '@/lib/tasks/rewards';
import { buildProject, exportSettings, hasPython, python } from './helpers';

const project = (preset: string) => buildProject('agent', exportSettings('agent', preset), preset);
const file = (preset: string, name: string) => project(preset).files.find((f) => f.path === name)!.text;
const row = (preset: string, field: string) => project(preset).plan.rows.find((r) => r.field === field)!;
const ENVIRONMENT_PRESETS = ['reflect', 'reflect_feedback', 'retry', 'memory'];

describe('which agent runs get an environment, and what their rows say', () => {
  it('reflect, reflect_feedback, retry and memory pass environment_factory; every other preset keeps tools=[calculator]', () => {
    const presets = Object.keys(TRAINERS.agent.presets);
    expect(presets).toEqual(expect.arrayContaining([...ENVIRONMENT_PRESETS, 'multi_step', 'default']));
    for (const preset of presets) {
      const settings = exportSettings('agent', preset);
      const rules = agentEpisodeRules(project(preset).plan);
      const train = file(preset, 'train_agent.py');
      // The settings' rule (mapping.ts) and the constants' rule (environment.ts) agree.
      expect(rules !== null, preset).toBe(usesEnvironment(settings));
      expect(rules !== null, preset).toBe(ENVIRONMENT_PRESETS.includes(preset));
      if (rules) {
        expect(train, preset).toContain('environment_factory=lambda: AgentEnvironment(seed=config.seed),');
        expect(train, preset).not.toContain('tools=[calculator]');
        expect(train, preset).toMatch(/reward_funcs=\[scored_as_in_lab\(correctness_reward\)/);
        expect(file(preset, 'common.py'), preset).toContain('class AgentEnvironment:');
        expect(file(preset, 'README.md'), preset).toContain("## The lab's episode rules: `AgentEnvironment`");
      } else {
        expect(train, preset).not.toContain('environment_factory');
        expect(file(preset, 'common.py'), preset).not.toContain('AgentEnvironment');
      }
    }
  });

  it('gives each environment exactly the tools its run had', () => {
    const methods = (preset: string) => [...file(preset, 'common.py').matchAll(/^ {4}def (\w+)\(self/gm)].map((m) => m[1]).filter((m) => m !== '__init__' && m !== 'reset');
    expect(methods('reflect')).toEqual(['calculator', 'submit_answer']);
    expect(methods('retry')).toEqual(['calculator']);
    expect(methods('memory')).toEqual(['calculator', 'remember', 'recall']);
    expect(methods('reflect_feedback')).toEqual(['calculator', 'submit_answer']);
    expect(agentEpisodeRules(project('reflect').plan)).toEqual({ attempts: 2, failureRate: 0, memory: false, calculator: true, toolAfterVerdict: false });
    expect(agentEpisodeRules(project('reflect_feedback').plan)).toEqual({ attempts: 2, failureRate: 0, memory: false, calculator: true, toolAfterVerdict: true });
    expect(agentEpisodeRules(project('retry').plan)).toEqual({ attempts: 1, failureRate: 0.3, memory: false, calculator: true, toolAfterVerdict: false });
    // Only reflect_feedback's calculator waits for the verdict: the others' common.py never names the constant.
    expect(file('reflect', 'common.py')).not.toContain('TOOL_AFTER_VERDICT');
    expect(file('reflect_feedback', 'common.py')).toContain('TOOL_AFTER_VERDICT = True');
    // Reflection without the calculator: submit_answer alone.
    const bare = buildProject('agent', exportSettings('agent', 'reflect', { use_tools: false }), 'reflect');
    expect(agentEpisodeRules(bare.plan)).toEqual({ attempts: 2, failureRate: 0, memory: false, calculator: false, toolAfterVerdict: false });
  });

  it('never writes NOT EXPORTED for a rule the environment carries, and cites TRL for what it became', () => {
    for (const preset of Object.keys(TRAINERS.agent.presets)) {
      for (const r of project(preset).plan.rows) expect(r.note, `${preset}.${r.field}`).not.toMatch(/NOT EXPORTED|NOT the run/);
      expect(file(preset, 'README.md'), preset).not.toContain('NOT EXPORTED');
    }
    const attempts = row('reflect', 'answer_attempts');
    expect(attempts.status).toBe('changed');
    expect(attempts.target).toBe('common.py: ANSWER_ATTEMPTS = 2');
    expect(attempts.note).toContain('grpo_trainer.py:266-282');
    expect(attempts.note).toContain('"?"');
    const failures = row('retry', 'tool_failure_rate');
    expect([failures.status, failures.target]).toEqual(['changed', 'common.py: TOOL_FAILURE_RATE = 0.3']);
    expect(failures.note).toContain('randomCallFailures');
    const memory = row('memory', 'task');
    expect([memory.status, memory.target]).toEqual(['changed', 'common.py: MEMORY_TOOL = true']);
    // What has no counterpart says so: the window, which only a rollout_func could reproduce.
    expect(memory.note).toMatch(/12-token sliding window has no counterpart.*rollout_func.*grpo_trainer\.py:258-265/);
    const noTool = row('memory_no_tool', 'task');
    expect(noTool.status).toBe('none');
    expect(noTool.note).toContain('rollout_func');
    // Runs whose rules need no environment keep their rows.
    expect(row('default', 'answer_attempts').status).toBe('none');
    expect(row('default', 'use_tools').note).toContain('GRPOTrainer(tools=[calculator])');
    expect(row('reflect', 'use_tools').note).toContain('AgentEnvironment');
  });
});

let root = '';
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-export-env-'));
  for (const preset of ENVIRONMENT_PRESETS) {
    fs.mkdirSync(path.join(root, preset));
    fs.writeFileSync(path.join(root, preset, 'common.py'), file(preset, 'common.py'));
  }
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Runs `body` with the preset's common.py imported as `common`, `args` as the JSON list ARGS; prints what body returns. */
const inPython = (preset: string, body: string, args: unknown) =>
  python(
    `
import json, sys
sys.path.insert(0, ${JSON.stringify(path.join(root, preset))})
import common
ARGS = json.loads(sys.argv[1])
def main():
${body
  .trim()
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}
print(json.dumps(main()))`,
    [JSON.stringify(args)],
  );

describe.skipIf(!hasPython)('common.AgentEnvironment, run in python3, against the lab', () => {
  it('hashes and draws failures as lib/tasks/agent.ts randomCallFailures does, at the lab’s rate', () => {
    const texts = Array.from({ length: 3000 }, (_, i) => `[${100 + (i % 900)}*${2 + (i % 8)}]${i % 3 === 0 ? `=? [${i}*7]` : ''}`);
    const salts = ['train:0:0', 'train:0:1', 'eval', 'train:7:12'];
    const cases = salts.flatMap((salt) => texts.slice(0, 750).map((text) => ({ salt, text })));
    const got = inPython('retry', 'return {"fails": [common.call_fails(0.3, c["salt"], c["text"]) for c in ARGS], "hash": [common.lab_hash(t) for t in ["", "a", "48×2 €", "😀x"]]}', cases) as { fails: boolean[]; hash: number[] };
    expect(got.hash).toEqual(['', 'a', '48×2 €', '😀x'].map(hash32));
    const expected = cases.map((c) => randomCallFailures(0.3, c.salt)!(c.text));
    expect(got.fails).toEqual(expected);
    const share = expected.filter(Boolean).length / expected.length;
    expect(share).toBeGreaterThan(0.27);
    expect(share).toBeLessThan(0.33);
  });

  it('the calculator fails on the same calls as the lab’s, and a call made again draws again', () => {
    const rate = 0.3;
    // Each episode calls "347*6" until it succeeds (at most 4 times): the lab's texts are "[347*6]", "[347*6]=? [347*6]", ...
    const episodes = 400;
    const got = inPython(
      'retry',
      `
env = common.AgentEnvironment(seed=5)
out = []
for _ in range(ARGS[0]):
    env.reset(answer="2082")
    replies = []
    for _ in range(4):
        try:
            replies.append(env.calculator("347*6"))
            break
        except RuntimeError:
            replies.append("=?")
    out.append({"salt": env.salt, "replies": replies})
return out`,
      [episodes],
    ) as { salt: string; replies: string[] }[];
    expect(got[0].salt).toBe('train:5:1'); // the constructor's reset is episode 0
    let failed = 0;
    got.forEach(({ salt, replies }) => {
      const fails = randomCallFailures(rate, salt)!;
      const expected: string[] = [];
      let text = '';
      for (let i = 0; i < 4; i++) {
        text += '[347*6]';
        if (!fails(text)) {
          expected.push('2082');
          break;
        }
        expected.push('=?');
        text += '=? ';
      }
      expect(replies, salt).toEqual(expected);
      failed += expected[0] === '=?' ? 1 : 0;
    });
    expect(failed / episodes).toBeGreaterThan(0.22);
    expect(failed / episodes).toBeLessThan(0.38);
    expect(got.some((e) => e.replies.length > 1 && e.replies.at(-1) === '2082')).toBe(true); // some retries succeed
  });

  it('reflect_feedback: the calculator refuses calls until an answer was told "?", as the lab’s waits for the verdict', () => {
    const got = inPython(
      'reflect_feedback',
      `
env = common.AgentEnvironment()
env.reset(answer="2082")
out = []
for step in ARGS:
    try:
        out.append(env.calculator(step[1]) if step[0] == "call" else env.submit_answer(step[1]))
    except Exception:
        out.append("error")
return out`,
      [['call', '347*6'], ['answer', '2000'], ['call', '347*6'], ['answer', '2082']],
    );
    // The lab on the same episode: no reply before the verdict, "?" after the wrong answer, then the calculator.
    const task = createAgentTask();
    const tok = task.tokenizer;
    const lab = withRetries(createCalculatorEnv(tok), tok, ['2082'], 2, { toolAfterVerdict: true })!;
    expect(lab.respond(tok.encode('[347*6]'), 0)).toBeNull();
    const told = [...tok.encode('#### 2000'), tok.eos, ...tok.encode('?')];
    expect(tok.decode(lab.respond([...told, ...tok.encode('[347*6]')], 0)!.tokens)).toBe('=2082');
    expect(got).toEqual(['error', '?', '2082', EPISODE_OVER]);
  });

  it('answers submitted answers as lib/tasks/reflection.ts withRetries does: "?" and another try, then no verdict', () => {
    const task = createAgentTask();
    const tok = task.tokenizer;
    const env = withRetries(undefined, tok, ['2082'], 2)!;
    const cases = [['2082'], ['2000', '2082'], ['2000', '2001'], ['2000', '2082', '2082'], ['02082'], ['', '2082']];
    const got = inPython(
      'reflect',
      `
env = common.AgentEnvironment()
out = []
for answers in ARGS:
    env.reset(answer="2082")
    replies = [env.submit_answer(a) for a in answers]
    out.append({"replies": replies, "tries": env.tries, "correctness": common.scored_as_in_lab(common.correctness_reward)([[{"role": "assistant", "content": "#### 1"}]], answer=["2082"], environments=[env])[0]})
return out`,
      cases,
    ) as { replies: string[]; tries: string[]; correctness: number }[];
    cases.forEach((answers, c) => {
      // The lab: the policy writes "#### a<eos>", the environment answers after EOS; null ends the episode.
      const lab: string[] = [];
      let tokens: number[] = [];
      let over = false;
      for (const a of answers) {
        if (over) {
          lab.push(EPISODE_OVER); // the lab's episode has ended: nothing more is scored
          continue;
        }
        tokens = [...tokens, ...tok.encode(`#### ${a}`), tok.eos];
        const reply = env.respondToEnd!(tokens, 0);
        if (reply) {
          lab.push(tok.decode(reply.tokens));
          tokens = [...tokens, ...reply.tokens];
        } else {
          lab.push(EPISODE_OVER);
          over = true;
        }
      }
      expect(got[c].replies, answers.join(',')).toEqual(lab);
      // Scored: the last try that counted, as the lab's correctness scores the last attempt.
      const last = got[c].tries.at(-1)!;
      expect(got[c].tries.length).toBeLessThanOrEqual(2);
      expect(got[c].correctness, answers.join(',')).toBe(correctnessReward([`#### ${last}`], { answers: ['2082'] })[0]);
    });
    expect(got.map((g) => g.correctness)).toEqual([1, 1, 0, 1, 1, 1]);
  });

  it('scores the last try and counts only the calls the lab counted (answers and memory writes are free)', () => {
    const conversation = [
      { role: 'assistant', content: '', tool_calls: [] },
      { role: 'tool', name: 'calculator', content: '2082' },
      { role: 'assistant', content: '#### 2000' },
      { role: 'tool', name: 'submit_answer', content: '?' },
      { role: 'tool', name: 'remember', content: '' },
      { role: 'tool', name: 'recall', content: '2082' },
      { role: 'assistant', content: 'done' },
    ];
    const got = inPython(
      'memory',
      `
env = common.AgentEnvironment()
env.reset(answer="2082")
plain = common.scored_as_in_lab(common.tool_cost_reward)(ARGS, environments=[env])
right = common.scored_as_in_lab(common.correctness_reward)(ARGS, answer=["2082"], environments=[env])
return {"cost": plain, "right": right, "name": common.scored_as_in_lab(common.tool_cost_reward).__name__}`,
      [conversation],
    ) as { cost: number[]; right: number[]; name: string };
    // The lab's episode text: one calculator call, one memory read; its answer is text, not a call.
    expect(got.cost).toEqual(toolCallCount(['[347*6]=2082 #### 2000 ? [b]=2082 #### 2082'], { answers: ['2082'] }));
    expect(got.right).toEqual([0]); // no submit_answer in the memory run: the text's last turn ("done") is the answer
    expect(got.name).toBe('tool_cost_reward'); // TRL logs rewards/<name>/mean under the lab's name
  });

  it('keeps memory as lib/tasks/agent-memory.ts does: the latest write, "?" for a key never written', () => {
    const task = createMemoryTask();
    const problem = memoryProblem(37, 52, 'b', [81, 20, 44]);
    const env = createMemoryEnv(task.tokenizer, [problem], { useTool: true, maxCalls: 9 });
    const script = ['a=37', 'b=52', 'b', 'c', 'a=40', 'a', 'e'];
    const labReplies: string[] = [];
    let text = '';
    for (const call of script) {
      text += `[${call}]`;
      const reply = env.respond(task.tokenizer.encode(text), 0);
      const said = reply ? task.tokenizer.decode(reply.tokens) : '';
      labReplies.push(said.replace(/^=/, '')); // the lab writes a reply after "="
      text += said;
    }
    const got = inPython(
      'memory',
      `
env = common.AgentEnvironment()
env.reset(answer="52")
out = []
for call in ARGS:
    out.append(env.remember(*call.split("=")) if "=" in call else env.recall(call))
env.reset(answer="52")
out.append(env.recall("a"))  # reset empties the store: one per rollout
return out`,
      script,
    ) as string[];
    expect(got.slice(0, script.length)).toEqual(labReplies);
    expect(labReplies).toEqual(['', '', '52', '?', '', '40', '?']);
    expect(got.at(-1)).toBe('?');
  });

  it('appends the rules of answering to the question only where there is a second try', () => {
    const got = ENVIRONMENT_PRESETS.map((preset) => inPython(preset, 'return common.AgentEnvironment().reset(answer="1", prompt=[], solution="")', []));
    const note = `\n\nGive your final answer with the submit_answer tool. A wrong answer gets the reply '?' and you may try again: 2 tries in all.`;
    expect(got).toEqual([note, note, null, null]); // reflect, reflect_feedback, retry, memory
  });
});
