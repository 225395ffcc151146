import * as tf from '@tensorflow/tfjs';
import { wasmFastPaths } from '@/lib/models/fast-paths';
import { heapKernel, heapOf, registerWasmKernel } from '@/lib/models/wasm-heap';
import { ADAM_KERNEL_WASM_BASE64 } from './wasm';

/**
 * Gradient clipping and Adam on tfjs-wasm's heap (assembly/index.ts): the same numbers as tfjs's kernels, bit for bit,
 * without their ~8 kernels per variable or a JavaScript loop over typed-array copies. Used by FastAdam (../optim.ts).
 */

interface KernelExports {
  sumOfSquares(g: number, n: number): number;
  adamUpdate(
    g: number, m: number, v: number, x: number, mOut: number, vOut: number, xOut: number, n: number,
    scale: number, beta1: number, beta2: number, oneMinusBeta1: number, oneMinusBeta2: number, correction1: number, correction2: number, epsilon: number, step: number,
  ): void;
}

const KERNEL_NAME = 'ArlAdamUpdate';
const kernelFor = heapKernel<KernelExports>(ADAM_KERNEL_WASM_BASE64);

/** Adam's constants for one update, each already a float32 value. */
export interface AdamConstants {
  beta1: number;
  beta2: number;
  oneMinusBeta1: number;
  oneMinusBeta2: number;
  correction1: number;
  correction2: number;
  epsilon: number;
  step: number;
}

function adamUpdateKernel({ inputs, backend, attrs }: { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap }): tf.TensorInfo[] {
  const { g, m, v, x } = inputs as Record<string, tf.TensorInfo>;
  const c = attrs as unknown as AdamConstants & { scale: number };
  const heap = heapOf(backend);
  const [mOut, vOut, xOut] = [heap.output(m.shape), heap.output(v.shape), heap.output(x.shape)];
  const n = x.shape.reduce((a, b) => a * b, 1);
  kernelFor(backend)!.adamUpdate(heap.at(g), heap.at(m), heap.at(v), heap.at(x), heap.at(mOut), heap.at(vOut), heap.at(xOut), n, c.scale, c.beta1, c.beta2, c.oneMinusBeta1, c.oneMinusBeta2, c.correction1, c.correction2, c.epsilon, c.step);
  return [mOut, vOut, xOut];
}

/** Whether the kernel runs here and now: the fast paths on (lib/models/fast-paths.ts), wasm, WebAssembly SIMD. */
export function adamKernelApplies(): boolean {
  if (!wasmFastPaths() || kernelFor(tf.backend()) === null) return false;
  registerWasmKernel(KERNEL_NAME, adamUpdateKernel);
  return true;
}

/** 0 + g₀² + g₁² + … over a float32 tensor's values, as tf.sum(tf.square(g)) on wasm. Where adamKernelApplies(). */
export function sumOfSquares(g: tf.Tensor): number {
  if (g.dtype !== 'float32') throw new Error(`sumOfSquares: float32 only, got ${g.dtype}`);
  return kernelFor(tf.backend())!.sumOfSquares(heapOf(tf.backend()).at(g), g.size);
}

/** Adam's next first moment, second moment and value for one variable, the gradient first scaled by `scale`. */
export function adamUpdate(g: tf.Tensor, m: tf.Tensor, v: tf.Tensor, x: tf.Tensor, scale: number, constants: AdamConstants): tf.Tensor[] {
  if (![g, m, v].every((t) => t.size === x.size && t.dtype === 'float32') || x.dtype !== 'float32') throw new Error(`adamUpdate: gradient, moments and value must be float32 of ${x.size} values`);
  return tf.engine().runKernel(KERNEL_NAME, { g, m, v, x }, { scale, ...constants } as unknown as tf.NamedAttrMap) as unknown as tf.Tensor[];
}
