import * as tf from '@tensorflow/tfjs';
import { wasmFastPaths } from '../fast-paths';
import { heapOf, registerWasmKernel } from '../wasm-heap';
import { ceil8, denseKernelFor as kernelFor } from './kernel';

/**
 * A dense layer's backward pass on the wasm backend as one tfjs kernel, with the stock pass's numbers bit for bit
 * (assembly/index.ts says which sums, in which order). The stock pass (ops.ts) is Step, Multiply, two Transposes, two
 * XNNPACK matmuls and a Sum behind another Transpose, and XNNPACK repacks its right operand on every call because every
 * step's tensors are new: for the GRPO lab that repacking alone was ~8% of a step. The kernel reads and writes
 * tfjs-wasm's own heap (it imports the backend's memory), so nothing is copied.
 */

const KERNEL_NAME = 'ArlDenseGrad';

/** inputs dy [n, out], x [n, in], w [in, out], y [n, out] (only with relu) → dx [n, in], dW [in, out], db [out] (with bias). */
function denseGradKernel({ inputs, backend, attrs }: { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap }): tf.TensorInfo[] {
  const heap = heapOf(backend);
  const k = kernelFor(backend)!;
  const { dy, x, w, y } = inputs as Record<string, tf.TensorInfo>;
  const relu = Boolean(attrs?.relu);
  const withBias = Boolean(attrs?.bias);
  const [n, inDim] = x.shape;
  const outDim = w.shape[1];
  const at = heap.at;
  const dx = heap.output([n, inDim]);
  const dw = heap.output([inDim, outDim]);
  const db = withBias ? heap.output([outDim]) : null;
  // dz in a padded copy when the ReLU changes it or its rows are not whole 8-float tiles; Wᵀ always (small).
  const copyDz = relu || outDim % 8 !== 0;
  const dzStride = copyDz ? ceil8(outDim) : outDim;
  const wtStride = ceil8(inDim);
  const dzBytes = copyDz ? n * dzStride * 4 : 0;
  const scratch = heap.malloc(dzBytes + outDim * wtStride * 4);
  try {
    const dz = copyDz ? scratch : at(dy);
    const wt = scratch + dzBytes;
    if (copyDz) k.prepareDz(at(dy), relu ? at(y) : 0, dz, n, outDim, dzStride, relu ? 1 : 0);
    k.transposePadded(at(w), wt, inDim, outDim, wtStride);
    k.product(dz, dzStride, wt, wtStride, at(dx), n, outDim, inDim);
    k.productTransposedA(at(x), inDim, dz, dzStride, at(dw), n, inDim, outDim);
    if (db) k.columnSums(dz, dzStride, at(db), n, outDim);
  } finally {
    heap.free(scratch);
  }
  return db ? [dx, dw, db] : [dx, dw];
}

/** Whether denseGrad runs here and now: the fast paths on (../fast-paths.ts), the wasm backend, WebAssembly SIMD. */
export function denseGradApplies(): boolean {
  if (!wasmFastPaths() || kernelFor(tf.backend()) === null) return false;
  registerWasmKernel(KERNEL_NAME, denseGradKernel);
  return true;
}

/**
 * The gradients of y = act(x·W + b) given dy, as the stock backward pass in ops.ts computes them: [dx, dW, db], or
 * [dx, dW] without a bias. `y` (the layer's output) only with a ReLU. Call where denseGradApplies().
 */
export function denseGrad(dy: tf.Tensor2D, x: tf.Tensor2D, w: tf.Tensor2D, y: tf.Tensor2D | null, withBias: boolean): tf.Tensor[] {
  const shapesFit = dy.rank === 2 && x.rank === 2 && w.rank === 2 && x.shape[1] === w.shape[0] && dy.shape[0] === x.shape[0] && dy.shape[1] === w.shape[1];
  if (!shapesFit) throw new Error(`denseGrad: dy [${dy.shape}], x [${x.shape}] and W [${w.shape}] do not fit y = x·W`);
  if ([dy, x, w, y].some((t) => t && t.dtype !== 'float32')) throw new Error('denseGrad: float32 tensors only');
  const inputs: tf.NamedTensorMap = y ? { dy, x, w, y } : { dy, x, w };
  return tf.engine().runKernel(KERNEL_NAME, inputs, { relu: y !== null, bias: withBias }) as unknown as tf.Tensor[];
}
