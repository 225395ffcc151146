import * as tf from '@tensorflow/tfjs';

/**
 * The wasm backend's hand-written fast paths: attention's batched products on a WebAssembly kernel
 * (matmul-kernel/, tf.matMul's numbers bit for bit), and LayerNorm and attention with hand-written backward passes
 * (ops.ts: the same forward values, gradients equal to autodiff's to float rounding). tfjs-wasm runs the stock
 * versions several times slower: scalar loops for batched matmuls, and a copy of every tensor autodiff saves.
 * On by default; the benchmark's fixed anchor step turns them off, and the tests compare the two.
 */
let enabled = true;

export function setWasmFastPaths(on: boolean): void {
  enabled = on;
}

/** Whether the fast paths run here and now: turned on, and on the wasm backend. */
export function wasmFastPaths(): boolean {
  return enabled && tf.getBackend() === 'wasm';
}
