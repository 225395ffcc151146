/**
 * The agent lab's planning and self-correction runs, seeded on wasm from the shipped two-step SFT checkpoint, exactly
 * as the claims agent-multi-step-plans and agent-retry-after-failure run them (scripts/claims/catalog.ts): what they
 * must show, and every figure chapters 1 and 9 and the presets' descriptions quote from them.
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '@/lib/tf/backend';
import { agentPresets } from '@/lib/train/agent-config';
import { AGENT_MULTISTEP_SFT } from '@/lib/train/lab-setup';
import { TrainingRun, type LogLine } from '@/lib/train/run';
import { startTrainer } from '@/lib/spec/start';
import { CLAIMS } from '../../../scripts/claims/catalog';
import type { ClaimRun } from '@/lib/claims/types';

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});

const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(`public/${file}`));
const claimRuns = (id: string) => CLAIMS.find((c) => c.id === id)!.runs;

/** A claim's run, started as the claims runner starts it (preset, then overrides, then its steps). */
async function run(spec: ClaimRun): Promise<LogLine[]> {
  const overrides = { ...agentPresets[spec.preset as keyof typeof agentPresets].overrides, ...spec.overrides, max_steps: spec.steps, eval_steps: spec.evalEvery };
  const { trainer } = await startTrainer('agent', { overrides, readCheckpoint });
  const training = new TrainingRun(trainer, { maxSteps: spec.steps, evalEvery: spec.evalEvery });
  const state = await training.run();
  expect(state, training.error).toBe('done');
  trainer.dispose();
  return training.history;
}

const evalAt = (history: LogLine[], step: number) => history.find((l) => l.kind === 'eval' && l.step === step)!.metrics;
/** As the chapters print shares and means: 0.35 → "35%", 0.7 → "0.7", 2.0 → "2". */
const pct = (x: number) => `${Number((100 * x).toFixed(1))}%`;
const num = (x: number) => String(Number(x.toFixed(1)));
const chapter1 = fs.readFileSync('content/chapters/01-agentic-rl.mdx', 'utf8');
const chapter9 = fs.readFileSync('content/chapters/09-agent-data.mdx', 'utf8');

