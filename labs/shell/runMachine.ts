/**
 * The lab's run state as one store with named transitions: the current run (its settings and preset as it started),
 * Train (start, resume, or a fresh start after a change), Reset, a backend change, and the two things that run
 * several runs one after another in the worker, a comparison of presets and a sweep.
 *
 * `transition` is pure: (state, event, what the worker and the form say now) → (next state, effects as data).
 * useLabRuns.ts performs the effects (the worker, the charts, the form); tests/unit/labs/run-machine.test.ts walks
 * the transitions as a table, the illegal ones included (they change nothing and do nothing).
 *
 * The rules a reader can count on, in any order of presses (tests/e2e/lab-flows.spec.ts walks them):
 * - The preset, the settings, the backend and the reader's data can change at any time except while a step runs.
 *   They never change the current run: they are what the next fresh run starts with (changedSinceRun).
 * - Train: with no run, starts one; on a paused or stopped run, resumes it if nothing changed since it started; on a
 *   finished or failed run, or after a change, starts a fresh run with the form as it is. The run it replaces stays
 *   on the charts (archived), so nothing is lost. While a run trains, Train does nothing.
 * - Reset: the current run goes to the charts (archived) and the lab is ready; the preset and settings stay.
 * - Compare and sweep: from any state. Their runs take every place on the charts, so the charts are cleared (the
 *   panels ask the reader first, in the page). A comparison archives each finished run and starts the next preset;
 *   a sweep keeps each run's final metrics and leaves only its last run on the charts.
 */
import { createStore } from 'zustand/vanilla';
import type { BackendName } from '@/lib/tf/backend';
import type { RunState } from '@/lib/train/run';
import type { PlannedRun, SweepAxis } from '@/lib/train/sweep';
import type { Settings } from '@/ui/settings';
import type { SweepProgress } from './SweepPanel';

/** A run's settings and the preset they were filled from. */
export interface RunForm {
  preset: string;
  settings: Settings;
}

export type StartPurpose = 'run' | 'sweep' | 'comparison';

export interface LabRunsState {
  /** The current run's settings and preset as it started (the form may have changed since). */
  run: RunForm;
  /** The reader's dataset changed since the current run started: it applies from the next fresh run. */
  extrasChanged: boolean;
  /** A fresh run is being prepared (the reader's extras load) and has not reached the worker yet. */
  starting: boolean;
  sweep: SweepProgress | null;
  /** A comparison's runs still to go, the one under way first. */
  queue: readonly RunForm[];
  /** The comparison started last (its index in the lab's list), or null before any. */
  compared: number | null;
}

/** What the worker and the form say when an event happens: read by a transition, never stored. */
export interface LabContext {
  worker: RunState;
  /** The lab has a run: a history on the charts, or a state other than idle. */
  hasRun: boolean;
  form: RunForm;
  backend: BackendName | 'auto';
}

export type LabEvent =
  | { type: 'train' }
  /** Asks the running run to pause (the worker stops it at the next point where it can). */
  | { type: 'pause' }
  | { type: 'reset' }
  /** The reader picked another backend: the worker starts again with it (`apply-backend`). */
  | { type: 'change-backend' }
  | { type: 'extras-changed' }
  | { type: 'start-sweep'; axes: SweepAxis[]; runs: PlannedRun[] }
  | { type: 'stop-sweep' }
  /** `runs`: each compared preset with the settings its run takes (comparison.ts), in order. */
  | { type: 'start-comparison'; index: number; runs: readonly RunForm[] }
  /** The worker's run ended; the metrics are its final ones (finalMetrics). */
  | { type: 'run-ended'; state: 'done' | 'failed' | 'stopped'; error?: string; metrics: Record<string, number> }
  /** A `start` effect finished: ok false when the run could not start (the notice says why). */
  | { type: 'start-ended'; purpose: StartPurpose; ok: boolean };

export type LabEffect =
  /** Keep the current run on the charts, as `run` (when it has a history). */
  | { type: 'archive'; run: RunForm }
  /** Forget the worker's run (the worker and its backend stay). */
  | { type: 'reset-worker' }
  /** Restart the worker on the backend the reader just picked. */
  | { type: 'apply-backend' }
  | { type: 'clear-charts' }
  /** Fill the form with a comparison run's preset and settings. */
  | { type: 'fill-form'; form: RunForm }
  /** Prepare the reader's extras and start a fresh run; answered by 'start-ended'. */
  | { type: 'start'; settings: Settings; backend: BackendName | 'auto'; purpose: StartPurpose }
  | { type: 'resume'; settings: Settings; backend: BackendName | 'auto' }
  | { type: 'pause' };

export interface Transition {
  state: LabRunsState;
  effects: LabEffect[];
}

export function initialLabRuns(form: RunForm): LabRunsState {
  return { run: form, extrasChanged: false, starting: false, sweep: null, queue: [], compared: null };
}

/** Same values for every key of either (numbers compared as numbers: a link may give "3e-3" for 0.003). */
export function sameSettings(a: Settings, b: Settings): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => a[k] === b[k] || (typeof a[k] === 'number' && typeof b[k] === 'number' && Number(a[k]) === Number(b[k])));
}

/** The form (or the reader's data) changed since the current run started: Train starts a fresh run rather than resuming. */
export function changedSinceRun(state: LabRunsState, context: LabContext): boolean {
  return context.hasRun && (state.extrasChanged || context.form.preset !== state.run.preset || !sameSettings(context.form.settings, state.run.settings));
}

