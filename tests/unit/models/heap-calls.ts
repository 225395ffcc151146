import * as tf from '@tensorflow/tfjs';

/**
 * The allocations JavaScript makes on tfjs-wasm's heap while `run` runs (tfjs's outputs and our kernels' scratch, both
 * through the module's _malloc; XNNPACK's own allocations stay inside the module and are not seen): each size asked
 * for, and how many of them are still allocated at the end.
 */
export function heapCalls(run: () => void): { sizes: number[]; outstanding: number } {
  const wasm = (tf.backend() as unknown as { wasm: { _malloc(bytes: number): number; _free(at: number): void } }).wasm;
  const [malloc, free] = [wasm._malloc, wasm._free];
  const sizes: number[] = [];
  const live = new Set<number>();
  wasm._malloc = (bytes) => {
    const at = malloc.call(wasm, bytes);
    sizes.push(bytes);
    live.add(at);
    return at;
  };
  wasm._free = (at) => {
    live.delete(at);
    free.call(wasm, at);
  };
  try {
    run();
  } finally {
    wasm._malloc = malloc;
    wasm._free = free;
  }
  return { sizes, outstanding: live.size };
}
