import * as tf from '@tensorflow/tfjs';
import { wasmFastPaths } from '../fast-paths';
import { heapKernel, heapOf, registerWasmKernel } from '../wasm-heap';
import { LAYERNORM_KERNEL_WASM_BASE64 } from './wasm';

/**
 * LayerNorm's normalisation (ops.ts's normalizeOps: seven tfjs kernels) and its written-out backward pass (fifteen) as
 * one kernel each on tfjs-wasm's heap, with the same numbers bit for bit (assembly/index.ts says which operations, in
 * which order). Only Pow(σ² + ε, 1.5) stays a tfjs kernel: no other implementation reproduces tfjs-wasm's pow.
 */

interface KernelExports {
  forward(xc: number, g: number, b: number, y: number, shifted: number, inv: number, xhat: number, n: number, d: number, eps: number): void;
  backward(dy: number, xc: number, inv: number, xhat: number, g: number, pow15: number, dxc: number, dg: number, db: number, n: number, d: number): void;
}

const FORWARD = 'ArlLayerNormForward';
const BACKWARD = 'ArlLayerNormBackward';
const kernelFor = heapKernel<KernelExports>(LAYERNORM_KERNEL_WASM_BASE64);

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

function forwardKernel({ inputs, backend, attrs }: KernelArgs): tf.TensorInfo[] {
  const { xc, g, b } = inputs as Record<string, tf.TensorInfo>;
  const [n, d] = xc.shape;
  const heap = heapOf(backend);
  const outs = [heap.output([n, d]), heap.output([n, 1]), heap.output([n, 1]), heap.output([n, d])]; // y, shifted, inv, x̂
  kernelFor(backend)!.forward(heap.at(xc), heap.at(g), heap.at(b), ...(outs.map(heap.at) as [number, number, number, number]), n, d, Number(attrs?.eps));
  return outs;
}

function backwardKernel({ inputs, backend }: KernelArgs): tf.TensorInfo[] {
  const { dy, xc, inv, xhat, g, pow15 } = inputs as Record<string, tf.TensorInfo>;
  const [n, d] = xc.shape;
  const heap = heapOf(backend);
  const outs = [heap.output([n, d]), heap.output([d]), heap.output([d])]; // dxc, dg, db
  kernelFor(backend)!.backward(heap.at(dy), heap.at(xc), heap.at(inv), heap.at(xhat), heap.at(g), heap.at(pow15), ...(outs.map(heap.at) as [number, number, number]), n, d);
  return outs;
}

/** Whether the kernels run here and now: the fast paths on (../fast-paths.ts), wasm, WebAssembly SIMD. */
export function layerNormKernelApplies(): boolean {
  if (!wasmFastPaths() || kernelFor(tf.backend()) === null) return false;
  registerWasmKernel(FORWARD, forwardKernel);
  registerWasmKernel(BACKWARD, backwardKernel);
  return true;
}

const checkRows = (xc: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => {
  if (xc.rank !== 2 || g.size !== xc.shape[1] || b.size !== xc.shape[1] || [xc, g, b].some((t) => t.dtype !== 'float32')) {
    throw new Error(`layerNorm kernel: rows [${xc.shape}] with gain [${g.shape}] and bias [${b.shape}], all float32, expected`);
  }
};

/** normalizeOps(xc, g, b): y = x̂·g + b with shifted = mean(xc²) + ε, inv = 1/√shifted, x̂ = xc·inv. */
export function layerNormForward(xc: tf.Tensor2D, g: tf.Tensor, b: tf.Tensor, eps: number) {
  checkRows(xc, g, b);
  const [y, shifted, inv, xhat] = tf.engine().runKernel(FORWARD, { xc, g, b }, { eps }) as unknown as tf.Tensor[];
  return { y: y as tf.Tensor2D, shifted, inv, xhat };
}

/** [dxc, dg, db] of layerNormForward given dy, from what it saved. */
export function layerNormBackward(dy: tf.Tensor, xc: tf.Tensor, shifted: tf.Tensor, inv: tf.Tensor, xhat: tf.Tensor, g: tf.Tensor): tf.Tensor[] {
  const pow15 = tf.pow(shifted, 1.5);
  return tf.engine().runKernel(BACKWARD, { dy, xc, inv, xhat, g, pow15 }, {}) as unknown as tf.Tensor[];
}
