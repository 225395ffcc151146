import * as tf from '@tensorflow/tfjs';
import { wasmFastPaths } from '../fast-paths';
import { heapKernel, heapOf, registerWasmKernel } from '../wasm-heap';
import { LAYERNORM_KERNEL_WASM_BASE64 } from './wasm';

/**
 * LayerNorm (ops.ts's stock path: the centring, two tfjs kernels, then normalizeOps, seven) and autodiff's backward
 * pass for it (some twenty-five) as one kernel each on tfjs-wasm's heap, with the same numbers bit for bit
 * (assembly/index.ts says which operations, in which order). Only Pow(σ² + ε, 1.5) stays a tfjs kernel: no other
 * implementation reproduces tfjs-wasm's pow.
 */

interface KernelExports {
  centre(x: number, xc: number, n: number, d: number): void;
  centringGrad(dxc: number, out: number, n: number, d: number): void;
  forward(xc: number, g: number, b: number, y: number, shifted: number, inv: number, xhat: number, n: number, d: number, eps: number): void;
  backward(dy: number, xc: number, inv: number, xhat: number, g: number, pow15: number, dxc: number, dg: number, db: number, n: number, d: number): void;
}

const FORWARD = 'ArlLayerNormForward';
const BACKWARD = 'ArlLayerNormBackward';
const kernelFor = heapKernel<KernelExports>(LAYERNORM_KERNEL_WASM_BASE64);

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

function forwardKernel({ inputs, backend, attrs }: KernelArgs): tf.TensorInfo[] {
  const { x, g, b } = inputs as Record<string, tf.TensorInfo>;
  const [n, d] = x.shape;
  const heap = heapOf(backend);
  const outs = [heap.output([n, d]), heap.output([n, d]), heap.output([n, 1]), heap.output([n, 1]), heap.output([n, d])]; // y, xc, shifted, inv, x̂
  const [y, xc, shifted, inv, xhat] = outs.map(heap.at);
  const k = kernelFor(backend)!;
  k.centre(heap.at(x), xc, n, d);
  k.forward(xc, heap.at(g), heap.at(b), y, shifted, inv, xhat, n, d, Number(attrs?.eps));
  return outs;
}

function backwardKernel({ inputs, backend }: KernelArgs): tf.TensorInfo[] {
  const { dy, xc, inv, xhat, g, pow15 } = inputs as Record<string, tf.TensorInfo>;
  const [n, d] = xc.shape;
  const heap = heapOf(backend);
  const outs = [heap.output([n, d]), heap.output([n, d]), heap.output([d]), heap.output([d])]; // dxc, through the mean, dg, db
  const [dxc, viaMean, dg, db] = outs.map(heap.at);
  const k = kernelFor(backend)!;
  k.backward(heap.at(dy), heap.at(xc), heap.at(inv), heap.at(xhat), heap.at(g), heap.at(pow15), dxc, dg, db, n, d);
  k.centringGrad(dxc, viaMean, n, d);
  return outs;
}

/** Whether the kernels run here and now: the fast paths on (../fast-paths.ts), wasm, WebAssembly SIMD. */
export function layerNormKernelApplies(): boolean {
  if (!wasmFastPaths() || kernelFor(tf.backend()) === null) return false;
  registerWasmKernel(FORWARD, forwardKernel);
  registerWasmKernel(BACKWARD, backwardKernel);
  return true;
}

const checkRows = (x: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => {
  if (x.rank !== 2 || g.size !== x.shape[1] || b.size !== x.shape[1] || [x, g, b].some((t) => t.dtype !== 'float32')) {
    throw new Error(`layerNorm kernel: rows [${x.shape}] with gain [${g.shape}] and bias [${b.shape}], all float32, expected`);
  }
};

/**
 * LayerNorm of rows x: xc = x − mean(x), shifted = mean(xc²) + ε, inv = 1/√shifted, x̂ = xc·inv, y = x̂·g + b; returns
 * y and what the backward pass reads.
 */
export function layerNormForward(x: tf.Tensor2D, g: tf.Tensor, b: tf.Tensor, eps: number) {
  checkRows(x, g, b);
  const [y, xc, shifted, inv, xhat] = tf.engine().runKernel(FORWARD, { x, g, b }, { eps }) as unknown as tf.Tensor[];
  return { y: y as tf.Tensor2D, xc, shifted, inv, xhat };
}

/**
 * The gradients of layerNormForward given dy, from what it saved: [dxc, viaMean, dg, db], where x's gradient is dxc
 * (through x − mean) plus viaMean (through the mean), two terms that autodiff adds to x's other gradients one at a time.
 */
export function layerNormBackward(dy: tf.Tensor, xc: tf.Tensor, shifted: tf.Tensor, inv: tf.Tensor, xhat: tf.Tensor, g: tf.Tensor): tf.Tensor[] {
  const pow15 = tf.pow(shifted, 1.5);
  return tf.engine().runKernel(BACKWARD, { dy, xc, inv, xhat, g, pow15 }, {}) as unknown as tf.Tensor[];
}
