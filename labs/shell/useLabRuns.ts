'use client';

/**
 * The lab's run state machine: the current run (its settings and preset as it started, a fresh start with the
 * reader's extras, resume, reset), and the two things that run several runs one after another in the worker, a
 * comparison of presets and a sweep. All of them react to the worker's run state, so they live together.
 */
import { useEffect, useRef, useState } from 'react';
import { ownEntry, presetSettings, type PresetTable, type Schema } from '@/lib/train/config';
import type { TrainerName } from '@/lib/train/registry';
import { finalMetrics, type PlannedRun, type SweepAxis } from '@/lib/train/sweep';
import { downloadText } from './download';
import type { LabComparison } from './labDefinition';
import { exportRun } from './runs';
import type { Settings } from './settings';
import type { SweepProgress } from './SweepPanel';
import type { LabExtras, useLabWorker } from './useLabWorker';
import type { LinkedSettings } from './useLinkedSettings';
import type { SavedRuns } from './useSavedRuns';

export function useLabRuns<N extends TrainerName>({
  trainer,
  schema,
  presets,
  lab,
  linked,
  savedRuns,
  comparison,
  prepareExtras,
}: {
  trainer: N;
  schema: Schema;
  presets: PresetTable;
  lab: ReturnType<typeof useLabWorker<N>>;
  linked: LinkedSettings;
  savedRuns: SavedRuns;
  /** The lab's comparison, if it offers one here. */
  comparison: LabComparison | undefined;
  /** What a fresh run takes besides its settings; null: it cannot start (the notice says why). */
  prepareExtras(): Promise<LabExtras | null>;
}) {
  const { settings, setSettings, preset, setPreset, backendChoice } = linked;
  const { saved, keep, clear } = savedRuns;
  const { status } = lab;
  const runSettings = useRef<Settings>(settings);
  const runPreset = useRef<string>(preset);
  const hasRun = status.history.length > 0 || status.state !== 'idle';

  /** Keep the finished or stopped run for comparison (the current run is one of the MAX_RUNS). */
  const archive = () => {
    if (status.history.length === 0) return;
    keep({ id: `run-${Date.now()}`, trainer, settings: runSettings.current, history: status.history, preset: runPreset.current });
  };

  const [starting, setStarting] = useState(false);
  /** Starts a fresh run with these settings and the reader's extras; false if it could not start. */
  const startRun = async (chosen: Settings): Promise<boolean> => {
    setStarting(true);
    try {
      const extras = await prepareExtras();
      if (extras === null) return false;
      lab.train(chosen, backendChoice, true, extras);
      return true;
    } finally {
      setStarting(false);
    }
  };

  // The sweep: planned runs, one after another in the worker; each run's final metrics kept, the run then reset.
  const [sweep, setSweep] = useState<SweepProgress | null>(null);
  const sweepStarted = useRef(-1);
  const startSweep = (axes: SweepAxis[], runs: PlannedRun[]) => {
    if ((hasRun || saved.length > 0) && !window.confirm(`The sweep runs ${runs.length} runs one after another and clears the runs on the charts; only the current one can be exported first (Export run). Start it?`)) return;
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

  // The comparison: presets queued to run one after another, each archived when it finishes.
  const [queue, setQueue] = useState<string[]>([]);
  const startComparison = () => {
    if (!comparison) return;
    // The comparison's runs take every place on the charts, so the runs there now are cleared, not kept.
    if ((hasRun || saved.length > 0) && !window.confirm('The comparison clears the runs on the charts; only the current one can be exported first (Export run). Start it?')) return;
    if (hasRun) lab.reset();
    clear();
    setQueue(comparison.presets);
  };
  useEffect(() => {
    const next = queue[0];
    if (next === undefined) return;
    if (status.state === 'idle') {
      // Same seed and length for every variant, so only what the preset changes differs.
      const chosen = { ...presetSettings(schema, ownEntry(presets, next)), seed: settings.seed, max_steps: settings.max_steps };
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

  /** A change that needs a fresh run asks first; returns false if the reader keeps the run. */
  const freshRunAllowed = (what: string) => {
    if (!hasRun) return true;
    if (!window.confirm(`Changing ${what} needs a fresh run. Reset the current run (it stays on the charts for comparison)?`)) return false;
    archive();
    lab.reset();
    return true;
  };
  const train = () => {
    if (status.state !== 'idle') return lab.train(settings, backendChoice, false); // resume
    runSettings.current = settings;
    runPreset.current = preset;
    void startRun(settings);
  };
  const reset = () => {
    archive();
    lab.reset();
  };
  const exportCurrent = () =>
    downloadText(exportRun({ id: 'current', trainer, settings: runSettings.current, history: status.history }), `${trainer}-run-seed${runSettings.current.seed}.json`, 'application/json');

  return {
    /** The current run's settings and preset as it started (the form may have changed since). */
    run: { settings: runSettings.current, preset: runPreset.current },
    hasRun,
    starting,
    sweep,
    startSweep,
    stopSweep,
    queue,
    startComparison,
    freshRunAllowed,
    train,
    reset,
    exportCurrent,
  };
}
