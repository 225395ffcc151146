'use client';

/**
 * The lab's run state machine: the current run (its settings and preset as it started, a fresh start with the
 * reader's extras, resume, reset), and the two things that run several runs one after another in the worker, a
 * comparison of presets and a sweep. All of them react to the worker's run state, so they live together.
 *
 * The rules a reader can count on, in any order of presses (tests/e2e/lab-flows.spec.ts walks them):
 * - The preset, the settings, the backend and the reader's data can change at any time except while a step runs.
 *   They never change the current run: they are what the next fresh run starts with, and `nextRun` says so.
 * - Train: with no run, starts one; on a paused or stopped run, resumes it if nothing changed since it started; on a
 *   finished or failed run, or after a change, starts a fresh run with the form as it is. The run it replaces stays
 *   on the charts (archived), so nothing is lost.
 * - Reset: the current run goes to the charts (archived) and the lab is ready; the preset and settings stay.
 * - Compare and sweep: from any state. Their runs take every place on the charts, so when there are runs there the
 *   panel asks first, in the page (ReplaceRunsPrompt), and says how to keep the current run.
 * - Run labels say what differed between runs (runLabels.ts).
 */
import { useEffect, useRef, useState } from 'react';
import type { PresetTable, Schema } from '@/lib/train/config';
import type { TrainerName } from '@/lib/spec/registry';
import { finalMetrics, type PlannedRun, type SweepAxis } from '@/lib/train/sweep';
import { downloadText } from '@/ui/download';
import { comparisonSettings } from './comparison';
import type { LabComparison } from './labDefinition';
import { exportRun } from './runs';
import type { Settings } from '@/ui/settings';
import type { SweepProgress } from './SweepPanel';
import type { LabExtras, useLabWorker } from './useLabWorker';
import type { LinkedSettings } from './useLinkedSettings';
import type { SavedRuns } from './useSavedRuns';

/** Same values for every key of either (numbers compared as numbers: a link may give "3e-3" for 0.003). */
function sameSettings(a: Settings, b: Settings): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => a[k] === b[k] || (typeof a[k] === 'number' && typeof b[k] === 'number' && Number(a[k]) === Number(b[k])));
}

