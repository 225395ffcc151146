/**
 * The measured backend choice, in Node: a lab's step timed on a backend (lib/spec/backend-probe.ts), and a run moved
 * to another backend between two steps, as the training worker does (labs/shell/train.worker.ts). tfjs moves each
 * tensor on first use, so the run continues where it was: same losses to float32 precision, no tensor left behind.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, describe, expect, it } from 'vitest';
import { selectBackend } from '@/lib/tf/backend';
import { stepsPerCycle, timeBackend } from '@/lib/spec/backend-probe';
import { startTrainer } from '@/lib/spec/start';

const readCheckpoint = async (path: string) => new Uint8Array(fs.readFileSync(`public/${path}`));
const overrides = { seed: 3, num_generations: 4, per_device_train_batch_size: 16 };

afterAll(async () => {
  await tf.setBackend('cpu');
});

async function grpoLosses(steps: number, moveToWasmAfter: number | null) {
  await tf.setBackend('cpu');
  const { trainer } = await startTrainer('grpo', { overrides, readCheckpoint });
  const losses: number[] = [];
  const tensors: number[] = [];
  for (let step = 0; step < steps; step++) {
    if (step === moveToWasmAfter) await selectBackend({ requested: 'wasm', order: ['wasm'] });
    losses.push((await trainer.trainStep()).loss);
    tensors.push(tf.memory().numTensors);
  }
  const backend = tf.getBackend();
  trainer.dispose();
  return { losses, tensors, backend };
}

describe('moving a run between backends', () => {
  it('continues a GRPO run on wasm with the losses it would have had on cpu, and leaks nothing', async () => {
    const stay = await grpoLosses(5, null);
    const moved = await grpoLosses(5, 2);
    expect(stay.backend).toBe('cpu');
    expect(moved.backend).toBe('wasm');
    expect(moved.losses.slice(0, 2)).toEqual(stay.losses.slice(0, 2));
    moved.losses.forEach((loss, i) => expect(Math.abs(loss - stay.losses[i])).toBeLessThan(1e-5));
    expect(new Set(moved.tensors).size).toBe(1); // flat across the move
  }, 120_000);
});

describe('timeBackend', () => {
  it('times the lab’s own step on a backend and frees what it built', async () => {
    await tf.setBackend('cpu');
    const before = tf.memory().numTensors;
    const timing = await timeBackend('grpo', 'wasm', { overrides, readCheckpoint, warmupSteps: 1, timedSteps: 3 });
    expect(timing).toMatchObject({ backend: 'wasm', steps: 3 });
    expect('msPerStep' in timing && timing.msPerStep > 0 && Number.isFinite(timing.msPerStep)).toBe(true);
    expect(tf.memory().numTensors).toBe(before);
  }, 60_000);

  it('times whole sampling cycles when only some steps sample (steps_per_generation, num_iterations)', async () => {
    expect(stepsPerCycle({ steps_per_generation: 2, num_iterations: 3 })).toBe(6);
    expect(stepsPerCycle({ learning_rate: 1e-3 })).toBe(1);
    await tf.setBackend('cpu');
    const timing = await timeBackend('grpo', 'wasm', { overrides: { ...overrides, steps_per_generation: 2 }, readCheckpoint, warmupSteps: 1, timedSteps: 3 });
    expect(timing).toMatchObject({ backend: 'wasm', steps: 4 }); // two cycles of two steps, each starting with sampling
  }, 60_000);

  it('says why a backend could not be timed', async () => {
    expect(await timeBackend('grpo', 'webgpu', { overrides, readCheckpoint })).toEqual({ backend: 'webgpu', skipped: 'navigator.gpu is not available' });
    const webgl = await timeBackend('grpo', 'webgl', { overrides, readCheckpoint });
    expect(webgl).toEqual({ backend: 'webgl', skipped: expect.stringMatching(/canvas/) });
  });

  it('reports a trainer that refuses the settings as not timed, not as a crash', async () => {
    const timing = await timeBackend('grpo', 'cpu', { overrides: { num_generations: -1 }, readCheckpoint });
    expect(timing).toEqual({ backend: 'cpu', skipped: expect.stringMatching(/^failed while training: .*num_generations/) });
  });
});
