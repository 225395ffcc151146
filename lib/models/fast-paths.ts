import * as tf from '@tensorflow/tfjs';
import { denseForwardOnHeap } from './dense-kernel/dense-forward';

/**
 * The wasm backend's hand-written fast paths, each with the stock numbers bit for bit: a layer's whole attention
 * (attention-kernel/), attention's batched products elsewhere (matmul-kernel/) and every dense layer's forward and
 * backward pass (dense-kernel/) and LayerNorm with its centring (layernorm-kernel/) as WebAssembly kernels on
 * tfjs-wasm's heap, attention's backward pass written out (ops.ts), clones that share data and slices read in place
 * (below), clipping with Adam as one kernel per variable (lib/train/adam-kernel/), and the GRPO update's advantages,
 * loss and token view on plain arrays (lib/rl/grpo.ts grpoAdvantageValues, lib/rl/grpo-fused.ts; the trainer picks
 * them in lib/train/grpo-update.ts). tfjs-wasm runs the stock versions several
 * times slower: scalar loops for batched matmuls, XNNPACK repacking every step's new operands, a copy of every tensor
 * autodiff saves, and a dozen small kernels where one would do.
 * On by default; the benchmark's fixed anchor step turns them off, and the tests compare the two.
 */
let enabled = true;
let stockKernelsReplaced = false;

export function setWasmFastPaths(on: boolean): void {
  enabled = on;
}

/** Whether the fast paths run here and now: turned on, and on the wasm backend. */
export function wasmFastPaths(): boolean {
  const on = enabled && tf.getBackend() === 'wasm';
  if (on && !stockKernelsReplaced) {
    stockKernelsReplaced = true;
    shareDataOnIdentity();
    sliceOnTheHeap();
    denseForwardOnTheHeap();
  }
  return on;
}

/**
 * tfjs-wasm's Identity kernel copies its input into new memory, and autodiff runs it on every tensor it saves for the
 * backward pass (Engine.saveTensorsForBackwardMode and customGrad's save: keep(clone(t))), ~165 copies per GRPO step.
 * No tfjs kernel writes into its inputs (outputs are always new memory; Variable.assign swaps data ids), so a clone can
 * share its input's data as tfjs's cpu and WebGL backends do, and as tfjs-wasm's own Reshape does: incRef, no copy.
 * Same values, so nothing numeric changes. With the fast paths off, tfjs-wasm's copying kernel runs as before.
 */
function shareDataOnIdentity(): void {
  replaceStockKernel('Identity', ({ inputs, backend }) => {
    const x = inputs.x as tf.TensorInfo;
    if (!onHeap(x)) return null;
    (backend as unknown as { incRef(dataId: object): void }).incRef(x.dataId);
    return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
  });
}

/** Strings live outside the heap: the stock kernels handle them. */
const onHeap = (x: tf.TensorInfo) => x.dtype !== 'string';

/**
 * Puts `fast` in place of tfjs-wasm's kernel `name`; the stock kernel still runs with the fast paths off and wherever
 * `fast` returns null (a case it does not take).
 */
function replaceStockKernel(name: string, fast: (args: Parameters<tf.KernelFunc>[0]) => tf.TensorInfo | tf.TensorInfo[] | null): void {
  const stock = tf.getKernel(name, 'wasm');
  if (!stock) return;
  tf.unregisterKernel(name, 'wasm');
  tf.registerKernel({
    kernelName: name,
    backendName: 'wasm',
    kernelFunc: (args) => (enabled ? fast(args) : null) ?? stock.kernelFunc(args),
  });
}

/** Every dense layer's forward product on our kernel (dense-kernel/dense-forward.ts: XNNPACK's numbers, no repacking). */
function denseForwardOnTheHeap(): void {
  replaceStockKernel('_FusedMatMul', (args) => denseForwardOnHeap(args as Parameters<typeof denseForwardOnHeap>[0]));
  replaceStockKernel('BatchMatMul', (args) => denseForwardOnHeap(args as Parameters<typeof denseForwardOnHeap>[0]));
}