const resumable = (worker: RunState) => worker === 'paused' || worker === 'stopped';

/** The current run goes to the charts and the worker forgets it. */
const archiveAndReset = (state: LabRunsState): LabEffect[] => [
  { type: 'archive', run: state.run },
  { type: 'reset-worker' },
];

const start = (context: LabContext, form: RunForm, purpose: StartPurpose): LabEffect => ({ type: 'start', settings: form.settings, backend: context.backend, purpose });

export function transition(state: LabRunsState, event: LabEvent, context: LabContext): Transition {
  const nothing: Transition = { state, effects: [] };
  switch (event.type) {
    case 'train': {
      if (state.starting || state.sweep?.running) return nothing; // its button is held meanwhile
      const changed = changedSinceRun(state, context);
      if (resumable(context.worker) && !changed) return { state, effects: [{ type: 'resume', settings: context.form.settings, backend: context.backend }] };
      if (context.worker === 'running') return nothing;
      // A fresh run with the form as it is; the run it replaces (finished, failed, or changed since it started) is
      // archived. A comparison under way is left: the reader chose their own run.
      return {
        state: { ...state, run: context.form, starting: true, queue: [] },
        effects: [...(context.hasRun ? archiveAndReset(state) : []), start(context, context.form, 'run')],
      };
    }
    case 'pause':
      return context.worker === 'running' ? { state, effects: [{ type: 'pause' }] } : nothing;
    case 'reset':
      if (!context.hasRun && state.queue.length === 0 && !state.sweep?.running) return nothing; // nothing to reset
      // A comparison or sweep under way stops with it: Reset leaves the lab ready, never a run starting.
      return {
        state: { ...state, queue: [], sweep: state.sweep && { ...state.sweep, running: false } },
        effects: archiveAndReset(state),
      };
    case 'change-backend':
      return {
        state: { ...state, queue: [], sweep: state.sweep && { ...state.sweep, running: false } },
        effects: [...(context.hasRun ? archiveAndReset(state) : []), { type: 'apply-backend' }],
      };
    case 'extras-changed':
      return context.hasRun ? { state: { ...state, extrasChanged: true }, effects: [] } : nothing;
    case 'start-sweep': {
      const first = event.runs[0];
      if (!first || state.starting) return nothing;
      const run = { preset: context.form.preset, settings: first.overrides as Settings };
      return {
        state: { ...state, run, starting: true, queue: [], sweep: { axes: event.axes, runs: event.runs, results: [], running: true } },
        effects: [...(context.hasRun ? [{ type: 'reset-worker' } as const] : []), { type: 'clear-charts' }, start(context, run, 'sweep')],
      };
    }
    case 'stop-sweep':
      if (!state.sweep?.running) return nothing;
      return { state: { ...state, sweep: { ...state.sweep, running: false } }, effects: [{ type: 'reset-worker' }] };
    case 'start-comparison': {
      const first = event.runs[0];
      if (!first || state.starting) return nothing;
      return {
        state: { ...state, run: first, starting: true, queue: event.runs, compared: event.index, sweep: state.sweep && { ...state.sweep, running: false } },
        effects: [...(context.hasRun ? [{ type: 'reset-worker' } as const] : []), { type: 'clear-charts' }, { type: 'fill-form', form: first }, start(context, first, 'comparison')],
      };
    }
    case 'run-ended': {
      const { sweep, queue } = state;
      if (sweep?.running) {
        const i = sweep.results.length;
        const results = [...sweep.results, { run: sweep.runs[i], state: event.state, error: event.error, metrics: event.metrics }];
        const next = sweep.runs[results.length];
        if (!next) return { state: { ...state, sweep: { ...sweep, results, running: false } }, effects: [] }; // the last run stays on the charts
        const run = { preset: context.form.preset, settings: next.overrides as Settings };
        return {
          state: { ...state, run, starting: true, sweep: { ...sweep, results } },
          effects: [{ type: 'reset-worker' }, start(context, run, 'sweep')],
        };
      }
      if (queue.length === 0) return nothing;
      const next = queue[1];
      // A failed or stopped run ends the comparison, and so does its last run: they stay on the charts.
      if (event.state !== 'done' || !next) return { state: { ...state, queue: [] }, effects: [] };
      return {
        state: { ...state, run: next, starting: true, queue: queue.slice(1) },
        effects: [...archiveAndReset(state), { type: 'fill-form', form: next }, start(context, next, 'comparison')],
      };
    }
    case 'start-ended': {
      if (event.ok) return { state: { ...state, starting: false, extrasChanged: false }, effects: [] };
      // The run could not start: what was to follow it stops too.
      const sweep = event.purpose === 'sweep' && state.sweep ? { ...state.sweep, running: false } : state.sweep;
      const queue = event.purpose === 'comparison' ? [] : state.queue;
      return { state: { ...state, starting: false, sweep, queue }, effects: [] };
    }
  }
}

/** One lab instance's run state (each lab on a page makes its own), with `dispatch` to move it and perform the effects. */
export function createLabRunsStore(form: RunForm) {
  const store = createStore<LabRunsState>()(() => initialLabRuns(form));
  return {
    ...store,
    /** The state changes first, then the effects run in order (an effect may dispatch again: it sees the new state). */
    dispatch(event: LabEvent, context: LabContext, perform: (effect: LabEffect) => void) {
      const { state, effects } = transition(store.getState(), event, context);
      if (state !== store.getState()) store.setState(state, true);
      effects.forEach(perform);
    },
  };
}

export type LabRunsStore = ReturnType<typeof createLabRunsStore>;
