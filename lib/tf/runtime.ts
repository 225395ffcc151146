/** Where this code runs; decides which backends can exist and where the wasm binaries are. */
export type Runtime = 'node' | 'worker' | 'page';

export function detectRuntime(): Runtime {
  const g = globalThis as { process?: { versions?: { node?: string } }; WorkerGlobalScope?: unknown };
  if (typeof g.WorkerGlobalScope === 'function' && globalThis instanceof (g.WorkerGlobalScope as never)) {
    return 'worker';
  }
  if (g.process?.versions?.node != null && typeof (globalThis as { document?: unknown }).document === 'undefined') {
    return 'node';
  }
  return 'page';
}

/** The subset of `navigator.gpu` used to probe for an adapter (TS's DOM lib has no WebGPU types). */
export interface GpuLike {
  requestAdapter(options?: { powerPreference?: 'low-power' | 'high-performance' }): Promise<GpuAdapterLike | null>;
}
export interface GpuAdapterLike {
  info?: { isFallbackAdapter?: boolean; vendor?: string; architecture?: string; description?: string };
  /** Chrome before 121 put the flag on the adapter itself. */
  isFallbackAdapter?: boolean;
  /** Removed from the spec in 2024; some browsers still only have this. */
  requestAdapterInfo?: () => Promise<{ isFallbackAdapter?: boolean }>;
}

export function navigatorGpu(): GpuLike | undefined {
  return (globalThis as { navigator?: { gpu?: GpuLike } }).navigator?.gpu ?? undefined;
}

/** True when the adapter says it is a software (CPU) implementation such as SwiftShader. */
export async function isFallbackAdapter(adapter: GpuAdapterLike): Promise<boolean> {
  if (adapter.info?.isFallbackAdapter != null) return adapter.info.isFallbackAdapter;
  if (adapter.isFallbackAdapter != null) return adapter.isFallbackAdapter;
  if (typeof adapter.requestAdapterInfo === 'function') {
    return (await adapter.requestAdapterInfo()).isFallbackAdapter === true;
  }
  return false;
}

/** WebGL needs a canvas: a DOM (page) or OffscreenCanvas (worker). */
export function hasCanvas(): boolean {
  const g = globalThis as { document?: unknown; OffscreenCanvas?: unknown };
  return typeof g.document !== 'undefined' || typeof g.OffscreenCanvas !== 'undefined';
}

/**
 * Absolute folder (with trailing slash) of tfjs-backend-wasm's `.wasm` files in Node, resolved from the current
 * working directory. Uses `process.getBuiltinModule` (Node ≥ 20.16) so that bundlers never see a `node:` import.
 */
export function nodeWasmDir(): string {
  const proc = (globalThis as { process?: NodeJS.Process }).process;
  const mod = proc?.getBuiltinModule?.('node:module') as typeof import('node:module') | undefined;
  const cwd = proc?.cwd() ?? '.';
  if (mod != null) {
    const entry = mod.createRequire(`${cwd}/package.json`).resolve('@tensorflow/tfjs-backend-wasm');
    return entry.slice(0, Math.max(entry.lastIndexOf('/'), entry.lastIndexOf('\\')) + 1); // …/tfjs-backend-wasm/dist/
  }
  return `${cwd}/node_modules/@tensorflow/tfjs-backend-wasm/dist/`;
}
