import * as tf from '@tensorflow/tfjs';
import { wasmFastPaths } from '../fast-paths';
import { DENSE_KERNEL_WASM_BASE64 } from './wasm';

/**
 * A dense layer's backward pass on the wasm backend as one tfjs kernel, with the stock pass's numbers bit for bit
 * (assembly/index.ts says which sums, in which order). The stock pass (ops.ts) is Step, Multiply, two Transposes, two
 * XNNPACK matmuls and a Sum behind another Transpose, and XNNPACK repacks its right operand on every call because every
 * step's tensors are new: for the GRPO lab that repacking alone was ~8% of a step. The kernel reads and writes
 * tfjs-wasm's own heap (it imports the backend's memory), so nothing is copied.
 */

interface KernelExports {
  prepareDz(dy: number, y: number, dzOut: number, n: number, cols: number, stride: number, relu: number): void;
  transposePadded(w: number, wt: number, rows: number, cols: number, stride: number): void;
  productTransposedA(a: number, aStride: number, b: number, bStride: number, out: number, len: number, m: number, outCols: number): void;
  product(a: number, aStride: number, b: number, bStride: number, out: number, rows: number, k: number, outCols: number): void;
  columnSums(a: number, stride: number, out: number, rows: number, cols: number): void;
}

/** What the kernel needs of tfjs-wasm's backend (tfjs-backend-wasm 4.22's BackendWasm; not in its public typings). */
interface WasmBackendInternals {
  wasm?: { asm?: { memory?: unknown }; _malloc(bytes: number): number; _free(at: number): void };
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined };
  makeOutput(shape: number[], dtype: 'float32'): tf.TensorInfo;
}

const KERNEL_NAME = 'ArlDenseGrad';

let module: WebAssembly.Module | null | undefined; // undefined: not tried yet; null: cannot run here (no SIMD)
const instances = new WeakMap<WebAssembly.Memory, KernelExports>();

/** The kernel instantiated on this backend's heap, or null where it cannot run. Synchronous: 3.7 KB compile. */
function kernelFor(backend: unknown): KernelExports | null {
  const memory = (backend as Partial<WasmBackendInternals>).wasm?.asm?.memory;
  if (!(memory instanceof WebAssembly.Memory)) return null;
  const known = instances.get(memory);
  if (known) return known;
  if (module === undefined) {
    try {
      module = new WebAssembly.Module(Uint8Array.from(atob(DENSE_KERNEL_WASM_BASE64), (c) => c.charCodeAt(0)));
    } catch {
      module = null; // no WebAssembly SIMD (a validation error)
    }
  }
  if (module === null) return null;
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as KernelExports;
  instances.set(memory, exports);
  return exports;
}

const ceil8 = (n: number) => Math.ceil(n / 8) * 8;

/** inputs dy [n, out], x [n, in], w [in, out], y [n, out] (only with relu) → dx [n, in], dW [in, out], db [out] (with bias). */
function denseGradKernel({ inputs, backend, attrs }: { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap }): tf.TensorInfo[] {
  const b = backend as WasmBackendInternals;
  const k = kernelFor(backend)!;
  const { dy, x, w, y } = inputs as Record<string, tf.TensorInfo>;
  const relu = Boolean(attrs?.relu);
  const withBias = Boolean(attrs?.bias);
  const [n, inDim] = x.shape;
  const outDim = w.shape[1];
  const at = (t: tf.TensorInfo) => b.dataIdMap.get(t.dataId)!.memoryOffset;
  const dx = b.makeOutput([n, inDim], 'float32');
  const dw = b.makeOutput([inDim, outDim], 'float32');
  const db = withBias ? b.makeOutput([outDim], 'float32') : null;
  // dz in a padded copy when the ReLU changes it or its rows are not whole 8-float tiles; Wᵀ always (small).
  const copyDz = relu || outDim % 8 !== 0;
  const dzStride = copyDz ? ceil8(outDim) : outDim;
  const wtStride = ceil8(inDim);
  const dzBytes = copyDz ? n * dzStride * 4 : 0;
  const scratch = b.wasm!._malloc(dzBytes + outDim * wtStride * 4) >>> 0;
  try {
    const dz = copyDz ? scratch : at(dy);
    const wt = scratch + dzBytes;
    if (copyDz) k.prepareDz(at(dy), relu ? at(y) : 0, dz, n, outDim, dzStride, relu ? 1 : 0);
    k.transposePadded(at(w), wt, inDim, outDim, wtStride);
    k.product(dz, dzStride, wt, wtStride, at(dx), n, outDim, inDim);
    k.productTransposedA(at(x), inDim, dz, dzStride, at(dw), n, inDim, outDim);
    if (db) k.columnSums(dz, dzStride, at(db), n, outDim);
  } finally {
    b.wasm!._free(scratch);
  }
  return db ? [dx, dw, db] : [dx, dw];
}

/** Whether denseGrad runs here and now: the fast paths on (../fast-paths.ts), the wasm backend, WebAssembly SIMD. */
export function denseGradApplies(): boolean {
  if (!wasmFastPaths() || kernelFor(tf.backend()) === null) return false;
  if (!tf.getKernel(KERNEL_NAME, 'wasm')) tf.registerKernel({ kernelName: KERNEL_NAME, backendName: 'wasm', kernelFunc: denseGradKernel as unknown as tf.KernelFunc });
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
