import * as tf from '@tensorflow/tfjs';
import { errorMessage } from '@/lib/errors';
import { detectRuntime, nodeWasmDir, webglSkipReason, webgpuSkipReason, type GpuLike, type Runtime } from './runtime';
import { withTimeout } from './timeout';
import { BACKEND_ORDER, type BackendName } from './names';

export { BACKEND_ORDER, parseBackendName, type BackendName } from './names';

/** Default URL prefix of the `.wasm` files in the browser (copied into `public/tfjs-wasm/` at build time). */
export const DEFAULT_WASM_PATHS = '/tfjs-wasm/';

export interface BackendFallback {
  backend: BackendName;
  reason: string;
}

export interface BackendSelection {
  /** The backend now active in tfjs. */
  backend: BackendName;
  /** Every backend tried before it, in order, with why it was not used. */
  fallbacks: BackendFallback[];
  runtime: Runtime;
}

export interface SelectBackendOptions {
  /** A user override (URL, settings, CLI). Tried first; on failure the usual order follows and the reason is kept. */
  requested?: BackendName | 'auto';
  /** Order tried after `requested`. Default {@link BACKEND_ORDER}. */
  order?: readonly BackendName[];
  /** Where the `.wasm` binaries are: a URL prefix in the browser (default '/tfjs-wasm/'), a folder in Node
   * (default: the installed package's dist/). Must end with '/'. */
  wasmPaths?: string;
  /** Limit on each `setBackend` (and on the WebGPU adapter probe). Default 10 s. */
  timeoutMs?: number;
  /** Use a software WebGPU adapter or WebGL renderer anyway. Default: only for the explicit `requested` backend. */
  allowSoftware?: boolean;
  /** Test seam: replaces `tf.setBackend`. */
  setBackend?: (name: BackendName) => Promise<boolean>;
  /** Test seam: replaces `navigator.gpu` (null = none). */
  gpu?: GpuLike | null;
  /** Test seam: replaces the probe of the WebGL renderer string (null = unknown). */
  webglRenderer?: () => string | null;
}

/**
 * Chooses and activates a tfjs backend: the requested one if it works, else WebGPU → WebGL → WASM → CPU.
 * Records the reason for every backend skipped. Throws only if none works (CPU always should).
 */
export async function selectBackend(options: SelectBackendOptions = {}): Promise<BackendSelection> {
  const runtime = detectRuntime();
  const requested = options.requested && options.requested !== 'auto' ? options.requested : undefined;
  const order = options.order ?? BACKEND_ORDER;
  const candidates = requested ? [requested, ...order.filter((b) => b !== requested)] : [...order];
  const timeoutMs = options.timeoutMs ?? 10_000;
  const setBackend = options.setBackend ?? ((name: BackendName) => tf.setBackend(name));
  const fallbacks: BackendFallback[] = [];
  let chosen: BackendName | undefined;

  for (const backend of candidates) {
    const ctx: TryContext = { runtime, options, explicit: backend === requested, timeoutMs };
    const skip = await prepare(backend, ctx).catch((e: unknown) => errorMessage(e));
    if (skip != null) {
      fallbacks.push({ backend, reason: skip });
      continue;
    }
    const attempt = Promise.resolve().then(() => setBackend(backend));
    try {
      const ok = await withTimeout(attempt, timeoutMs, `setBackend('${backend}')`);
      if (ok && tf.getBackend() === backend) {
        chosen = backend;
        break;
      }
      fallbacks.push({ backend, reason: `setBackend('${backend}') failed to initialise the backend` });
    } catch (e) {
      fallbacks.push({ backend, reason: errorMessage(e) });
      // A timed-out init may still succeed later and switch tfjs to it: switch back to the chosen one if so.
      void attempt
        .then((lateOk) => {
          if (lateOk && chosen != null && chosen !== backend) return tf.setBackend(chosen);
        })
        .catch(() => undefined);
    }
  }
  if (chosen == null) {
    const why = fallbacks.map((f) => `${f.backend}: ${f.reason}`).join('; ');
    throw new Error(`No tfjs backend could be started (${why})`);
  }
  return { backend: chosen, fallbacks, runtime };
}

interface TryContext {
  runtime: Runtime;
  options: SelectBackendOptions;
  explicit: boolean;
  timeoutMs: number;
}

/** Loads what a backend needs. Returns a reason to skip it, or null when `setBackend` may be tried. */
async function prepare(backend: BackendName, ctx: TryContext): Promise<string | null> {
  if (backend === 'cpu') return null; // registered by '@tensorflow/tfjs' itself
  if (backend === 'webgl') return webglSkipReason(ctx.options.allowSoftware ?? ctx.explicit, ctx.options.webglRenderer);
  if (backend === 'wasm') return prepareWasm(ctx);
  return prepareWebgpu(ctx);
}

async function prepareWasm(ctx: TryContext): Promise<string | null> {
  const wasm = await import('@tensorflow/tfjs-backend-wasm'); // lazy: only pages that use wasm load it
  // Threaded wasm hangs under cross-origin isolation; one thread is also what Node gives.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  if (tf.findBackend('wasm') == null) {
    const paths = ctx.options.wasmPaths ?? (ctx.runtime === 'node' ? nodeWasmDir() : DEFAULT_WASM_PATHS);
    wasm.setWasmPaths(paths);
  }
  return null;
}

async function prepareWebgpu(ctx: TryContext): Promise<string | null> {
  const skip = await webgpuSkipReason(ctx.options.allowSoftware ?? ctx.explicit, ctx.timeoutMs, ctx.options.gpu);
  if (skip != null) return skip;
  await import('@tensorflow/tfjs-backend-webgpu'); // lazy: ~117 KB gz
  if (tf.findBackendFactory('webgpu') == null) return 'the tfjs webgpu backend did not register here';
  return null;
}

