import { heapKernel } from '../wasm-heap';
import { DENSE_KERNEL_WASM_BASE64 } from './wasm';

/** What assembly/index.ts exports (byte offsets on tfjs-wasm's heap; see there for what each computes). */
export interface DenseKernelExports {
  prepareDz(dy: number, y: number, dzOut: number, n: number, cols: number, stride: number, relu: number): void;
  transposePadded(w: number, wt: number, rows: number, cols: number, stride: number): void;
  productTransposedA(a: number, aStride: number, b: number, bStride: number, out: number, len: number, m: number, outCols: number): void;
  product(a: number, aStride: number, b: number, bStride: number, out: number, rows: number, k: number, outCols: number): void;
  forward(a: number, aStride: number, b: number, bStride: number, bias: number, out: number, rows: number, k: number, outCols: number, relu: number): void;
  padColumns(a: number, out: number, rows: number, cols: number, stride: number): void;
  columnSums(a: number, stride: number, out: number, rows: number, cols: number): void;
}

/** The module on a backend's heap (one instance per heap), or null where it cannot run (no wasm backend, no SIMD). */
export const denseKernelFor = heapKernel<DenseKernelExports>(DENSE_KERNEL_WASM_BASE64);

/** Rows padded to whole 8-float tiles. */
export const ceil8 = (n: number) => Math.ceil(n / 8) * 8;
