/**
 * The dense layer's backward kernel (lib/models/dense-kernel): on the wasm backend it must give the stock backward
 * pass's numbers bit for bit (ops.ts: Step·Multiply, dz·Wᵀ, xᵀ·dz and the column sums on tfjs kernels), for the lab's
 * shapes and for ragged ones that exercise every tail of its tiles; it must stand aside where it does not apply, free
 * what it allocates, and the committed wasm must be what its source compiles to. The whole model: fast-paths.test.ts.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denseForwardOnHeap } from '@/lib/models/dense-kernel/dense-forward';
import { denseGrad, denseGradApplies } from '@/lib/models/dense-kernel/dense-grad';
import { setWasmFastPaths, wasmFastPaths } from '@/lib/models/fast-paths';
import { dense, matMul2d } from '@/lib/models/ops';
import { createRng } from '@/lib/random';
import { selectBackend } from '@/lib/tf/backend';
import { compileKernel, KERNELS } from '@/scripts/kernel/compile.mjs';
import { heapCalls } from './heap-calls';

/** Values with every kind of rounding: magnitudes over four decades, both signs, some exact zeros. */
function values(shape: number[], seed: number): tf.Tensor2D {
  const rng = createRng(seed);
  const n = shape[0] * shape[1];
  const data = Float32Array.from({ length: n }, (_, i) => (i % 13 === 0 ? 0 : (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 4 - 2)));
  return tf.tensor2d(data, shape as [number, number]);
}

/** Values with NaN, ±Infinity and −0 among them. */
function specials(shape: number[], seed: number): tf.Tensor2D {
  const data = values(shape, seed).dataSync().slice();
  for (let i = 3; i < data.length; i += 11) data[i] = [NaN, Infinity, -Infinity, -0][i % 4];
  return tf.tensor2d(data, shape as [number, number]);
}

/**
 * Bitwise equality (−0 and +0 differ), except that any two NaNs are equal: WebAssembly leaves the sign of a NaN that
 * an operation creates unspecified (V8 may swap the operands of an add), so the stock kernels' NaNs have no fixed sign.
 */
function expectSameBits(actual: tf.Tensor, expected: tf.Tensor, what: string) {
  expect(actual.shape, what).toEqual(expected.shape);
  const a = new Uint32Array((actual.dataSync() as Float32Array).slice().buffer);
  const e = new Uint32Array((expected.dataSync() as Float32Array).slice().buffer);
  let differing = 0;
  const isNaN32 = (bits: number) => (bits & 0x7f800000) === 0x7f800000 && (bits & 0x007fffff) !== 0;
  for (let i = 0; i < e.length; i++) if (a[i] !== e[i] && !(isNaN32(a[i]) && isNaN32(e[i]))) differing++;
  expect(differing, what).toBe(0);
}

/** The stock backward pass of ops.ts's dense layer on wasm, written out. */
function stockGrad(dy: tf.Tensor2D, x: tf.Tensor2D, w: tf.Tensor2D, y: tf.Tensor2D | null): tf.Tensor[] {
  const dz = (y ? tf.mul(dy, tf.step(y)) : dy) as tf.Tensor2D;
  return [tf.matMul(dz, tf.transpose(w)), tf.matMul(tf.transpose(x), dz), tf.sum(dz, 0)];
}

// [rows, in, out]: the GRPO lab's layers (qkv, out, fc1, fc2, head, the embedding), then ragged ones.
const SHAPES = [
  [1344, 32, 96],
  [1344, 32, 32],
  [1344, 32, 128],
  [1344, 128, 32],
  [1344, 32, 22],
  [1344, 22, 32],
  [7, 5, 3],
  [1, 1, 1],
  [6, 9, 17],
  [3, 4, 8],
  [130, 13, 4],
];

