/**
 * The optimizer every trainer uses: Adam with ε pinned, so that a run's numbers do not depend on the backend (tfjs's
 * WebGL backend would otherwise pick ε = 1e-4; tests/e2e/backends.spec.ts compares backends in Chromium).
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { setWasmFastPaths } from '@/lib/models/fast-paths';
import { createRng } from '@/lib/random';
import { selectBackend } from '@/lib/tf/backend';
import { adamKernelApplies, adamUpdate } from '@/lib/train/adam-kernel/adam-kernel';
import { ADAM_EPSILON, adam, clipByGlobalNorm, optimizerStep } from '@/lib/train/optim';
import { compileKernel, KERNELS } from '@/scripts/kernel/compile.mjs';

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] }); // registers wasm for the test that needs it
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

describe('adam on wasm (lib/models/fast-paths.ts: the update as one kernel per variable, lib/train/adam-kernel)', () => {
  const bits = (t: tf.Tensor) => Array.from(new Uint32Array((t.dataSync() as Float32Array).slice().buffer));

  it('gives tfjs’s Adam bit for bit over many steps, even when the two paths alternate, with no tensors left over', async () => {
    await tf.setBackend('wasm');
    try {
      const rng = createRng(11);
      const start = Array.from({ length: 3 }, (_, i) => Float32Array.from({ length: 7 + i * 5 }, () => rng.normal()));
      const makeWeights = () => start.map((values) => tf.variable(tf.tensor1d(values)));
      const [fast, stock] = [makeWeights(), makeWeights()];
      const [fastAdam, stockAdam]: tf.Optimizer[] = [adam(3e-3), tf.train.adam(3e-3, 0.9, 0.999, ADAM_EPSILON)];
      let tensors = 0;
      for (let step = 0; step < 25; step++) {
        // Gradients over several decades, some exactly zero; the same for both.
        const grads = start.map((values) => Float32Array.from(values, (_, i) => ((i + step) % 5 === 0 ? 0 : rng.normal() * 10 ** (rng.int(6) - 4))));
        setWasmFastPaths(step % 7 !== 3); // the stock path now and then: the state must carry across
        fastAdam.applyGradients(Object.fromEntries(fast.map((w, k) => [w.name, tf.tensor1d(grads[k])])));
        setWasmFastPaths(true);
        stockAdam.applyGradients(Object.fromEntries(stock.map((w, k) => [w.name, tf.tensor1d(grads[k])])));
        fast.forEach((w, k) => expect(bits(w), `step ${step}, weight ${k}`).toEqual(bits(stock[k])));
        if (step === 1) tensors = tf.memory().numTensors;
      }
      expect(tf.memory().numTensors - tensors).toBe(23 * 2 * 3); // only the gradients this test made and left
      fastAdam.dispose();
      stockAdam.dispose();
      tf.dispose([...fast, ...stock]);
    } finally {
      setWasmFastPaths(true);
      await tf.setBackend('cpu');
    }
  });
});

describe('optimizerStep on wasm: clipping and Adam on the heap (lib/train/adam-kernel)', () => {
  const bits = (t: tf.Tensor) => Array.from(new Uint32Array((t.dataSync() as Float32Array).slice().buffer));

  it('gives clipByGlobalNorm then tfjs’s Adam bit for bit, clipping or not, and the same grad_norm, with no tensors left over', async () => {
    await tf.setBackend('wasm');
    try {
      expect(adamKernelApplies()).toBe(true);
      const rng = createRng(12);
      const start = Array.from({ length: 4 }, (_, i) => Float32Array.from({ length: 3 + i * 6 }, () => rng.normal()));
      const makeWeights = () => start.map((values) => tf.variable(tf.tensor1d(values)));
      const [fast, stock] = [makeWeights(), makeWeights()];
      const [fastAdam, stockAdam]: tf.Optimizer[] = [adam(1e-2), tf.train.adam(1e-2, 0.9, 0.999, ADAM_EPSILON)];
      let tensors = 0;
      for (let step = 0; step < 12; step++) {
        // The loss Σ w·c has gradient c: over several decades, so ‖g‖ falls on both sides of max_grad_norm = 1.
        const decade = 10 ** (step % 4 - 2);
        const coefficients = start.map((values) => tf.tensor1d(Float32Array.from(values, (_, i) => (i % 4 === 0 ? 0 : rng.normal() * decade))));
        const loss = (weights: tf.Variable[]) => () => tf.addN(weights.map((w, k) => tf.sum(tf.mul(w, coefficients[k])))) as tf.Scalar;
        const norm = optimizerStep(fastAdam, fast, 1, loss(fast));
        const { value, grads } = tf.variableGrads(loss(stock), stock);
        const clipped = clipByGlobalNorm(grads, 1);
        stockAdam.applyGradients(clipped.grads);
        expect(bits(norm), `grad_norm at step ${step}`).toEqual(bits(clipped.norm));
        fast.forEach((w, k) => expect(bits(w), `step ${step}, weight ${k}`).toEqual(bits(stock[k])));
        tf.dispose([value, norm, clipped.norm, ...Object.values(grads), ...Object.values(clipped.grads), ...coefficients]);
        if (step === 1) tensors = tf.memory().numTensors;
      }
      expect(tf.memory().numTensors).toBe(tensors);
      fastAdam.dispose();
      stockAdam.dispose();
      tf.dispose([...fast, ...stock]);
    } finally {
      await tf.setBackend('cpu');
    }
  });

  it('refuses a gradient that does not match its variable', async () => {
    await tf.setBackend('wasm');
    try {
      expect(() => adamUpdate(tf.ones([3]), tf.zeros([4]), tf.zeros([4]), tf.zeros([4]), 1, { beta1: 0.9, beta2: 0.999, oneMinusBeta1: 0.1, oneMinusBeta2: 0.001, correction1: 0.1, correction2: 0.001, epsilon: 1e-7, step: -1e-3 })).toThrow(/float32 of 4 values/);
    } finally {
      await tf.setBackend('cpu');
    }
  });
});

it('the committed adam kernel is what adam-kernel/assembly/index.ts compiles to (run `npm run build:kernel` after editing it)', async () => {
  const text: string = await compileKernel('adam');
  expect(fs.readFileSync(KERNELS.adam.output, 'utf8')).toBe(text);
});
