/**
 * Chapter 10 (and chapter 1's capability table) print figures of the agent lab's memory and reflect runs: each is
 * recomputed here from seed 0's runs, started exactly as the claims agent-memory-beats-window and
 * agent-reflect-fixes start them (scripts/claims/catalog.ts; the claims check seeds 0, 1 and 2). About 20 s on wasm.
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { receptiveField } from '@/lib/models/config';
import { selectBackend } from '@/lib/tf/backend';
import { agentPresets } from '@/lib/train/agent-config';
import { AGENT_MEMORY_SFT, AGENT_REFLECT_SFT, MEMORY_SLIDING_WINDOW, agentModelConfig, createAgentLabTask } from '@/lib/train/lab-setup';
import { memoryProblem } from '@/lib/tasks/agent-memory';
import { BOS_ID } from '@/lib/tasks/tokenizer';
import { TrainingRun, type LogLine } from '@/lib/train/run';
import { startTrainer } from '@/lib/spec/start';
import { CLAIMS } from '../../scripts/claims/catalog';
import type { ClaimRun } from '@/lib/claims/types';

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});

const chapter10 = fs.readFileSync('content/chapters/10-beyond-the-calculator.mdx', 'utf8');
const chapter1 = fs.readFileSync('content/chapters/01-agentic-rl.mdx', 'utf8');
const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(`public/${file}`));
const claimRun = (id: string, name: string) => CLAIMS.find((c) => c.id === id)!.runs[name];

async function run(spec: ClaimRun, evalEvery = spec.evalEvery): Promise<LogLine[]> {
  const overrides = { ...agentPresets[spec.preset as keyof typeof agentPresets].overrides, ...spec.overrides, max_steps: spec.steps, eval_steps: evalEvery };
  const { trainer } = await startTrainer('agent', { overrides, readCheckpoint });
  const training = new TrainingRun(trainer, { maxSteps: spec.steps, evalEvery });
  expect(await training.run(), training.error).toBe('done');
  trainer.dispose();
  return training.history;
}

const evalAt = (h: LogLine[], step: number) => h.find((l) => l.kind === 'eval' && l.step === step)!.metrics;
/** As the chapters print shares: 0.015 → "1.5%", 1 → "100%". */
const pct = (x: number) => `${Number((100 * x).toFixed(1))}%`;

