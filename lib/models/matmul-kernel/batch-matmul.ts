import * as tf from '@tensorflow/tfjs';
import { wasmFastPaths } from '../fast-paths';
import { heapKernel, heapOf, registerWasmKernel } from '../wasm-heap';
import { MATMUL_KERNEL_WASM_BASE64 } from './wasm';

/**
 * Batched matmul for attention on the wasm backend: the same numbers as tf.matMul there, bit for bit, in a fraction of
 * the time. tfjs-wasm 4.22 runs every batched or transposed matmul through a scalar loop (only a single untransposed
 * 2-D product goes to XNNPACK); attention's q·kᵀ and P·v over B·H small matrices, forward and backward, were ~30% of
 * the GRPO lab's step. assembly/index.ts computes the same sums in the same order, four rows by eight columns of
 * outputs at a time, so seeded runs, shipped checkpoints and claims do not move (tests/unit/models/matmul-kernel.test.ts
 * checks equality). It runs as a registered tfjs kernel on tfjs-wasm's own heap (../wasm-heap.ts): no copies.
 *
 * Other backends, shapes the kernel does not take (batch dimensions that differ or broadcast) and the fast paths turned
 * off (../fast-paths.ts) use tf.matMul.
 */

interface KernelExports {
  scratchFloats(k: number, n: number): number;
  batchMatMul(a: number, b: number, out: number, scratch: number, batch: number, m: number, k: number, n: number, transposeA: number, transposeB: number): void;
}

const KERNEL_NAME = 'ArlBatchMatMul';
const kernelFor = heapKernel<KernelExports>(MATMUL_KERNEL_WASM_BASE64);

/** Whether batchMatMul(a, b, …) of these shapes runs on the kernel here and now (see ../fast-paths.ts). */
export function matMulKernelApplies(aShape: readonly number[], bShape: readonly number[]): boolean {
  if (!wasmFastPaths()) return false;
  if (aShape.length < 3 || aShape.length !== bShape.length) return false;
  if (aShape.slice(0, -2).some((d, i) => d !== bShape[i])) return false; // the kernel does not broadcast
  if (kernelFor(tf.backend()) === null) return false;
  registerWasmKernel(KERNEL_NAME, batchMatMulKernel);
  return true;
}

/** The registered kernel: inputs a, b on tfjs-wasm's heap, the product written into a new output there. */
function batchMatMulKernel({ inputs, backend, attrs }: { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap }): tf.TensorInfo {
  const { a, b } = inputs as Record<string, tf.TensorInfo>;
  const [transposeA, transposeB] = [Boolean(attrs?.transposeA), Boolean(attrs?.transposeB)];
  const r = a.shape.length;
  const m = transposeA ? a.shape[r - 1] : a.shape[r - 2];
  const k = transposeA ? a.shape[r - 2] : a.shape[r - 1];
  const n = transposeB ? b.shape[r - 2] : b.shape[r - 1];
  const outer = a.shape.slice(0, -2);
  const batch = outer.reduce((x, y) => x * y, 1);
  const heap = heapOf(backend);
  const kx = kernelFor(backend)!;
  const out = heap.output([...outer, m, n]);
  const scratch = heap.malloc(Math.max(kx.scratchFloats(k, n), 1) * 4);
  try {
    kx.batchMatMul(heap.at(a), heap.at(b), heap.at(out), scratch, batch, m, k, n, transposeA ? 1 : 0, transposeB ? 1 : 0);
  } finally {
    heap.free(scratch);
  }
  return out;
}

/** The kernel as a tensor op, no gradient. Shapes already checked by matMulKernelApplies. */
function kernelMatMul(a: tf.Tensor, b: tf.Tensor, transposeA: boolean, transposeB: boolean): tf.Tensor {
  const r = a.rank;
  const k = transposeA ? a.shape[r - 2] : a.shape[r - 1];
  const kb = transposeB ? b.shape[r - 1] : b.shape[r - 2];
  if (k !== kb) throw new Error(`batchMatMul: inner dimensions ${k} and ${kb} of shapes [${a.shape}] and [${b.shape}] (transposeA ${transposeA}, transposeB ${transposeB}) differ`);
  if (k === 0) return tf.matMul(a, b, transposeA, transposeB); // nothing to sum: zeros, which the kernel would not write
  return tf.engine().runKernel(KERNEL_NAME, { a, b }, { transposeA, transposeB }) as tf.Tensor;
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