export function useLabRuns<N extends TrainerName>({
  trainer,
  schema,
  presets,
  lab,
  linked,
  savedRuns,
  comparisons,
  prepareExtras,
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
}) {
  const { settings, setSettings, preset, setPreset, backendChoice } = linked;
  const { saved, keep, clear } = savedRuns;
  const { status } = lab;
  const runSettings = useRef<Settings>(settings);
  const runPreset = useRef<string>(preset);
  const hasRun = status.history.length > 0 || status.state !== 'idle';
  // The reader's dataset changed since the current run started: it applies from the next fresh run.
  const [extrasChanged, setExtrasChanged] = useState(false);
  const changedSinceRun = hasRun && (extrasChanged || preset !== runPreset.current || !sameSettings(settings, runSettings.current));

  /** The run Reset last put on the charts: "Export run" still offers it while it is kept there and no run has begun. */
  const archivedId = useRef<string | null>(null);
  /** Keep the finished or stopped run for comparison (the current run is one of the MAX_RUNS). */
  const archive = () => {
    if (status.history.length === 0) return;
    archivedId.current = `run-${Date.now()}`;
    keep({ id: archivedId.current, trainer, settings: runSettings.current, history: status.history, preset: runPreset.current });
  };

  const [starting, setStarting] = useState(false);
  /** Starts a fresh run with these settings and the reader's extras; false if it could not start. */
  const startRun = async (chosen: Settings): Promise<boolean> => {
    setStarting(true);
    try {
      const extras = await prepareExtras();
      if (extras === null) return false;
      setExtrasChanged(false);
      lab.train(chosen, backendChoice, true, extras);
      return true;
    } finally {
      setStarting(false);
    }
  };

  // The sweep: planned runs, one after another in the worker; each run's final metrics kept, the run then reset.
  const [sweep, setSweep] = useState<SweepProgress | null>(null);
  const sweepStarted = useRef(-1);
  /** Starts a sweep; it clears the charts (the panel has asked the reader first when there were runs on them). */
  const startSweep = (axes: SweepAxis[], runs: PlannedRun[]) => {
    if (hasRun) lab.reset();
    clear();
    sweepStarted.current = -1;
    setSweep({ axes, runs, results: [], running: true });
  };
  const stopSweep = () => {
    setSweep((s) => s && { ...s, running: false });
    lab.reset();
  };
  useEffect(() => {
    if (!sweep?.running) return;
    const i = sweep.results.length;
    if (status.state === 'idle' && sweepStarted.current !== i) {
      sweepStarted.current = i;
      const chosen = sweep.runs[i].overrides as Settings;
      runSettings.current = chosen;
      runPreset.current = preset;
      void startRun(chosen).then((ok) => ok || setSweep((s) => s && { ...s, running: false }));
    } else if ((status.state === 'done' || status.state === 'failed' || status.state === 'stopped') && sweepStarted.current === i) {
      const results = [...sweep.results, { run: sweep.runs[i], state: status.state, error: status.error ?? undefined, metrics: finalMetrics(status.history) }];
      const more = results.length < sweep.runs.length;
      setSweep({ ...sweep, results, running: more });
      if (more) lab.reset(); // the last run stays on the charts
    }
    // It reacts to the sweep and the run's state only; the other values it reads are the current render's.
  }, [sweep, status.state]); // eslint-disable-line react-hooks/exhaustive-deps

  // A comparison: presets queued to run one after another, each archived when it finishes. `compared` is the one
  // started last: its columns head the table, and its runs' settings come from the form as it was at the click.
  const [queue, setQueue] = useState<readonly string[]>([]);
  const [compared, setCompared] = useState<number | null>(null);
  const comparedForm = useRef({ preset, settings });
  /** Starts comparison `index`; it clears the charts (ComparePanel has asked the reader first when there were runs on them). */
  const startComparison = (index: number) => {
    const comparison = comparisons[index];
    if (!comparison) return;
    // The comparison's runs take every place on the charts, so the runs there now are cleared, not kept.
    if (hasRun) lab.reset();
    clear();
    comparedForm.current = { preset, settings };
    setCompared(index);
    setQueue(comparison.presets);
  };
  useEffect(() => {
    const next = queue[0];
    if (next === undefined) return;
    if (status.state === 'idle' && compared !== null) {
      // Same seed and length for every variant, so only what the preset changes differs.
      const chosen = comparisonSettings(schema, presets, comparisons[compared], comparedForm.current, next);
      setPreset(next);
      setSettings(chosen);
      runSettings.current = chosen;
      runPreset.current = next;
      void startRun(chosen).then((ok) => ok || setQueue([]));
    } else if (status.state === 'done' && queue.length > 1) {
      archive();
      lab.reset();
      setQueue((q) => q.slice(1));
    } else if (status.state === 'done' || status.state === 'failed' || status.state === 'stopped') {
      setQueue([]);
    }
    // It reacts to the queue and the run's state only; the other values it reads are the current render's.
  }, [queue, status.state]); // eslint-disable-line react-hooks/exhaustive-deps

  /** The current run goes to the charts and the lab is ready for a fresh one (the preset and settings stay). */
  const reset = () => {
    archive();
    lab.reset();
  };
  const train = () => {
    const resumable = status.state === 'paused' || status.state === 'stopped';
    if (resumable && !changedSinceRun) return lab.train(settings, backendChoice, false);
    if (status.state === 'running') return;
    if (hasRun) reset(); // finished, failed, or changed since it started: the next run is a fresh one
    runSettings.current = settings;
    runPreset.current = preset;
    void startRun(settings);
  };
  /** The backend applies from the next run: the worker is started again with it, the current run kept on the charts. */
  const changeBackend = (apply: () => void) => {
    if (hasRun) reset();
    apply();
  };

  /** What Train does next, in words, when that is not simply "start" or "resume". */
  let nextRun: string | null = null;
  if (status.state === 'done' || status.state === 'failed') {
    nextRun = changedSinceRun
      ? 'Settings changed since this run started: Train starts a fresh run with them (this run stays on the charts).'
      : 'Train starts another run with these settings (this one stays on the charts); change the preset or a setting first to compare.';
  } else if ((status.state === 'paused' || status.state === 'stopped') && changedSinceRun) {
    nextRun = 'Settings changed since this run started: Train starts a fresh run with them instead of resuming (this run stays on the charts).';
  } else if (status.state === 'running' && changedSinceRun) {
    nextRun = 'Settings changed: this run goes on with the ones it started with; the next fresh run takes the new ones (pause, then Train).';
  }

  // The run to export: the current one, or, once Reset has put it on the charts, that run while it is still kept there.
  const exportable =
    status.history.length > 0 ? { id: 'current', trainer, settings: runSettings.current, history: status.history } : (saved.find((r) => r.id === archivedId.current) ?? null);
  const exportCurrent = () => {
    if (exportable) downloadText(exportRun(exportable), `${trainer}-run-seed${String(exportable.settings.seed)}.json`, 'application/json');
  };

  return {
    /** The current run's settings and preset as it started (the form may have changed since). */
    run: { settings: runSettings.current, preset: runPreset.current },
    hasRun,
    starting,
    sweep,
    startSweep,
    stopSweep,
    queue,
    /** The comparison started last (its index in the lab's list), or null before any. */
    compared,
    startComparison,
    /** Whether starting a comparison or sweep would clear runs from the charts (their panels ask first). */
    chartsInUse: hasRun || saved.length > 0,
    train,
    reset,
    changeBackend,
    /** The reader's dataset changed: it applies from the next fresh run. */
    noteExtrasChanged: () => hasRun && setExtrasChanged(true),
    nextRun,
    /** Train resumes the paused (or stopped) run rather than starting a fresh one: its button reads "Resume". */
    resumes: (status.state === 'paused' || status.state === 'stopped') && !changedSinceRun,
    /** Whether "Export run (JSON)" has a run to write: the current one, or the one Reset kept on the charts. */
    canExport: exportable !== null,
    exportCurrent,
  };
}
