/**
 * Where this code runs and what hardware it has: which backends can exist, whether a GPU is real or a software
 * fallback, where the wasm binaries are. No tfjs here, so a page or a worker can look before it loads any.
 */
import { withTimeout } from './timeout';

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

/** Renderers that run on the CPU: SwiftShader (Chrome without a GPU), llvmpipe/softpipe (Mesa), Microsoft's. */
const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|basic render/i;

/** The unmasked WebGL renderer string, or null when it cannot be read (no context, extension hidden). */
function webglRenderer(): string | null {
  try {
    const g = globalThis as { OffscreenCanvas?: new (w: number, h: number) => { getContext(kind: string): unknown }; document?: { createElement(tag: 'canvas'): { getContext(kind: string): unknown } } };
    const canvas = g.OffscreenCanvas ? new g.OffscreenCanvas(1, 1) : g.document?.createElement('canvas');
    const gl = (canvas?.getContext('webgl2') ?? canvas?.getContext('webgl')) as WebGLRenderingContext | null | undefined;
    if (!gl) return null;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
    gl.getExtension('WEBGL_lose_context')?.loseContext(); // free the probe context at once
    return typeof renderer === 'string' ? renderer : null;
  } catch {
    return null;
  }
}

/** Why WebGL should not be used here, or null: no canvas, or (unless allowed) a renderer that runs on the CPU. */
export function webglSkipReason(allowSoftware: boolean, renderer: () => string | null = webglRenderer): string | null {
  if (!hasCanvas()) return `WebGL needs a canvas (document or OffscreenCanvas), and there is none in ${detectRuntime()}`;
  const name = renderer();
  if (!allowSoftware && name != null && SOFTWARE_RENDERER.test(name)) return `WebGL renders in software here (${shorten(name, 80)}), slower than wasm`;
  return null;
}

/** Why WebGPU should not be used here, or null: no navigator.gpu, no adapter, or (unless allowed) a software one. */
export async function webgpuSkipReason(allowSoftware: boolean, timeoutMs: number, gpuOverride?: GpuLike | null): Promise<string | null> {
  const gpu = gpuOverride === undefined ? navigatorGpu() : gpuOverride;
  if (gpu == null) return 'navigator.gpu is not available';
  const adapter = await withTimeout(gpu.requestAdapter(), timeoutMs, 'navigator.gpu.requestAdapter()');
  if (adapter == null) return 'navigator.gpu.requestAdapter() returned no adapter';
  if (!allowSoftware && (await isFallbackAdapter(adapter))) return 'the WebGPU adapter is a software fallback (isFallbackAdapter), slower than wasm';
  return null;
}

/** At most `max` characters, cut at a word and marked with "…" (a renderer string can run to 150). */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max - 1);
  return `${text.slice(0, cut > 0 ? cut : max - 1).replace(/[\s,(]+$/, '')}…`;
}