describe('the dense forward kernel on wasm', () => {
  beforeAll(async () => {
    expect((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend).toBe('wasm');
    expect(wasmFastPaths()).toBe(true); // the first query puts the fast kernels in place of the stock ones
    // The kernel alone under a name of its own, so that what it computes is compared with tfjs-wasm's kernels below.
    tf.registerKernel({
      kernelName: 'TestDenseForward',
      backendName: 'wasm',
      kernelFunc: ((args: Parameters<typeof denseForwardOnHeap>[0]) => {
        const out = denseForwardOnHeap(args);
        if (!out) throw new Error('the forward kernel declined');
        return out;
      }) as unknown as tf.KernelFunc,
    });
  });
  afterAll(() => {
    tf.unregisterKernel('TestDenseForward', 'wasm');
    setWasmFastPaths(true);
  });

  const stock = <T>(f: () => T): T => {
    setWasmFastPaths(false);
    try {
      return f();
    } finally {
      setWasmFastPaths(true);
    }
  };

  it("gives XNNPACK's _FusedMatMul and BatchMatMul numbers bit for bit: bias first, ReLU, every tile tail, NaN and infinities", () => {
    let seed = 200;
    for (const [n, inDim, outDim] of SHAPES) {
      for (const make of [values, specials]) {
        tf.tidy(() => {
          const [x, w, b] = [make([n, inDim], seed++), values([inDim, outDim], seed++), tf.tensor1d(values([1, outDim], seed++).dataSync())];
          const what = `[${n}, ${inDim}] → ${outDim}${make === specials ? ' with NaN and ±∞' : ''}`;
          const run = (inputs: tf.NamedTensorMap, attrs: tf.NamedAttrMap) => tf.reshape(tf.engine().runKernel('TestDenseForward', inputs, attrs) as tf.Tensor, [n, outDim]);
          const [x3, w3] = [tf.reshape(x, [1, n, inDim]), tf.reshape(w, [1, inDim, outDim])];
          for (const activation of ['linear', 'relu'] as const) {
            const attrs = { transposeA: false, transposeB: false, activation };
            expectSameBits(run({ a: x3, b: w3, bias: b }, attrs), stock(() => tf.fused.matMul({ a: x, b: w, bias: b, activation })), `_FusedMatMul ${activation} ${what}`);
            expectSameBits(run({ a: x3, b: w3 }, attrs), stock(() => tf.fused.matMul({ a: x, b: w, activation })), `_FusedMatMul ${activation}, no bias, ${what}`);
          }
          expectSameBits(run({ a: x, b: w }, { transposeA: false, transposeB: false }), stock(() => tf.matMul(x, w)), `BatchMatMul ${what}`);
          // What tfjs's fused op runs while it records gradients: the product, then Add, then Relu. tfjs-wasm's Relu
          // reads a NaN's sign bit (−NaN becomes 0), which WebAssembly leaves unspecified: finite inputs only here.
          const unfused = (t: tf.Tensor) => tf.relu(tf.add(t, b));
          if (make === values) expectSameBits(unfused(run({ a: x, b: w }, { transposeA: false, transposeB: false })), stock(() => unfused(tf.matMul(x, w))), `product + bias, ReLU ${what}`);
        });
      }
    }
  });

  it('takes only the single untransposed product with a linear or ReLU activation; tfjs-wasm runs the rest', () => {
    tf.tidy(() => {
      const backend = tf.backend();
      const [a, b, bias] = [values([6, 4], 300), values([4, 5], 301), tf.tensor1d([1, 2, 3, 4, 5])];
      const takes = (inputs: tf.NamedTensorInfoMap, attrs: tf.NamedAttrMap = {}) => {
        const out = denseForwardOnHeap({ inputs, backend, attrs });
        if (out) backend.disposeData(out.dataId);
        return out !== null;
      };
      expect(takes({ a, b })).toBe(true);
      expect(takes({ a, b, bias }, { activation: 'relu' })).toBe(true);
      expect(takes({ a: tf.reshape(a, [1, 1, 6, 4]), b })).toBe(true);
      expect(takes({ a: tf.transpose(a), b }, { transposeA: true })).toBe(false);
      expect(takes({ a, b: tf.transpose(b) }, { transposeB: true })).toBe(false);
      expect(takes({ a: tf.stack([a, a]), b: tf.stack([b, b]) })).toBe(false); // batched: tfjs-wasm's own loop
      expect(takes({ a, b, bias }, { activation: 'elu' })).toBe(false);
      expect(takes({ a, b, bias: tf.tensor1d([1]) })).toBe(false); // a broadcast bias
      expect(takes({ a: tf.cast(a, 'int32'), b })).toBe(false);
      expect(takes({ a: values([3, 128], 302), b: values([128, 129], 303) })).toBe(false); // a large weight: XNNPACK's
      expect(takes({ a: values([3, 128], 302), b: values([128, 128], 303) })).toBe(true);
    });
  });

  it("is what tfjs's matmuls run on wasm with the fast paths on: the same numbers as off, its scratch freed, no tensors left behind", () => {
    const [x, w, b] = [values([50, 12], 400), values([12, 20], 401), tf.tensor1d(values([1, 20], 402).dataSync())];
    const products = () => [tf.fused.matMul({ a: x, b: w, bias: b, activation: 'relu' }), tf.matMul(x, w), tf.fused.matMul({ a: x, b: w, bias: b })];
    // The kernel's scratch is the weight padded to 24 columns (12 × 24 floats), plus the padded bias when there is one:
    // sizes no output of these products has, so they show that our kernel ran, once per product.
    const [withBias, withoutBias] = [(12 * 24 + 24) * 4, 12 * 24 * 4];
    let fast: tf.Tensor[] = [];
    const onCalls = heapCalls(() => (fast = products()));
    expect(onCalls.sizes.filter((n) => n === withBias)).toHaveLength(2);
    expect(onCalls.sizes.filter((n) => n === withoutBias)).toHaveLength(1);
    let off: tf.Tensor[] = [];
    const offCalls = heapCalls(() => (off = stock(products)));
    expect(offCalls.sizes.filter((n) => n === withBias || n === withoutBias)).toHaveLength(0); // XNNPACK instead
    fast.forEach((t, i) => expectSameBits(t, off[i], `product ${i}`));
    tf.dispose([...fast, ...off]);
    const [tensors, bytes] = [tf.memory().numTensors, tf.memory().numBytes];
    const calls = heapCalls(() => {
      for (let i = 0; i < 10; i++) tf.dispose(products());
    });
    expect(calls.outstanding).toBe(0);
    expect(tf.memory().numTensors).toBe(tensors);
    expect(tf.memory().numBytes).toBe(bytes);
    tf.dispose([x, w, b]);
  });
});

describe('the dense backward kernel on wasm', () => {
  beforeAll(async () => {
    expect((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend).toBe('wasm');
  });
  afterAll(() => setWasmFastPaths(true));

  it('gives the stock dx, dW and db bit for bit, with and without the ReLU, across every tile tail', () => {
    expect(denseGradApplies()).toBe(true);
    let seed = 1;
    for (const [n, inDim, outDim] of SHAPES) {
      for (const relu of [false, true]) {
        tf.tidy(() => {
          const [dy, x, w] = [values([n, outDim], seed++), values([n, inDim], seed++), values([inDim, outDim], seed++)];
          const y = relu ? tf.relu(values([n, outDim], seed++)) as tf.Tensor2D : null;
          const fast = denseGrad(dy, x, w, y, true);
          const stock = stockGrad(dy, x, w, y);
          ['dx', 'dW', 'db'].forEach((name, i) => expectSameBits(fast[i], stock[i], `${name} of [${n}, ${inDim}] → ${outDim}${relu ? ' relu' : ''}`));
          const withoutBias = denseGrad(dy, x, w, y, false);
          expect(withoutBias).toHaveLength(2);
          expectSameBits(withoutBias[1], stock[1], 'dW without a bias');
        });
      }
    }
  });

  it('is what dense() and matMul2d() differentiate through: the same gradients as with the fast paths off', () => {
    const [x, w, b, weights] = [values([40, 12], 50), values([12, 20], 51), tf.tensor1d(values([1, 20], 52).dataSync()), values([40, 20], 53)];
    const grads = (fast: boolean, f: (x: tf.Tensor, w: tf.Tensor, b: tf.Tensor) => tf.Tensor) => {
      setWasmFastPaths(fast);
      try {
        return tf.grads((xs: tf.Tensor, ws: tf.Tensor, bs: tf.Tensor) => tf.sum(tf.mul(f(xs, ws, bs), weights)))([x, w, b]);
      } finally {
        setWasmFastPaths(true);
      }
    };
    for (const [what, f] of [
      ['dense relu', (xs: tf.Tensor, ws: tf.Tensor, bs: tf.Tensor) => dense(xs as tf.Tensor2D, ws as tf.Tensor2D, bs, 'relu')],
      ['dense linear', (xs: tf.Tensor, ws: tf.Tensor, bs: tf.Tensor) => dense(xs as tf.Tensor2D, ws as tf.Tensor2D, bs)],
      ['matMul2d', (xs: tf.Tensor, ws: tf.Tensor, bs: tf.Tensor) => tf.add(matMul2d(xs as tf.Tensor2D, ws as tf.Tensor2D), bs)],
    ] as const) {
      const [fast, stock] = [grads(true, f), grads(false, f)];
      fast.forEach((g, i) => expectSameBits(g, stock[i], `${what}: gradient ${i}`));
      tf.dispose([...fast, ...stock]);
    }
    tf.dispose([x, w, b, weights]);
  });

  it('leaves no tensors behind', () => {
    const [dy, x, w, y] = [values([64, 24], 60), values([64, 16], 61), values([16, 24], 62), values([64, 24], 63)];
    const step = () => tf.dispose(denseGrad(dy, x, w, y, true));
    step();
    const [tensors, bytes] = [tf.memory().numTensors, tf.memory().numBytes];
    for (let i = 0; i < 20; i++) step();
    expect(tf.memory().numTensors).toBe(tensors);
    expect(tf.memory().numBytes).toBe(bytes);
    tf.dispose([dy, x, w, y]);
  });

  it('stands aside when the fast paths are off or on another backend, and refuses shapes that do not fit', async () => {
    setWasmFastPaths(false);
    expect(denseGradApplies()).toBe(false);
    setWasmFastPaths(true);
    await tf.setBackend('cpu');
    try {
      expect(denseGradApplies()).toBe(false);
    } finally {
      await tf.setBackend('wasm');
    }
    expect(() => denseGrad(tf.ones([4, 3]) as tf.Tensor2D, tf.ones([4, 5]) as tf.Tensor2D, tf.ones([6, 3]) as tf.Tensor2D, null, true)).toThrow(/do not fit/);
  });
});

it('the committed wasm is what assembly/index.ts compiles to (run `npm run build:kernel` after editing it)', async () => {
  const text: string = await compileKernel('dense');
  expect(fs.readFileSync(KERNELS.dense.output, 'utf8')).toBe(text);
});
