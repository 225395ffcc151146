/**
 * The batched matmul kernel (lib/models/matmul-kernel): on the wasm backend it must give tf.matMul's numbers bit for
 * bit (values and gradients); elsewhere, and with the fast paths off, it must stand aside. Also: the committed wasm is
 * what its source compiles to. The model with all the fast paths: tests/unit/models/fast-paths.test.ts.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWasmFastPaths } from '@/lib/models/fast-paths';
import { batchMatMul, matMulKernelApplies } from '@/lib/models/matmul-kernel/batch-matmul';
import { createRng } from '@/lib/random';
import { selectBackend } from '@/lib/tf/backend';
import { compileKernel, KERNELS } from '@/scripts/kernel/compile.mjs';

/** Values with every kind of rounding: random magnitudes over several decades, signs, some exact zeros. */
function values(shape: number[], seed: number): tf.Tensor {
  const rng = createRng(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  const data = Float32Array.from({ length: n }, (_, i) => (i % 17 === 0 ? 0 : (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 4 - 2)));
  return tf.tensor(data, shape);
}

/** Bitwise equality (Object.is on each float: −0 and +0 differ, NaN equals NaN). */
function expectSameBits(actual: tf.Tensor, expected: tf.Tensor) {
  expect(actual.shape).toEqual(expected.shape);
  const a = new Uint32Array((actual.dataSync() as Float32Array).slice().buffer);
  const e = new Uint32Array((expected.dataSync() as Float32Array).slice().buffer);
  let differing = 0;
  for (let i = 0; i < e.length; i++) if (a[i] !== e[i]) differing++;
  expect(differing).toBe(0);
}

/** [outer…, m, k] for a, [outer…, k, n] for b, transposed as asked. */
const shapeOf = (outer: number[], rows: number, cols: number, transpose: boolean) => [...outer, ...(transpose ? [cols, rows] : [rows, cols])];

const CASES: { outer: number[]; m: number; k: number; n: number }[] = [
  { outer: [4, 64], m: 21, k: 8, n: 21 }, // attention's q·kᵀ
  { outer: [4, 64], m: 21, k: 21, n: 8 }, // attention's P·v
  { outer: [3], m: 5, k: 1, n: 3 },
  { outer: [2], m: 7, k: 50, n: 9 }, // two blocks of the shared dimension
  { outer: [2, 2], m: 3, k: 130, n: 4 }, // three blocks
  { outer: [5], m: 1, k: 16, n: 1 },
];

describe('the batched matmul kernel on wasm', () => {
  beforeAll(async () => {
    const selection = await selectBackend({ requested: 'wasm', order: ['wasm'] });
    expect(selection.backend).toBe('wasm');
  });
  afterAll(() => setWasmFastPaths(true));

  /** Each case in the four transpose combinations: its operands (fresh values from `seed` on), inside a tidy. */
  function forEachProduct(seed: number, body: (a: tf.Tensor, b: tf.Tensor, transposeA: boolean, transposeB: boolean, outer: number[], m: number, n: number, next: () => number) => void) {
    for (const { outer, m, k, n } of CASES) {
      for (const transposeA of [false, true]) {
        for (const transposeB of [false, true]) {
          tf.tidy(() => {
            const a = values(shapeOf(outer, m, k, transposeA), seed++);
            const b = values(shapeOf(outer, k, n, transposeB), seed++);
            body(a, b, transposeA, transposeB, outer, m, n, () => seed++);
          });
        }
      }
    }
  }

  it('gives tf.matMul’s values bit for bit, in all four transpose cases and across blocks of 48', () => {
    forEachProduct(1, (a, b, transposeA, transposeB) => {
      expect(matMulKernelApplies(a.shape, b.shape)).toBe(true);
      expectSameBits(batchMatMul(a, b, transposeA, transposeB), tf.matMul(a, b, transposeA, transposeB));
    });
  });

  it('gives tf.matMul’s gradients bit for bit', () => {
    forEachProduct(100, (a, b, transposeA, transposeB, outer, m, n, next) => {
      const weights = values([...outer, m, n], next());
      const loss = (product: (x: tf.Tensor, y: tf.Tensor) => tf.Tensor) => (x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.mul(product(x, y), weights));
      const withKernel = tf.grads(loss((x, y) => batchMatMul(x, y, transposeA, transposeB)))([a, b]);
      const stock = tf.grads(loss((x, y) => tf.matMul(x, y, transposeA, transposeB)))([a, b]);
      expectSameBits(withKernel[0], stock[0]);
      expectSameBits(withKernel[1], stock[1]);
    });
  });

  it('adds no tensors that outlive a step', () => {
    const a = values([2, 3, 5, 4], 7);
    const b = values([2, 3, 4, 6], 8);
    const step = () => tf.tidy(() => tf.grads((x: tf.Tensor, y: tf.Tensor) => tf.sum(batchMatMul(x, y)))([a, b]).forEach((g) => g.dataSync()));
    step();
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) step();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([a, b]);
  });

  it('stands aside where it does not apply: broadcast batch dimensions, rank 2, turned off, another backend', async () => {
    expect(matMulKernelApplies([2, 3, 4], [1, 4, 5])).toBe(false);
    expect(matMulKernelApplies([3, 4], [4, 5])).toBe(false);
    expect(matMulKernelApplies([2, 3, 4], [2, 4, 5])).toBe(true);
    setWasmFastPaths(false);
    expect(matMulKernelApplies([2, 3, 4], [2, 4, 5])).toBe(false);
    setWasmFastPaths(true);
    await tf.setBackend('cpu');
    try {
      expect(matMulKernelApplies([2, 3, 4], [2, 4, 5])).toBe(false);
      const out = tf.tidy(() => batchMatMul(tf.ones([2, 3, 4]), tf.ones([2, 4, 5])).arraySync() as number[][][]);
      expect(out[1][2][4]).toBe(4);
    } finally {
      await tf.setBackend('wasm');
    }
  });

  it('says which dimensions disagree', () => {
    expect(() => batchMatMul(tf.ones([2, 3, 4]), tf.ones([2, 5, 6]))).toThrow(/inner dimensions 4 and 5/);
  });
});

it('the committed wasm is what assembly/index.ts compiles to (run `npm run build:kernel` after editing it)', async () => {
  const text: string = await compileKernel('matmul');
  expect(fs.readFileSync(KERNELS.matmul.output, 'utf8')).toBe(text);
});
