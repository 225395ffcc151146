/**
 * Do the trainers really learn? Short seeded runs from the shipped checkpoints, checked by held-out metrics.
 *
 * These run on tfjs's wasm backend, which executes on the CPU like the 'cpu' backend but ~20x faster here
 * (a GRPO step: 0.3 s vs 6.5 s), so the runs fit in seconds. Both are deterministic for a seed; the
 * leak and plumbing tests (lm-trainers.test.ts) use 'cpu'.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTinyLM } from '@/lib/models/checkpoint';
import { selectBackend } from '@/lib/tf/backend';
import { createDpoTrainer } from '@/lib/train/dpo-trainer';
import { grpoPresets } from '@/lib/train/grpo-config';
import { createGrpoTrainer } from '@/lib/train/grpo-trainer';
import { CHECKPOINTS, createLabTask } from '@/lib/train/lab-setup';
import { TrainingRun, type LogLine, type StepTrainer } from '@/lib/train/run';
import { createSftTrainer } from '@/lib/train/sft-trainer';

const task = createLabTask();
const checkpoint = (name: keyof typeof CHECKPOINTS) => loadTinyLM(new Uint8Array(fs.readFileSync(`public/${CHECKPOINTS[name]}`)));

beforeAll(async () => {
  expect((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend).toBe('wasm');
});
afterAll(async () => {
  await tf.setBackend('cpu');
});

async function train(trainer: StepTrainer, maxSteps: number, evalEvery: number): Promise<LogLine[]> {
  const run = new TrainingRun(trainer, { maxSteps, evalEvery });
  expect(await run.run(), run.error).toBe('done');
  trainer.dispose();
  return run.history;
}
const evals = (h: LogLine[]) => h.filter((l) => l.kind === 'eval').map((l) => l.metrics['eval/accuracy']);
const train_ = (h: LogLine[], metric: string) => h.filter((l) => l.kind === 'train').map((l) => l.metrics[metric]);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('learning (wasm backend, seeded)', () => {
  it('SFT from the base model lowers the loss and raises held-out accuracy', async () => {
    const model = checkpoint('base');
    const history = await train(createSftTrainer(model, task, { seed: 0 }), 160, 160);
    const loss = train_(history, 'loss');
    expect(mean(loss.slice(-10))).toBeLessThan(mean(loss.slice(0, 10)) / 3);
    const [before, after] = evals(history);
    expect(before).toBe(0);
    expect(after).toBeGreaterThanOrEqual(0.1);
    model.dispose();
  }, 120_000);

  it('GRPO from the SFT checkpoint raises held-out accuracy', async () => {
    const model = checkpoint('sft');
    const history = await train(createGrpoTrainer(model, task, { seed: 0, learning_rate: 3e-4 }), 20, 20);
    const [before, after] = evals(history);
    expect(after).toBeGreaterThanOrEqual(before + 0.1);
    // The training reward, measured on fresh samples each step, rises too.
    const reward = train_(history, 'rewards/correctness/mean');
    expect(mean(reward.slice(-5))).toBeGreaterThan(mean(reward.slice(0, 5)));
    model.dispose();
  }, 120_000);

  it('GRPO against the flawed reward_hacking verifier raises the training reward while held-out accuracy falls', async () => {
    const model = checkpoint('sft');
    const history = await train(createGrpoTrainer(model, task, { seed: 0, ...grpoPresets.reward_hacking.overrides }), 10, 10);
    const [before, after] = evals(history);
    expect(after).toBeLessThan(before - 0.15);
    const reward = train_(history, 'rewards/correctness/mean'); // the flawed verifier's score
    expect(mean(reward.slice(-3))).toBeGreaterThan(0.7);
    model.dispose();
  }, 120_000);

  it('DPO on pairs sampled from the SFT checkpoint reaches high reward accuracy', async () => {
    const model = checkpoint('sft');
    // The lr_too_high preset's rate: reward accuracy is what DPO optimises, and it gets there fast.
    const trainer = await createDpoTrainer(model, task, { seed: 0, learning_rate: 5e-4 });
    const history = await train(trainer, 60, 0);
    expect(mean(train_(history, 'rewards/accuracies').slice(-10))).toBeGreaterThanOrEqual(0.85);
    const margins = train_(history, 'rewards/margins');
    expect(mean(margins.slice(-10))).toBeGreaterThan(mean(margins.slice(0, 5)));
    model.dispose();
  }, 120_000);

  it('DPO at its default learning rate raises held-out accuracy', async () => {
    const model = checkpoint('sft');
    const history = await train(await createDpoTrainer(model, task, { seed: 0 }), 20, 20);
    const [before, after] = evals(history);
    expect(after).toBeGreaterThanOrEqual(before + 0.05);
    model.dispose();
  }, 120_000);
});
