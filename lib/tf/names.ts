/**
 * Backend names and their order, with no tfjs import: lab pages show and validate them on the main thread,
 * where tfjs must never load (it lives in the training worker).
 */
export type BackendName = 'webgpu' | 'webgl' | 'wasm' | 'cpu';

/** Fastest first on a real GPU. On a machine without one, WebGPU's adapter is a software fallback and is skipped. */
export const BACKEND_ORDER: readonly BackendName[] = ['webgpu', 'webgl', 'wasm', 'cpu'];

/**
 * Where a lab's 'auto' run starts: wasm, at once. Whether a GPU backend is faster for a model this small is measured
 * while it trains (lib/tf/choice.ts), not assumed.
 */
export const AUTO_START_ORDER: readonly BackendName[] = ['wasm', 'cpu'];

/** Parses a user string ('wasm', 'WebGPU', 'auto'…) into a backend name; null when unknown. */
export function parseBackendName(s: string | null | undefined): BackendName | 'auto' | null {
  const v = (s ?? '').trim().toLowerCase();
  return v === 'auto' || (BACKEND_ORDER as readonly string[]).includes(v) ? (v as BackendName | 'auto') : null;
}
