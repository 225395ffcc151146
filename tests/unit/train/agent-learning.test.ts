/**
 * The agent lab's claims, each a seeded run on wasm from the shipped tool-use SFT checkpoint, as
 * `npm run train -- agent --backend wasm [--preset NAME]` runs it. The figures chapter 1 quotes are checked
 * against these runs at the end.
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '@/lib/tf/backend';
import { agentPresets } from '@/lib/train/agent-config';
import { TrainingRun, type LogLine } from '@/lib/train/run';
import { startTrainer } from '@/lib/spec/start';

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});

const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(`public/${file}`));

/** A preset's run for `steps` steps (evaluating every `evalEvery`), as the CLI runs it; returns its history. */
async function run(preset: keyof typeof agentPresets, steps: number, evalEvery: number, extra: Record<string, unknown> = {}): Promise<LogLine[]> {
  const { trainer } = await startTrainer('agent', { overrides: { ...agentPresets[preset].overrides, max_steps: steps, eval_steps: evalEvery, ...extra }, readCheckpoint });
  const training = new TrainingRun(trainer, { maxSteps: steps, evalEvery });
  const state = await training.run();
  expect(state, training.error).toBe('done');
  trainer.dispose();
  return training.history;
}

const evalAt = (history: LogLine[], step: number) => history.find((l) => l.kind === 'eval' && l.step === step)!.metrics;
const trainAt = (history: LogLine[], step: number) => history.find((l) => l.kind === 'train' && l.step === step)!.metrics;

describe('agent lab claims (seed 0, wasm)', () => {
  const results: Record<string, LogLine[]> = {};

  it('default: the agent learns to call the calculator on every hard product, and held-out accuracy climbs', async () => {
    const h = (results.default = await run('default', 10, 10));
    expect(evalAt(h, 0)['eval/accuracy']).toBeLessThan(0.6);
    expect(evalAt(h, 0)['eval/tool_call_rate']).toBeLessThan(0.6);
    expect(evalAt(h, 10)['eval/accuracy']).toBeGreaterThan(0.9);
    expect(evalAt(h, 10)['eval/tool_call_rate_hard']).toBeGreaterThan(0.95);
    expect(evalAt(h, 10)['eval/tool_success_rate']).toBeGreaterThan(0.95);
  }, 120_000);

  it('no_tool: the ceiling without tools is far lower, at least 20 points below the run with the tool', async () => {
    const h = (results.no_tool = await run('no_tool', 30, 30));
    expect(evalAt(h, 30)['eval/accuracy_hard']).toBeLessThan(0.05);
    expect(evalAt(results.default, 10)['eval/accuracy'] - evalAt(h, 30)['eval/accuracy']).toBeGreaterThan(0.2);
    expect(evalAt(h, 30)['eval/tool_call_rate']).toBe(0);
  }, 120_000);

  it('from_base: with no SFT no episode earns a reward, so nothing is learned', async () => {
    const h = (results.from_base = await run('from_base', 10, 10));
    for (let step = 1; step <= 10; step++) expect(trainAt(h, step).reward).toBe(0);
    expect(evalAt(h, 10)['eval/accuracy']).toBe(0);
    expect(evalAt(h, 10)['eval/accuracy']).toBeLessThan(evalAt(results.default, 10)['eval/accuracy']);
  }, 120_000);

  it('train_on_observations: the model is trained on the calculator’s tokens and learns to write tool results itself', async () => {
    const h = (results.train_on_observations = await run('train_on_observations', 100, 50));
    const d = results.default;
    // Masked (default): the calculator's tokens stay unlikely under the policy. Unmasked: their log-prob climbs.
    expect(Math.abs(trainAt(d, 10)['observations/mean_logprob'] - trainAt(d, 1)['observations/mean_logprob'])).toBeLessThan(2);
    expect(trainAt(h, 100)['observations/mean_logprob'] - trainAt(h, 1)['observations/mean_logprob']).toBeGreaterThan(4);
    // With no calculator answering, the masked model never writes a result itself; the unmasked one does.
    expect(evalAt(d, 10)['eval/fabricated_result_rate']).toBe(0);
    expect(evalAt(h, 100)['eval/fabricated_result_rate']).toBeGreaterThan(0.2);
  }, 240_000);

  it('tool_cost: at a cost above what a right answer earns, calls stop paying and accuracy falls to the no-tool level', async () => {
    const h = (results.tool_cost = await run('tool_cost', 20, 20));
    expect(evalAt(h, 20)['eval/tool_call_rate']).toBe(0);
    expect(Math.abs(evalAt(h, 20)['eval/accuracy'] - evalAt(results.no_tool, 30)['eval/accuracy'])).toBeLessThan(0.05);
  }, 120_000);

  it('chapter 1 quotes these runs’ figures', () => {
    const chapter = fs.readFileSync('content/chapters/01-agentic-rl.mdx', 'utf8');
    const pct = (x: number) => `${Number((100 * x).toFixed(1))}%`; // 0.135 → "13.5%", 0.98 → "98%"
    const [d0, d10] = [evalAt(results.default, 0), evalAt(results.default, 10)];
    expect(chapter).toContain(`climbs from ${pct(d0['eval/accuracy'])} to ${pct(d10['eval/accuracy'])} by step 10`);
    expect(chapter).toContain(`from ${pct(d0['eval/tool_call_rate'])} to ${pct(d10['eval/tool_call_rate'])}`);
    // The capability table's tool-use row (the planning and self-improvement rows: agent-planning.test.ts).
    expect(chapter).toContain(`| Calls on ${pct(d0['eval/tool_call_rate'])} → ${pct(d10['eval/tool_call_rate'])} of problems, accuracy ${pct(d0['eval/accuracy'])} → ${pct(d10['eval/accuracy'])} |`);
    const [n0, n30] = [evalAt(results.no_tool, 0), evalAt(results.no_tool, 30)];
    expect(chapter).toContain(`only moves from ${pct(n0['eval/accuracy'])} to ${pct(n30['eval/accuracy'])}`);
    expect(Math.abs(100 * evalAt(results.tool_cost, 20)['eval/accuracy'] - 24)).toBeLessThanOrEqual(1.5); // "about 24%"
  });
});
