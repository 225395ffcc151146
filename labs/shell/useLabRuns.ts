'use client';

/**
 * The lab's runs, wired to the page: its run state is a zustand store per lab instance whose transitions are
 * runMachine.ts (the rules a reader can count on are written there); this hook gives the store what the worker and the
 * form say, and performs the effects it asks for (the worker, the charts, the form).
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { PresetTable, Schema } from '@/lib/train/config';
import type { TrainerName } from '@/lib/spec/registry';
import { finalMetrics, type PlannedRun, type SweepAxis } from '@/lib/train/sweep';
import { downloadText } from '@/ui/download';
import { comparisonSettings } from './comparison';
import type { LabComparison } from './labDefinition';
import { changedSinceRun, createLabRunsStore, type LabContext, type LabEffect, type LabEvent } from './runMachine';
import { exportRun } from './runs';
import type { LabExtras, LabWorkerState, useLabWorker } from './useLabWorker';
import type { LinkedSettings } from './useLinkedSettings';
import type { SavedRuns } from './useSavedRuns';

export function useLabRuns<N extends TrainerName>({
  trainer,
  schema,
  presets,
  lab,
  linked,
  savedRuns,
  comparisons,
  prepareExtras,
  onFinished,
}: {
  trainer: N;
  schema: Schema;
  presets: PresetTable;
  lab: ReturnType<typeof useLabWorker<N>>;
  linked: LinkedSettings;
  savedRuns: SavedRuns;
  /** The lab's comparisons it offers here (none under an assignment). */
  comparisons: readonly LabComparison[];
  /** What a fresh run takes besides its settings; null: it cannot start (the notice says why). */
  prepareExtras(): Promise<LabExtras | null>;
  /** A run trained to its last step, with the preset it started from: a comparison's or sweep's runs each once. */
  onFinished(preset: string): void;
}) {
  const { settings, setSettings, preset, setPreset, backendChoice } = linked;
  const { saved, keep, clear } = savedRuns;
  const { status } = lab;
  // One store per lab instance: two labs on one chapter page each have their own runs.
  const [store] = useState(() => createLabRunsStore({ preset, settings }));
  const machine = useStore(store);
  const { run, starting, sweep, queue, compared } = machine;
  const hasRunOf = (s: LabWorkerState<N>) => s.history.length > 0 || s.state !== 'idle';
  const hasRun = hasRunOf(status);
  const contextOf = (s: LabWorkerState<N>): LabContext => ({ worker: s.state, hasRun: hasRunOf(s), form: { preset, settings }, backend: backendChoice });
  const changed = changedSinceRun(machine, contextOf(status));

  /** The run Reset last put on the charts: "Export run" still offers it while it is kept there and no run has begun. */
  const archivedId = useRef<string | null>(null);
  /** The backend change waiting for its 'apply-backend' effect. */
  const applyBackend = useRef<(() => void) | null>(null);

  const perform = (effect: LabEffect) => {
    switch (effect.type) {
      case 'archive': {
        // Keep the finished or stopped run for comparison (the current run is one of the MAX_RUNS).
        const { history } = lab.read();
        if (history.length === 0) return;
        archivedId.current = `run-${Date.now()}`;
        return keep({ id: archivedId.current, trainer, settings: effect.run.settings, history, preset: effect.run.preset });
      }
      case 'reset-worker':
        return lab.reset();
      case 'apply-backend':
        applyBackend.current?.();
        applyBackend.current = null;
        return;
      case 'clear-charts':
        return clear();
      case 'fill-form':
        setPreset(effect.form.preset);
        return setSettings(effect.form.settings);
      case 'pause':
        return lab.pause();
      case 'resume':
        return lab.train(effect.settings, effect.backend, false);
      case 'start': {
        const { purpose } = effect;
        void (async () => {
          let ok = false;
          try {
            const extras: LabExtras | null = await prepareExtras();
            if (extras !== null) {
              lab.train(effect.settings, effect.backend, true, extras);
              ok = true;
            }
          } finally {
            dispatch({ type: 'start-ended', purpose, ok });
          }
        })();
        return;
      }
    }
  };
  function dispatch(event: LabEvent, now: LabContext = contextOf(lab.read())) {
    store.dispatch(event, now, perform);
  }

  // The worker's run ended: a comparison or sweep moves on. Heard from the worker as it happens, with this render's form.
  const onRunState = useEffectEvent((s: LabWorkerState<N>) => {
    // Heard here, not from a render: the next run of a comparison or sweep starts in the same tick, so its 'done' may
    // never be rendered.
    if (s.state === 'done') onFinished(store.getState().run.preset);
    if (s.state === 'done' || s.state === 'failed' || s.state === 'stopped') {
      dispatch({ type: 'run-ended', state: s.state, error: s.error ?? undefined, metrics: finalMetrics(s.history) }, contextOf(s));
    }
  });
  const { onStateChange } = lab;
  useEffect(() => onStateChange((s) => onRunState(s)), [onStateChange]);

  /** What Train does next, in words, when that is not simply "start" or "resume". */
  let nextRun: string | null = null;
  if (status.state === 'done' || status.state === 'failed') {
    nextRun = changed
      ? 'Settings changed since this run started: Train starts a fresh run with them (this run stays on the charts).'
      : 'Train starts another run with these settings (this one stays on the charts); change the preset or a setting first to compare.';
  } else if ((status.state === 'paused' || status.state === 'stopped') && changed) {
    nextRun = 'Settings changed since this run started: Train starts a fresh run with them instead of resuming (this run stays on the charts).';
  } else if (status.state === 'running' && changed) {
    nextRun = 'Settings changed: this run goes on with the ones it started with; the next fresh run takes the new ones (pause, then Train).';
  }

  // The run to export: the current one, or, once Reset has put it on the charts, that run while it is still kept there.
  const exportable =
    status.history.length > 0 ? { id: 'current', trainer, settings: run.settings, history: status.history } : (saved.find((r) => r.id === archivedId.current) ?? null);
  const exportCurrent = () => {
    if (exportable) downloadText(exportRun(exportable), `${trainer}-run-seed${String(exportable.settings.seed)}.json`, 'application/json');
  };

  return {
    /** The current run's settings and preset as it started (the form may have changed since). */
    run,
    hasRun,
    starting,
    sweep,
    /** Starts a sweep; it clears the charts (the panel has asked the reader first when there were runs on them). */
    startSweep: (axes: SweepAxis[], runs: PlannedRun[]) => dispatch({ type: 'start-sweep', axes, runs }),
    stopSweep: () => dispatch({ type: 'stop-sweep' }),
    /** The presets of the comparison under way still to run, the running one first. */
    queue: queue.map((r) => r.preset),
    /** The comparison started last (its index in the lab's list), or null before any. */
    compared,
    /** Starts comparison `index`; it clears the charts (ComparePanel has asked the reader first when there were runs on them). */
    startComparison(index: number) {
      const comparison = comparisons[index];
      if (!comparison) return;
      // Same seed and length for every variant, from the form as it is at the click, so only what the preset changes differs.
      const runs = comparison.presets.map((name) => ({ preset: name, settings: comparisonSettings(schema, presets, comparison, { preset, settings }, name) }));
      dispatch({ type: 'start-comparison', index, runs });
    },
    /** Whether starting a comparison or sweep would clear runs from the charts (their panels ask first). */
    chartsInUse: hasRun || saved.length > 0,
    train: () => dispatch({ type: 'train' }),
    pause: () => dispatch({ type: 'pause' }),
    /** The current run goes to the charts and the lab is ready for a fresh one (the preset and settings stay). */
    reset: () => dispatch({ type: 'reset' }),
    /** The backend applies from the next run: `apply` starts the worker again with it, the current run kept on the charts. */
    changeBackend(apply: () => void) {
      applyBackend.current = apply;
      dispatch({ type: 'change-backend' });
    },
    /** The reader's dataset changed: it applies from the next fresh run. */
    noteExtrasChanged: () => dispatch({ type: 'extras-changed' }),
    nextRun,
    /** Train resumes the paused (or stopped) run rather than starting a fresh one: its button reads "Resume". */
    resumes: (status.state === 'paused' || status.state === 'stopped') && !changed,
    /** Whether "Export run (JSON)" has a run to write: the current one, or the one Reset kept on the charts. */
    canExport: exportable !== null,
    exportCurrent,
  };
}