describe('agent planning and self-correction (seed 0, wasm)', () => {
  const h: Record<string, LogLine[]> = {};

  it('multi_step: the agent learns to plan two calls on every problem; without the calculator nothing is right', async () => {
    const runs = claimRuns('agent-multi-step-plans');
    h.plan = await run(runs.plan);
    h.noTool = await run(runs.noTool);
    const [p0, p10, end] = [evalAt(h.plan, 0), evalAt(h.plan, 10), evalAt(h.plan, runs.plan.steps)];
    expect(p0['eval/calls_per_episode']).toBeLessThan(1.5);
    expect(Math.abs(end['eval/calls_per_episode'] - 2)).toBeLessThanOrEqual(0.1);
    expect(end['eval/accuracy'] - evalAt(h.noTool, runs.noTool.steps)['eval/accuracy']).toBeGreaterThanOrEqual(0.2);
    expect(p10['eval/tool_success_rate']).toBe(1); // no call holds two operations
    // The training steps log calls per episode too (the lab's chart), rising as it learns to plan.
    const calls = h.plan.filter((l) => l.kind === 'train').map((l) => l.metrics['tools/call_frequency']);
    expect(calls.at(-1)!).toBeGreaterThan(calls[0]);
  }, 240_000);

  it('retry: after a failed call the agent learns to call again, and more episodes recover', async () => {
    h.retry = await run(claimRuns('agent-retry-after-failure').run);
    const [r0, r20] = [evalAt(h.retry, 0), evalAt(h.retry, 20)];
    expect(r0['eval/retry_rate']).toBeLessThan(0.1);
    expect(r20['eval/retry_rate']).toBeGreaterThan(0.9);
    expect(r20['eval/recovery_rate']).toBeGreaterThan(r0['eval/recovery_rate'] + 0.3);
    expect(h.retry.some((l) => l.kind === 'train' && 'tools/retry_rate' in l.metrics)).toBe(true);
  }, 240_000);

  it('chapters 1 and 9 and the presets quote these runs’ figures', () => {
    const [p0, p10] = [evalAt(h.plan, 0), evalAt(h.plan, 10)];
    const n = evalAt(h.noTool, 30);
    const [r0, r20] = [evalAt(h.retry, 0), evalAt(h.retry, 20)];
    const planning = `calls per episode (\`eval/calls_per_episode\`) rise from ${num(p0['eval/calls_per_episode'])} to ${num(p10['eval/calls_per_episode'])}, and held-out accuracy from ${pct(p0['eval/accuracy'])} to ${pct(p10['eval/accuracy'])}`;
    expect(chapter1).toContain(planning);
    expect(chapter1).toContain(`greedily it plans on ${pct(p0['eval/tool_call_rate'])} of held-out problems`);
    expect(chapter1).toContain(`the same problems without the calculator stay at ${pct(n['eval/accuracy'])}`);
    expect(chapter1).toContain(
      `| Calls per episode ${num(p0['eval/calls_per_episode'])} → ${num(p10['eval/calls_per_episode'])}, accuracy ${pct(p0['eval/accuracy'])} → ${pct(p10['eval/accuracy'])}; ${pct(n['eval/accuracy'])} without the calculator |`,
    );
    expect(chapter1).toContain(`0% call again (\`eval/retry_rate\`). By step 20, ${pct(r20['eval/retry_rate'])} do`);
    expect(r0['eval/retry_rate']).toBe(0);
    expect(chapter1).toContain(`(\`eval/recovery_rate\`) rises from ${pct(r0['eval/recovery_rate'])} to ${pct(r20['eval/recovery_rate'])}; held-out accuracy with the failures on rises from ${pct(r0['eval/accuracy'])} to ${pct(r20['eval/accuracy'])}`);
    expect(chapter1).toContain(
      `| After a failed call, calls again in ${pct(r0['eval/retry_rate'])} → ${pct(r20['eval/retry_rate'])} of episodes, and calls again and answers right in ${pct(r0['eval/recovery_rate'])} → ${pct(r20['eval/recovery_rate'])} |`,
    );
    expect(chapter9).toContain(`greedily plans on ${pct(p0['eval/tool_call_rate'])} of held-out problems; GRPO makes it plan on all of them, at ${num(p10['eval/calls_per_episode'])} calls per episode and ${pct(p10['eval/accuracy'])} accuracy`);
    expect(chapter9).toContain(`raises the share of failed episodes that call again from ${pct(r0['eval/retry_rate'])} to ${pct(r20['eval/retry_rate'])}, and the share that call again and answer right from ${pct(r0['eval/recovery_rate'])} to ${pct(r20['eval/recovery_rate'])}`);
    // The presets' descriptions say the same.
    expect(agentPresets.multi_step.description).toContain(`plans both calls on ${pct(p0['eval/tool_call_rate'])} of held-out problems`);
    expect(agentPresets.multi_step.description).toContain(`calls per episode rise from ${num(p0['eval/calls_per_episode'])} to ${num(p10['eval/calls_per_episode'])} and held-out accuracy from ${pct(p0['eval/accuracy'])} to ${pct(p10['eval/accuracy'])} by step 10`);
    expect(agentPresets.multi_step_no_tool.description).toContain(`the ceiling without tools is ${pct(n['eval/accuracy'])}`);
    expect(agentPresets.retry.description).toContain(`rises from ${pct(r0['eval/retry_rate'])} to ${pct(r20['eval/retry_rate'])} by step 20, and the share that call again and answer right from ${pct(r0['eval/recovery_rate'])} to about ${pct(r20['eval/recovery_rate'])}`);
  });

  it('the chapters state the presets’ settings and the checkpoint’s demonstration mix', () => {
    const rate = pct(agentPresets.retry.overrides.tool_failure_rate);
    for (const text of [chapter1, chapter9]) expect(text).toContain(`fails ${rate} of calls at random`);
    expect(agentPresets.retry.overrides.reward_weight_format).toBe(0); // "only a right answer earns a reward"
    expect(chapter1).toContain(`demonstrations of which ${pct(AGENT_MULTISTEP_SFT.toolRate)} follow that plan`);
    expect(chapter1).toContain(`a failed call was made again ${pct(AGENT_MULTISTEP_SFT.retryRate)} of the time`);
    expect(chapter9).toContain(`follow that plan ${pct(AGENT_MULTISTEP_SFT.toolRate)} of the time`);
    expect(AGENT_MULTISTEP_SFT.failureRate).toBe(0.5); // "in half of the planning demonstrations"
    expect(chapter9).toContain('In half of the planning demonstrations one call fails');
    expect(chapter9).toContain(`and ${pct(AGENT_MULTISTEP_SFT.retryRate)} of those make the call again`);
    expect(agentPresets.retry.overrides.max_tool_calling_iterations).toBe(3); // "a fourth call ends the episode"
  });
});
