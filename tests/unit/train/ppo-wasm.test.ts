import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '@/lib/tf/backend';
import { createPpoTrainer } from '@/lib/train/ppo-trainer';

/** The wasm backend in Node (the default on machines without a GPU): oneHot, gather and the dense backward must work. */
beforeAll(async () => {
  await selectBackend({ requested: 'wasm' });
});
afterAll(async () => {
  await tf.setBackend('cpu');
});

describe('PPO on wasm', () => {
  it('learns the default grid world without leaking', async () => {
    expect(tf.getBackend()).toBe('wasm');
    const trainer = createPpoTrainer({});
    await trainer.trainStep();
    const n = tf.memory().numTensors;
    let solvedAt = -1;
    for (let step = 2; step <= 16 && solvedAt < 0; step++) {
      const m = await trainer.trainStep();
      Object.values(m).forEach((v) => expect(Number.isFinite(v)).toBe(true));
      if ((await trainer.evaluate())['eval/success_rate'] === 1) solvedAt = step;
    }
    expect(tf.memory().numTensors).toBe(n);
    expect(solvedAt).toBeGreaterThan(0);
    trainer.dispose();
  });
});
