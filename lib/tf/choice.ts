/**
 * Which backend a lab should train on, decided from measurements, not assumed: for a model of a few thousand
 * parameters a GPU backend's per-op dispatch and per-token read-back can cost more than wasm's arithmetic. No tfjs
 * here: the lab page decides, and tfjs lives in its workers.
 */
import type { BackendName } from './names';

/** One backend's time for the lab's own training step, or why it was not timed. */
export type BackendTiming = { backend: BackendName; msPerStep: number; steps: number } | { backend: BackendName; skipped: string };

export interface BackendChoice {
  backend: BackendName;
  /** True when `backend` differs from the one the run is on. */
  switchTo: boolean;
  /** One sentence for the reader, with the numbers. */
  reason: string;
}

/** A GPU backend must be at least this much faster (its ms/step at most this share of the current one's) to switch. */
export const SWITCH_MARGIN = 0.8;

const ms = (t: number) => `${Math.round(t)} ms/step`;

/**
 * The backend to continue on, given timings measured under the same conditions (one probe, one after another). Stays
 * on `current` unless another is measurably faster, by `margin`; an untimed current backend keeps the run where it is.
 * A run that ended before the timing did stays where it was, and the reason says what was faster.
 */
export function chooseBackend(current: BackendName, timings: readonly BackendTiming[], margin = SWITCH_MARGIN, runEnded = false): BackendChoice {
  const timed = timings.filter((t): t is Extract<BackendTiming, { msPerStep: number }> => 'msPerStep' in t && Number.isFinite(t.msPerStep) && t.msPerStep > 0);
  const here = timed.find((t) => t.backend === current);
  const others = timed.filter((t) => t.backend !== current).sort((a, b) => a.msPerStep - b.msPerStep);
  if (others.length === 0) {
    const skipped = timings.filter((t) => 'skipped' in t && t.backend !== current).map((t) => t.backend);
    return { backend: current, switchTo: false, reason: `Kept ${current}: ${skipped.length > 0 ? `${skipped.join(' and ')} could not be timed here` : 'no other backend to try'}.` };
  }
  if (!here) return { backend: current, switchTo: false, reason: `Kept ${current}: it could not be timed for comparison.` };
  const best = others[0];
  if (best.msPerStep <= margin * here.msPerStep) {
    if (runEnded) return { backend: current, switchTo: false, reason: `Faster on ${best.backend}: ${ms(best.msPerStep)} against ${ms(here.msPerStep)} on ${current}, but the run ended before the timing did.` };
    return { backend: best.backend, switchTo: true, reason: `Switched to ${best.backend}: ${ms(best.msPerStep)} against ${ms(here.msPerStep)} on ${current}, measured on this lab’s steps.` };
  }
  return { backend: current, switchTo: false, reason: `Kept ${current}: ${ms(here.msPerStep)}, against ${others.map((t) => `${ms(t.msPerStep)} on ${t.backend}`).join(', ')}.` };
}

/** The knobs a developer can set in localStorage ('arl:backend-probe') to try the probe on a machine without a GPU. */
export interface ProbeOptions {
  /** Time software WebGPU/WebGL too (SwiftShader, llvmpipe), which are skipped otherwise. */
  software: boolean;
  margin: number;
}

export const PROBE_STORAGE_KEY = 'arl:backend-probe';

/** Reads the developer knobs; anything malformed is ignored (the defaults apply). */
export function parseProbeOptions(raw: string | null): ProbeOptions {
  const defaults: ProbeOptions = { software: false, margin: SWITCH_MARGIN };
  if (!raw || raw.length > 200) return defaults;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return defaults;
    const { software, margin } = value as Record<string, unknown>;
    return {
      software: software === true,
      margin: typeof margin === 'number' && Number.isFinite(margin) && margin > 0 && margin <= 100 ? margin : defaults.margin,
    };
  } catch {
    return defaults;
  }
}
