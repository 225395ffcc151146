import * as tf from '@tensorflow/tfjs';
import { wasmFastPaths } from '../fast-paths';
import { MATMUL_KERNEL_WASM_BASE64 } from './wasm';

/**
 * Batched matmul for attention on the wasm backend: the same numbers as tf.matMul there, bit for bit, in a fraction of
 * the time. tfjs-wasm 4.22 runs every batched or transposed matmul through a scalar loop (only a single untransposed
 * 2-D product goes to XNNPACK); attention's q·kᵀ and P·v over B·H small matrices, forward and backward, were ~30% of
 * the GRPO lab's step. assembly/index.ts computes the same sums in the same order, four outputs per SIMD register, so
 * seeded runs, shipped checkpoints and claims do not move (tests/unit/models/matmul-kernel.test.ts checks equality).
 *
 * Other backends, shapes the kernel does not take (batch dimensions that differ or broadcast) and the fast paths turned
 * off (../fast-paths.ts) use tf.matMul.
 */

interface KernelExports {
  memory: WebAssembly.Memory;
  scratchFloats(k: number, n: number): number;
  batchMatMul(a: number, b: number, out: number, scratch: number, batch: number, m: number, k: number, n: number, transposeA: number, transposeB: number): void;
  heapBase(): number;
}

let kernel: KernelExports | null | undefined; // undefined: not tried yet; null: cannot run here (no WebAssembly SIMD)

/**
 * The kernel's instance, made on first use. Synchronous on purpose (the forward pass is): the module is well under the
 * 4 KB that browsers allow to compile synchronously on a page's main thread.
 */
function instance(): KernelExports | null {
  if (kernel !== undefined) return kernel;
  try {
    const bytes = Uint8Array.from(atob(MATMUL_KERNEL_WASM_BASE64), (c) => c.charCodeAt(0));
    kernel = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as unknown as KernelExports;
  } catch {
    kernel = null; // no WebAssembly SIMD (a validation error), or no WebAssembly at all
  }
  return kernel;
}

/** Whether batchMatMul(a, b, …) of these shapes runs on the kernel here and now (see ../fast-paths.ts). */
export function matMulKernelApplies(aShape: readonly number[], bShape: readonly number[]): boolean {
  if (!wasmFastPaths()) return false;
  if (aShape.length < 3 || aShape.length !== bShape.length) return false;
  if (aShape.slice(0, -2).some((d, i) => d !== bShape[i])) return false; // the kernel does not broadcast
  return instance() !== null;
}

const align16 = (n: number) => Math.ceil(n / 16) * 16;

/** The kernel's arithmetic on plain arrays (a [batch, m, k] or [batch, k, m], …): out [batch, m, n]. */
function run(a: Float32Array, b: Float32Array, batch: number, m: number, k: number, n: number, transposeA: boolean, transposeB: boolean): Float32Array {
  const kx = instance()!;
  const aAt = align16(kx.heapBase());
  const bAt = align16(aAt + a.length * 4);
  const outAt = align16(bAt + b.length * 4);
  const scratchAt = align16(outAt + batch * m * n * 4);
  const end = scratchAt + kx.scratchFloats(k, n) * 4;
  const have = kx.memory.buffer.byteLength;
  if (end > have) kx.memory.grow(Math.ceil((end - have) / 65536));
  new Float32Array(kx.memory.buffer, aAt, a.length).set(a);
  new Float32Array(kx.memory.buffer, bAt, b.length).set(b);
  kx.batchMatMul(aAt, bAt, outAt, scratchAt, batch, m, k, n, transposeA ? 1 : 0, transposeB ? 1 : 0);
  // A view, not a copy: tf.tensor() copies it into the backend's heap at once (and nothing runs in between).
  return new Float32Array(kx.memory.buffer, outAt, batch * m * n);
}

/**
 * A tensor's values without a copy where the backend allows it: tfjs-wasm's typedArrayFromHeap is a view of its own
 * heap, valid until that heap grows (run() copies it before anything can). Elsewhere, dataSync()'s copy. Saves the
 * garbage of two copies per product (~0.5 MB per attention product of the GRPO lab).
 */
function valuesOf(t: tf.Tensor): Float32Array {
  const backend = tf.backend() as unknown as { typedArrayFromHeap?: (t: tf.TensorInfo) => Float32Array };
  return typeof backend.typedArrayFromHeap === 'function' ? backend.typedArrayFromHeap(t) : (t.dataSync() as Float32Array);
}

/** The kernel as a tensor op, no gradient. Shapes already checked by matMulKernelApplies. */
function kernelMatMul(a: tf.Tensor, b: tf.Tensor, transposeA: boolean, transposeB: boolean): tf.Tensor {
  const r = a.rank;
  const m = transposeA ? a.shape[r - 1] : a.shape[r - 2];
  const k = transposeA ? a.shape[r - 2] : a.shape[r - 1];
  const kb = transposeB ? b.shape[r - 1] : b.shape[r - 2];
  const n = transposeB ? b.shape[r - 2] : b.shape[r - 1];
  if (k !== kb) throw new Error(`batchMatMul: inner dimensions ${k} and ${kb} of shapes [${a.shape}] and [${b.shape}] (transposeA ${transposeA}, transposeB ${transposeB}) differ`);
  const outer = a.shape.slice(0, -2);
  const batch = outer.reduce((x, y) => x * y, 1);
  const values = run(valuesOf(a), valuesOf(b), batch, m, k, n, transposeA, transposeB);
  return tf.tensor(values, [...outer, m, n], 'float32');
}

/**
 * The kernel with tfjs's own gradient (tfjs-core's BatchMatMul_grad, the same four cases), each product again on the
 * kernel: the backward pass is tf.matMul's too, bit for bit.
 */
const kernelMatMulWithGrad = [false, true].map((transposeA) =>
  [false, true].map((transposeB) =>
    tf.customGrad((a, b, save) => {
      (save as tf.GradSaveFunc)([a as tf.Tensor, b as tf.Tensor]);
      return {
        value: kernelMatMul(a as tf.Tensor, b as tf.Tensor, transposeA, transposeB),
        gradFunc: (dy: tf.Tensor, [sa, sb]: tf.Tensor[]) => {
          if (!transposeA && !transposeB) return [kernelMatMul(dy, sb, false, true), kernelMatMul(sa, dy, true, false)];
          if (!transposeA && transposeB) return [kernelMatMul(dy, sb, false, false), kernelMatMul(dy, sa, true, false)];
          if (transposeA && !transposeB) return [kernelMatMul(sb, dy, false, true), kernelMatMul(sa, dy, false, false)];
          return [kernelMatMul(sb, dy, true, true), kernelMatMul(dy, sa, true, true)];
        },
      };
    }),
  ),
);

/**
 * tf.matMul(a, b, transposeA, transposeB) for tensors of rank ≥ 3 with the same batch dimensions, differentiable;
 * on the wasm kernel where it applies.
 */
export function batchMatMul<T extends tf.Tensor>(a: T, b: T, transposeA = false, transposeB = false): T {
  if (!matMulKernelApplies(a.shape, b.shape)) return tf.matMul(a, b, transposeA, transposeB) as T;
  return kernelMatMulWithGrad[transposeA ? 1 : 0][transposeB ? 1 : 0](a, b) as T;
}
