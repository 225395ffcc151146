import * as tf from '@tensorflow/tfjs';
import { heapOf } from '../wasm-heap';
import { ceil8, denseKernelFor } from './kernel';

/**
 * The largest weight matrix taken, in floats (64 KB): every lab's layers are 4,096 or fewer. The kernel reads the
 * weight in place, a row of eight columns per term, which stays in cache for these; for large ones XNNPACK's packed
 * panels are the better layout (256 × 256: no faster here, and its time varied more), so they stay XNNPACK's, and
 * with them the matmul rate the benchmark measures its bounds against (scripts/bench/flops.ts).
 */
const MAX_WEIGHT_FLOATS = 16_384;

/**
 * tfjs-wasm's BatchMatMul and _FusedMatMul for the one case it gives XNNPACK, a single untransposed 2-D product (every
 * dense layer's forward pass), computed by our kernel (assembly/index.ts `forward`) with XNNPACK's numbers bit for bit:
 * the bias, or 0, then each product added in order, then the ReLU clamp (a NaN aside: WebAssembly leaves the sign of
 * a NaN an operation makes unspecified, and the two may differ there). XNNPACK repacks the weight matrix on every
 * call (each step's weights are new tensors); the kernel pads it once into scratch and reads it in place: 4–6% less
 * time at the labs' shapes (`npx tsx scripts/probes/dense-forward-bench.ts`, best of 200 calls each, Node). Returns
 * null for every other case (batched, transposed, another activation, a broadcast bias, a large weight), which the
 * stock kernel then runs; fast-paths.ts installs it.
 */
export function denseForwardOnHeap({ inputs, backend, attrs }: { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap }): tf.TensorInfo | null {
  const { a, b, bias, preluActivationWeights } = inputs as Partial<Record<string, tf.TensorInfo>>;
  if (!a || !b || a.dtype !== 'float32' || b.dtype !== 'float32' || preluActivationWeights) return null;
  if (attrs?.transposeA || attrs?.transposeB) return null;
  const activation = (attrs?.activation as string | undefined) ?? 'linear';
  if (activation !== 'linear' && activation !== 'relu') return null;
  const ra = a.shape.length;
  const rb = b.shape.length;
  if (ra < 2 || rb < 2) return null;
  const outer = (shape: number[]) => shape.slice(0, -2).reduce((x, y) => x * y, 1);
  if (outer(a.shape) !== 1 || outer(b.shape) !== 1) return null; // batched: tfjs-wasm's own loop, not XNNPACK
  const [rows, k] = a.shape.slice(-2);
  const [kb, cols] = b.shape.slice(-2);
  if (k !== kb || rows === 0 || k === 0 || cols === 0 || k * cols > MAX_WEIGHT_FLOATS) return null;
  if (bias && (bias.dtype !== 'float32' || bias.shape.length !== 1 || bias.shape[0] !== cols)) return null;
  const kernel = denseKernelFor(backend);
  if (!kernel) return null;
  const heap = heapOf(backend);
  const batchDims = ra >= rb ? a.shape.slice(0, -2) : b.shape.slice(0, -2); // all ones: the longer wins
  const out = heap.output([...batchDims, rows, cols]);
  const stride = ceil8(cols);
  const weightBytes = k * stride * 4;
  const scratch = heap.malloc(weightBytes + (bias ? stride * 4 : 0));
  try {
    kernel.padColumns(heap.at(b), scratch, k, cols, stride);
    if (bias) kernel.padColumns(heap.at(bias), scratch + weightBytes, 1, cols, stride);
    kernel.forward(heap.at(a), k, scratch, stride, bias ? scratch + weightBytes : 0, heap.at(out), rows, k, cols, activation === 'relu' ? 1 : 0);
  } finally {
    heap.free(scratch);
  }
  return out;
}
