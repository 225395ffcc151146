import * as tf from '@tensorflow/tfjs';

/**
 * The wasm backend's hand-written fast paths, each with the stock numbers bit for bit: attention's batched products
 * (matmul-kernel/) and every dense layer's backward pass (dense-kernel/) as WebAssembly kernels on tfjs-wasm's heap,
 * LayerNorm and attention with their backward passes written out (ops.ts), clones that share data (below), and
 * clipping with Adam as one kernel per variable (lib/train/adam-kernel/). tfjs-wasm runs the stock versions several
 * times slower: scalar loops for batched matmuls, XNNPACK repacking every step's new operands, a copy of every tensor
 * autodiff saves, and a dozen small kernels where one would do.
 * On by default; the benchmark's fixed anchor step turns them off, and the tests compare the two.
 */
let enabled = true;
let identityShared = false;

export function setWasmFastPaths(on: boolean): void {
  enabled = on;
}

/** Whether the fast paths run here and now: turned on, and on the wasm backend. */
export function wasmFastPaths(): boolean {
  const on = enabled && tf.getBackend() === 'wasm';
  if (on && !identityShared) shareDataOnIdentity();
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
  identityShared = true;
  const stock = tf.getKernel('Identity', 'wasm');
  if (!stock) return;
  tf.unregisterKernel('Identity', 'wasm');
  tf.registerKernel({
    kernelName: 'Identity',
    backendName: 'wasm',
    kernelFunc: (args) => {
      const x = args.inputs.x as tf.TensorInfo;
      if (!enabled || x.dtype === 'string') return stock.kernelFunc(args);
      (args.backend as unknown as { incRef(dataId: object): void }).incRef(x.dataId);
      return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
    },
  });
}
