import * as tf from '@tensorflow/tfjs';

/**
 * Our WebAssembly kernels (dense-kernel/, matmul-kernel/) run on tfjs-wasm's own heap: each imports the backend's
 * memory, reads its inputs where tfjs keeps them and writes outputs that tfjs allocated, so nothing is copied in or
 * out. This is the little of tfjs-backend-wasm 4.22's BackendWasm they need, which its public typings do not show.
 */
interface WasmBackendInternals {
  wasm?: { asm?: { memory?: unknown }; _malloc(bytes: number): number; _free(at: number): void };
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined };
  makeOutput(shape: number[], dtype: 'float32'): tf.TensorInfo;
}

/** A kernel module from its embedded bytes, instantiated on a backend's heap (one instance per heap, made on first use). */
export function heapKernel<T>(base64: string): (backend: unknown) => T | null {
  let module: WebAssembly.Module | null | undefined; // undefined: not tried yet; null: cannot run here (no SIMD)
  const instances = new WeakMap<WebAssembly.Memory, T>();
  return (backend) => {
    const memory = (backend as Partial<WasmBackendInternals> | undefined)?.wasm?.asm?.memory;
    if (!(memory instanceof WebAssembly.Memory)) return null;
    const known = instances.get(memory);
    if (known) return known;
    if (module === undefined) {
      try {
        // Synchronous on purpose (the ops that use it are). Chromium 150 compiles these modules (the largest ~13 KB)
        // synchronously on a page's thread as in a worker (checked on 2026-12-07); the labs train in a worker.
        module = new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
      } catch {
        module = null; // no WebAssembly SIMD (a validation error), or a browser refusing a synchronous compile: stock kernels run
      }
    }
    if (module === null) return null;
    let exports: T;
    try {
      exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as T;
    } catch {
      return null; // a heap the module cannot import (a shared memory: tfjs-wasm's threaded build)
    }
    instances.set(memory, exports);
    return exports;
  };
}

/** Byte offsets on the backend's heap, new float32 outputs there, and scratch (freed by the caller). */
export function heapOf(backend: unknown) {
  const b = backend as WasmBackendInternals;
  return {
    at: (t: tf.TensorInfo) => b.dataIdMap.get(t.dataId)!.memoryOffset,
    output: (shape: number[]) => b.makeOutput(shape, 'float32'),
    malloc: (bytes: number) => b.wasm!._malloc(bytes) >>> 0,
    free: (at: number) => b.wasm!._free(at),
  };
}

/** Registers a kernel for the wasm backend once. */
export function registerWasmKernel(kernelName: string, kernelFunc: (args: { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap }) => tf.TensorInfo | tf.TensorInfo[]): void {
  if (!tf.getKernel(kernelName, 'wasm')) tf.registerKernel({ kernelName, backendName: 'wasm', kernelFunc: kernelFunc as unknown as tf.KernelFunc });
}
