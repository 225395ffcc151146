/**
 * The wasm fast paths (lib/models/fast-paths.ts): LayerNorm and attention with their backward passes written out,
 * attention's products on the matmul kernel, dense layers' backward on the dense kernel (dense-kernel.test.ts), clones
 * that share data, Adam on the heap (tests/unit/train/optim.test.ts). They must give the
 * stock numbers bit for bit, forward and backward, so that no seeded run, claim or checkpoint moves; and the gradients
 * must be right in their own terms, against finite differences of a float64 reference.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWasmFastPaths, wasmFastPaths } from '@/lib/models/fast-paths';
import { attention, layerNorm } from '@/lib/models/ops';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { selectBackend } from '@/lib/tf/backend';
import { compileKernel, KERNELS } from '@/scripts/kernel/compile.mjs';

const randoms = (n: number, seed: number, scale = 1) => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => (rng.next() - 0.5) * 2 * scale);
};

/** Central differences of a float64 function at x: the reference gradient. */
function numericGradient(f: (x: number[]) => number, x: number[], h = 1e-5): number[] {
  return x.map((_, i) => {
    const up = x.slice();
    const down = x.slice();
    up[i] += h;
    down[i] -= h;
    return (f(up) - f(down)) / (2 * h);
  });
}

/** Largest |a − b| over the largest |b|: a relative error that ignores entries near zero. */
function relativeError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < b.length; i++) {
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
    scale = Math.max(scale, Math.abs(b[i]));
  }
  return diff / scale;
}

function sameBits(a: tf.Tensor, b: tf.Tensor): boolean {
  const x = new Uint32Array((a.dataSync() as Float32Array).slice().buffer);
  const y = new Uint32Array((b.dataSync() as Float32Array).slice().buffer);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** LayerNorm in float64, as ops.ts defines it: rows of D. */
function layerNorm64(x: number[], g: number[], b: number[], D: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < x.length / D; r++) {
    const row = x.slice(r * D, (r + 1) * D);
    const mean = row.reduce((s, v) => s + v, 0) / D;
    const variance = row.reduce((s, v) => s + (v - mean) ** 2, 0) / D;
    const inv = 1 / Math.sqrt(variance + 1e-5);
    row.forEach((v, d) => out.push((v - mean) * inv * g[d] + b[d]));
  }
  return out;
}

/** Causal attention in float64: q, k, v [H·B rows of T × hd], as ops.ts's attention. */
function attention64(q: number[], k: number[], v: number[], heads: number, T: number, hd: number): number[] {
  const out = new Array<number>(q.length).fill(0);
  for (let h = 0; h < heads; h++) {
    const at = h * T * hd;
    for (let i = 0; i < T; i++) {
      const scores: number[] = [];
      for (let j = 0; j <= i; j++) {
        let dot = 0;
        for (let d = 0; d < hd; d++) dot += q[at + i * hd + d] * k[at + j * hd + d];
        scores.push(dot / Math.sqrt(hd));
      }
      const max = Math.max(...scores);
      const exps = scores.map((s) => Math.exp(s - max));
      const total = exps.reduce((s, e) => s + e, 0);
      for (let j = 0; j <= i; j++) for (let d = 0; d < hd; d++) out[at + i * hd + d] += (exps[j] / total) * v[at + j * hd + d];
    }
  }
  return out;
}

const causalMask = (T: number) => tf.tensor2d(Array.from({ length: T * T }, (_, i) => (i % T > Math.floor(i / T) ? -1e9 : 0)), [T, T]);
const dot = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