/** The little of tfjs-backend-wasm 4.22's BackendWasm a slice needs (public methods its typings do not export). */
interface HeapBackend {
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array | Int32Array | Uint8Array;
}

/**
 * tfjs-wasm's Slice reads its input with readSync, which copies the whole input out of the heap into a new ArrayBuffer
 * before copying the slice back in; SplitV runs that Slice once per part. In Chromium allocating those buffers is
 * dear: splitting a layer's q, k, v (≈ 0.6 MB) took 1.7 ms there against 0.09 ms in Node, a fifth of a vision SFT
 * step (scripts/probes/profile-worker.mjs). These copy the slice straight from the input's place on the heap: the same
 * bytes, so nothing numeric changes. With the fast paths off, tfjs-wasm's own kernels run as before.
 */
function sliceOnTheHeap(): void {
  const slice = (x: tf.TensorInfo, begin: number[], size: number[], backend: HeapBackend): tf.TensorInfo => {
    const out = backend.makeOutput(size, x.dtype);
    if (size.some((n) => n === 0)) return out;
    // Views made after makeOutput: an allocation may grow the heap, which detaches earlier views.
    copySlice(backend.typedArrayFromHeap(x), x.shape, begin, size, backend.typedArrayFromHeap(out));
    return out;
  };
  replaceStockKernel('Slice', ({ inputs, attrs, backend }) => {
    const x = inputs.x as tf.TensorInfo;
    if (!onHeap(x)) return null;
    const [begin, size] = tf.slice_util.parseSliceParams(x as tf.Tensor, attrs!.begin as number[], attrs!.size as number[]);
    return slice(x, begin, size, backend as unknown as HeapBackend);
  });
  replaceStockKernel('SplitV', ({ inputs, attrs, backend }) => {
    const x = inputs.x as tf.TensorInfo;
    if (!onHeap(x)) return null;
    const axis = tf.util.parseAxisParam(attrs!.axis as number, x.shape)[0];
    const parts = tf.backend_util.prepareSplitSize(x as tf.Tensor, attrs!.numOrSizeSplits as number[] | number, axis);
    const begin = x.shape.map(() => 0);
    return parts.map((part) => {
      const size = [...x.shape];
      size[axis] = part;
      const out = slice(x, [...begin], size, backend as unknown as HeapBackend);
      begin[axis] += part;
      return out;
    });
  });
}

/**
 * Copies x[begin … begin + size) (row-major, shape `shape`) into `out`. Trailing axes taken whole are merged into the
 * run copied at once, so a slice along the first axis is one copy.
 */
export function copySlice<T extends Float32Array | Int32Array | Uint8Array>(x: T, shape: number[], begin: number[], size: number[], out: T): void {
  const rank = shape.length;
  if (rank === 0) {
    out[0] = x[0];
    return;
  }
  // Axis d is the last one not taken whole; a run is size[d] × (everything after it).
  let d = rank - 1;
  let inner = 1;
  while (d > 0 && begin[d] === 0 && size[d] === shape[d]) {
    inner *= shape[d];
    d--;
  }
  const run = size[d] * inner;
  const strides: number[] = new Array(rank);
  strides[rank - 1] = 1;
  for (let a = rank - 2; a >= 0; a--) strides[a] = strides[a + 1] * shape[a + 1];
  const index = new Array(d).fill(0); // position among the runs, over axes 0 … d − 1
  let written = 0;
  const total = out.length;
  while (written < total) {
    let from = begin[d] * strides[d];
    for (let a = 0; a < d; a++) from += (begin[a] + index[a]) * strides[a];
    out.set(x.subarray(from, from + run), written);
    written += run;
    for (let a = d - 1; a >= 0; a--) {
      if (++index[a] < size[a]) break;
      index[a] = 0;
    }
  }
}
