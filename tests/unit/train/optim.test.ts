/**
 * The optimizer every trainer uses: Adam with ε pinned, so that a run's numbers do not depend on the backend (tfjs's
 * WebGL backend would otherwise pick ε = 1e-4; tests/e2e/backends.spec.ts compares backends in Chromium).
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADAM_EPSILON, adam, clipByGlobalNorm } from '@/lib/train/optim';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** One Adam step from w = 0 with gradient g; returns the new w. */
async function firstStep(optimizer: tf.Optimizer, g: number): Promise<number> {
  const w = tf.variable(tf.scalar(0));
  optimizer.applyGradients({ [w.name]: tf.scalar(g) });
  const value = (await w.data())[0];
  w.dispose();
  optimizer.dispose();
  return value;
}

describe('adam', () => {
  it('takes its first step as lr · g / (|g| + ε) with the pinned ε, whatever the backend would choose', async () => {
    // Bias-corrected m̂ = g and v̂ = g² after one step, so Δw = −lr · g / (|g| + ε).
    const g = 1e-6;
    const lr = 0.1;
    const expected = -lr * g / (g + ADAM_EPSILON); // ≈ −0.0909; with ε = 1e-4 it would be ≈ −0.00099
    expect(await firstStep(adam(lr), g)).toBeCloseTo(expected, 5);
    expect(await firstStep(adam(lr, 1e-5), g)).toBeCloseTo(-lr * g / (g + 1e-5), 5);
  });
});

describe('clipByGlobalNorm', () => {
  it('scales every gradient by c / ‖g‖ when the global norm exceeds c, and reports the norm before clipping', async () => {
    const grads = { a: tf.tensor1d([3, 0]), b: tf.tensor1d([0, 4]) }; // ‖g‖ = 5
    const { grads: clipped, norm } = clipByGlobalNorm(grads, 1);
    expect((await norm.data())[0]).toBeCloseTo(5, 5);
    expect(Array.from(await clipped.a.data())).toEqual([expect.closeTo(0.6, 5), 0]);
    expect(Array.from(await clipped.b.data())).toEqual([0, expect.closeTo(0.8, 5)]);
    tf.dispose([grads.a, grads.b, clipped.a, clipped.b, norm]);
  });
});