describe('the wasm fast paths', () => {
  beforeAll(async () => {
    expect((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend).toBe('wasm');
  });
  afterAll(() => setWasmFastPaths(true));

  it('are on by default on wasm, and can be turned off', () => {
    expect(wasmFastPaths()).toBe(true);
    setWasmFastPaths(false);
    expect(wasmFastPaths()).toBe(false);
    setWasmFastPaths(true);
  });

  it('clone (what autodiff runs on every tensor it saves) shares the data instead of copying it; off, it copies', () => {
    const x = tf.tensor1d([1.5, -2, 3]);
    const buffers = () => (tf.memory() as unknown as { numDataBuffers: number }).numDataBuffers;
    const cloneBuffers = () => {
      const before = buffers();
      const y = tf.clone(x);
      return { y, added: buffers() - before };
    };
    const shared = cloneBuffers();
    expect(shared.added).toBe(0);
    setWasmFastPaths(false);
    const copied = cloneBuffers();
    setWasmFastPaths(true);
    expect(copied.added).toBe(1);
    x.dispose(); // the shared clone keeps the values alive
    expect(Array.from(shared.y.dataSync())).toEqual([1.5, -2, 3]);
    expect(Array.from(copied.y.dataSync())).toEqual([1.5, -2, 3]);
    const tensors = tf.memory().numTensors;
    tf.dispose([shared.y, copied.y]);
    expect(tf.memory().numTensors).toBe(tensors - 2);
  });

  it('slice and split copy from the heap, with the stock values for every dtype, rank and kind of slice; off, the stock kernels read the input out', () => {
    const backend = tf.backend() as unknown as { readSync: (...args: unknown[]) => unknown };
    const cases: { shape: number[]; begin: number[]; size: number[] }[] = [
      { shape: [12, 5, 3, 2], begin: [4, 0, 0, 0], size: [4, 5, 3, 2] }, // whole trailing axes: one run
      { shape: [6, 7, 5], begin: [1, 2, 0], size: [3, 4, 5] }, // runs of whole rows
      { shape: [6, 7, 5], begin: [0, 6, 1], size: [6, 1, 3] }, // a strided column
      { shape: [3, 2, 4, 5, 2], begin: [1, 0, 2, 1, 1], size: [2, 2, 1, 3, 1] }, // rank 5: stock falls back to its generic path
      { shape: [9], begin: [3], size: [4] },
      { shape: [4, 3], begin: [2, 0], size: [0, 3] }, // empty
    ];
    const read = (on: boolean, f: () => tf.Tensor | tf.Tensor[]) => {
      setWasmFastPaths(on);
      let reads = 0;
      const readSync = backend.readSync;
      backend.readSync = (...args: unknown[]) => (reads++, readSync.apply(backend, args));
      try {
        const outs = [f()].flat();
        const values = outs.map((t) => ({ shape: t.shape, dtype: t.dtype, values: Array.from(t.dataSync() as ArrayLike<number>) }));
        tf.dispose(outs);
        return { values, reads: reads - outs.length }; // dataSync above reads each output once
      } finally {
        backend.readSync = readSync;
        setWasmFastPaths(true);
      }
    };
    for (const dtype of ['float32', 'int32', 'bool'] as const) {
      for (const { shape, begin, size } of cases) {
        const n = shape.reduce((a, b) => a * b, 1);
        const x = tf.tensor(randoms(n, n + shape.length).map((v, i) => (dtype === 'bool' ? Number(v > 0) : dtype === 'int32' ? i - 7 : v)), shape, dtype);
        const fast = read(true, () => tf.slice(x, begin, size));
        const stock = read(false, () => tf.slice(x, begin, size));
        expect(fast.values, `${dtype} slice ${JSON.stringify({ shape, begin, size })}`).toEqual(stock.values);
        expect(fast.reads).toBe(0);
        if (size.every((s) => s > 0)) expect(stock.reads).toBeGreaterThan(0); // what the fast path avoids: a copy of x
        x.dispose();
      }
      const x = tf.tensor(randoms(12 * 4 * 3, 5).map((v) => (dtype === 'float32' ? v : Number(v > 0))), [12, 4, 3], dtype);
      for (const [parts, axis] of [[3, 0], [[1, 3], 1], [[2, 0, 1], 2]] as const) {
        const fast = read(true, () => tf.split(x, parts as number | number[], axis));
        const stock = read(false, () => tf.split(x, parts as number | number[], axis));
        expect(fast.values, `${dtype} split ${JSON.stringify(parts)} on axis ${axis}`).toEqual(stock.values);
        expect(fast.reads).toBe(0);
      }
      x.dispose();
    }
    // Slicing is differentiated through the stock gradient (a pad): the same gradient either way.
    const x = tf.tensor2d(randoms(20, 3), [4, 5]);
    const w = tf.tensor2d(randoms(6, 4), [2, 3]);
    const loss = (t: tf.Tensor) => tf.sum(tf.add(tf.mul(tf.slice(t, [1, 1], [2, 3]), w), tf.split(t, [2, 3], 1)[1].sum()));
    const grad = (on: boolean) => read(on, () => tf.grad(loss)(x)).values;
    expect(grad(true)).toEqual(grad(false));
    tf.dispose([x, w]);
  });

  it('LayerNorm: the stock values and gradients bit for bit, and the gradient of a float64 reference', () => {
    for (const [N, D] of [[5, 8], [7, 12], [9, 7], [3, 33]]) checkLayerNorm(N, D); // whole SIMD lanes and a column tail
  });

  function checkLayerNorm(N: number, D: number) {
    const [x, g, b, w] = [randoms(N * D, N + 1, 3), randoms(D, N + 2), randoms(D, N + 3), randoms(N * D, N + 4)];
    const loss = (xs: tf.Tensor, gs: tf.Tensor, bs: tf.Tensor) => tf.sum(tf.mul(layerNorm(xs as tf.Tensor2D, gs, bs), tf.tensor2d(w, [N, D])));
    const inputs = [tf.tensor2d(x, [N, D]), tf.tensor1d(g), tf.tensor1d(b)];
    const fast = tf.grads(loss)(inputs);
    const y = layerNorm(inputs[0] as tf.Tensor2D, inputs[1], inputs[2]);
    setWasmFastPaths(false);
    const stockY = layerNorm(inputs[0] as tf.Tensor2D, inputs[1], inputs[2]);
    const stock = tf.grads(loss)(inputs);
    setWasmFastPaths(true);
    expect(sameBits(y, stockY)).toBe(true);
    fast.forEach((grad, i) => expect(sameBits(grad, stock[i]), `gradient ${i}`).toBe(true));
    const f = (xs: number[], gs: number[], bs: number[]) => dot(layerNorm64(xs, gs, bs, D), w);
    const expected = [numericGradient((xs) => f(xs, g, b), x), numericGradient((gs) => f(x, gs, b), g), numericGradient((bs) => f(x, g, bs), b)];
    fast.forEach((grad, i) => expect(relativeError(grad.dataSync(), expected[i])).toBeLessThan(1e-4));
    tf.dispose([...inputs, ...fast, ...stock, y, stockY]);
  }

  it('attention: the stock values and gradients bit for bit, and the gradient of a float64 reference', () => {
    const [H, B, T, hd] = [2, 3, 5, 4];
    const n = H * B * T * hd;
    const [q, k, v, w] = [randoms(n, 5, 2), randoms(n, 6, 2), randoms(n, 7), randoms(n, 8)];
    const mask = causalMask(T);
    const shape = [H, B, T, hd] as [number, number, number, number];
    const loss = (qs: tf.Tensor, ks: tf.Tensor, vs: tf.Tensor) => tf.sum(tf.mul(attention(qs as tf.Tensor4D, ks as tf.Tensor4D, vs as tf.Tensor4D, mask), tf.tensor4d(w, shape)));
    const inputs = [tf.tensor4d(q, shape), tf.tensor4d(k, shape), tf.tensor4d(v, shape)] as tf.Tensor4D[];
    const fast = tf.grads(loss)(inputs);
    const out = attention(inputs[0], inputs[1], inputs[2], mask);
    setWasmFastPaths(false);
    const stockOut = attention(inputs[0], inputs[1], inputs[2], mask);
    const stock = tf.grads(loss)(inputs);
    setWasmFastPaths(true);
    expect(sameBits(out, stockOut)).toBe(true);
    fast.forEach((grad, i) => expect(sameBits(grad, stock[i]), `gradient ${i}`).toBe(true));
    const f = (qs: number[], ks: number[], vs: number[]) => dot(attention64(qs, ks, vs, H * B, T, hd), w);
    const expected = [numericGradient((qs) => f(qs, k, v), q), numericGradient((ks) => f(q, ks, v), k), numericGradient((vs) => f(q, k, vs), v)];
    fast.forEach((grad, i) => expect(relativeError(grad.dataSync(), expected[i])).toBeLessThan(1e-4));
    tf.dispose([...inputs, ...fast, ...stock, out, stockOut, mask]);
  });

  it('the lab model: the same loss and gradients as autodiff of the stock ops, bit for bit, and no leaks', () => {
    const task = createArithmeticTask({ digits: 2, scratchpad: true });
    const model = createTinyLM(configForTask(task), 3);
    const ids = tf.tensor2d(Array.from({ length: 6 * 20 }, (_, i) => (i * 7 + 3) % model.config.vocab_size), [6, 20], 'int32');
    const targets = tf.oneHot(tf.tensor2d(Array.from({ length: 6 * 20 }, (_, i) => (i * 5 + 1) % model.config.vocab_size), [6, 20], 'int32'), model.config.vocab_size);
    const step = (fast: boolean) => {
      setWasmFastPaths(fast);
      try {
        return tf.variableGrads(() => tf.losses.softmaxCrossEntropy(targets, model.forward(ids, { training: true }).logits) as tf.Scalar, model.trainableVariables());
      } finally {
        setWasmFastPaths(true);
      }
    };
    const fast = step(true);
    const stock = step(false);
    expect(sameBits(fast.value, stock.value)).toBe(true);
    for (const name of Object.keys(stock.grads)) expect(sameBits(fast.grads[name], stock.grads[name]), name).toBe(true);
    tf.dispose([fast.value, stock.value, ...Object.values(fast.grads), ...Object.values(stock.grads)]);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) {
      const { value, grads } = step(true);
      tf.dispose([value, ...Object.values(grads)]);
    }
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([ids, targets]);
    model.dispose();
  });
});

it('the committed LayerNorm kernel is what layernorm-kernel/assembly/index.ts compiles to (run `npm run build:kernel` after editing it)', async () => {
  const text: string = await compileKernel('layernorm');
  expect(fs.readFileSync(KERNELS.layernorm.output, 'utf8')).toBe(text);
});