describe('chapter 10 and chapter 1 quote the memory and reflect runs (seed 0, wasm)', () => {
  it('the window: 2 layers of 12 tokens see 23, and the earliest answer sees nothing of the prompt', () => {
    const config = agentModelConfig(createAgentLabTask('memory'));
    expect(config.sliding_window).toBe(MEMORY_SLIDING_WINDOW);
    expect(config.n_layers).toBe(2);
    expect(receptiveField(config)).toBe(23);
    expect(chapter10).toContain(`a window of $W = ${MEMORY_SLIDING_WINDOW}$`);
    expect(chapter10).toContain('$2 \\times 11 + 1 = 23$');
    // The real layout: <bos> and the prompt, then the policy's ';' at once, the environment's reply, and '####'.
    const task = createAgentLabTask('memory');
    const problem = memoryProblem(37, 52, 'b', [81, 20, 44]);
    const prompt = task.encodePrompt(problem);
    expect(prompt[0]).toBe(BOS_ID);
    const turnEnd = prompt.length; // where ';' sits
    const choosing = turnEnd + `;${problem.memory!.observation}####`.length - 1; // the last '#': its logits choose the first digit
    expect(chapter10).toContain('the prompt fills positions 1 to 9');
    expect(chapter10).toContain(`\`;\` sits at position ${turnEnd}, the environment's reply at ${turnEnd + 1} to ${turnEnd + problem.memory!.observation.length}`);
    expect(chapter10).toContain(`at position ${choosing + 1}; the logits that choose it are those at position ${choosing} of the sequence`);
    const fieldStart = choosing - (receptiveField(config) - 1);
    expect(fieldStart).toBe(turnEnd); // the ';' is the one token of the policy's that is still in view
    expect(chapter10).toContain(`$${choosing} - 22 = ${fieldStart}$, the \`;\` that closed the policy's first turn`);
    expect(chapter10).toContain(`of which ${AGENT_MEMORY_SFT.toolRate * 100}% write both facts`);
    expect(agentPresets.reflect.overrides.reward_weight_tool_cost).toBe(0.5);
    expect(chapter10).toContain('$c = 0.5$');
    expect(chapter10).toContain(`of which ${AGENT_REFLECT_SFT.toolRate * 100}% call the calculator`);
    expect(chapter10).toContain(`trained for ${AGENT_REFLECT_SFT.steps} steps`);
    expect(AGENT_REFLECT_SFT.retryRate).toBe(0.2);
    expect(chapter10).toContain('a fifth of the direct ones answer wrong first');
  });

  it('memory: the table of chapter 10 and the memory row of chapter 1', async () => {
    const memory = await run(claimRun('agent-memory-beats-window', 'memory0'));
    const window = await run(claimRun('agent-memory-beats-window', 'window0'));
    const [m0, m10, m20, w] = [evalAt(memory, 0), evalAt(memory, 10), evalAt(memory, 20), evalAt(window, 20)];
    const row = (name: string, m: Record<string, number>) => `| ${name} | ${pct(m['eval/accuracy'])} | ${pct(m['eval/memory_use_rate'])} |`;
    expect(chapter10).toContain(row('`memory`, before GRPO', m0));
    expect(chapter10).toContain(row('`memory`, after 10 steps', m10));
    expect(chapter10).toContain(row('`memory`, after 20 steps', m20));
    expect(chapter10).toContain(row('`memory_no_tool`, after 20 steps', w));
    expect(chapter10).toContain(`reaches ${pct(m10['eval/accuracy'])} held-out accuracy by step 10`);
    expect(chapter10).toContain(`against ${pct(w['eval/accuracy'])} for the same task without the tool`);
    expect(agentPresets.memory.description).toContain(`(${pct(m0['eval/accuracy'])} held-out accuracy: guesses)`);
    expect(agentPresets.memory.description).toContain(`by step 10 (${pct(m10['eval/accuracy'])} accuracy`);
    expect(m10['eval/memory_use_rate']).toBe(1); // "on every held-out problem by step 10"
    expect(chapter1).toContain(
      `Memory use ${pct(m0['eval/memory_use_rate'])} → ${pct(m20['eval/memory_use_rate'])}, accuracy ${pct(m0['eval/accuracy'])} → ${pct(m20['eval/accuracy'])}; ${pct(w['eval/accuracy'])} without the memory tool`,
    );
  }, 120_000);

  it('reflect: the first try, the second, and the fix rate', async () => {
    const h = await run(claimRun('agent-reflect-fixes', 'reflect0'), 20);
    const [r0, r20, r40] = [evalAt(h, 0), evalAt(h, 20), evalAt(h, 40)];
    for (const m of [r0, r20, r40]) expect(m['eval/accuracy']).toBeCloseTo(m['eval/first_try_accuracy'] + m['eval/fix_rate'], 10);
    const row = (name: string, m: Record<string, number>) =>
      `| ${name} | ${pct(m['eval/first_try_accuracy'])} | ${pct(m['eval/accuracy'])} | ${pct(m['eval/fix_rate'])} | ${pct(m['eval/tool_call_rate'])} |`;
    expect(chapter10).toContain(row('before GRPO', r0));
    expect(chapter10).toContain(row('after 20 steps', r20));
    expect(chapter10).toContain(row('after 40 steps', r40));
    expect(agentPresets.reflect.description).toContain(`first-try accuracy ${pct(r0['eval/first_try_accuracy'])} → ${pct(r40['eval/first_try_accuracy'])} by step 40`);
    expect(agentPresets.reflect.description).toContain(`fix rate falls from ${pct(r0['eval/fix_rate'])} to ${pct(r40['eval/fix_rate'])}`);
    expect(chapter10).toContain(`right ${pct(r0['eval/accuracy_hard'])} of the time even with two tries`);
    expect(chapter10).toContain(`which the checkpoint gets right ${pct(r0['eval/accuracy_easy'])} of the time`);
    expect(chapter10).toContain(`from ${Number(r0['eval/fix_rate'].toFixed(2))} to ${Number(r40['eval/fix_rate'].toFixed(2))}`);
    expect(chapter10).toContain(`from ${pct(r0['eval/accuracy'])} to ${pct(r40['eval/accuracy'])}`);
    expect(chapter10).toContain(`on the first try, on ${pct(r40['eval/tool_call_rate'])} of held-out problems`);
  }, 120_000);
});
