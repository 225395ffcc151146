'use client';

import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { BACKEND_ORDER, type BackendName } from '@/lib/tf/names';
import { ownEntry, presetSettings, type FieldValue } from '@/lib/train/config';
import { TRAINERS, trainerSettings, type FieldOf, type TrainerName } from '@/lib/train/registry';
import { finalMetrics, type PlannedRun, type SweepAxis } from '@/lib/train/sweep';
import { applyAssignment, presetUnderAssignment } from './assignment';
import { AssignmentBanner } from './AssignmentBanner';
import { BackendReport } from './BackendReport';
import { MetricChart, type ChartSpec } from './MetricChart';
import { RunsSummary, type SummaryColumn } from './RunsSummary';
import { exportRun, importRun, MAX_FILE_BYTES, MAX_RUNS, type SavedRun } from './runs';
import { decodeSettings, describeDifferences, encodeSettings, type Settings } from './settings';
import { downloadText } from './download';
import { ExportForTrl } from './ExportForTrl';
import { SettingsForm } from './SettingsForm';
import { useAssignment } from './useAssignment';
import { useLabWorker, type LabExtras, type StepSample } from './useLabWorker';
import { useCustomReward } from './useCustomReward';
import { RewardPanel } from './RewardPanel';
import { DatasetPanel, type LoadedDataset } from './DatasetPanel';
import { SweepPanel, type SweepProgress } from './SweepPanel';

/** What a lab adds to its trainer (whose schema, presets and checkpoint come from lib/train/registry.ts). */
export interface LabDefinition<N extends TrainerName> {
  trainer: N;
  /** Controls to show, in order: the trainer's config fields (TRL's names), checked at compile time. */
  fields: FieldOf<N>[];
  charts: ChartSpec[];
  /** Shows the latest steps' inspector data (a group inspector, a pair inspector, the grid world…). */
  inspector: { title: string; render(samples: StepSample<N>[], settings: Settings): ReactNode };
  /** The metric the status line reports after each evaluation, e.g. ['eval/accuracy', 'held-out accuracy', true]. */
  evalMetric: [name: string, label: string, percent: boolean];
  /** The presets this lab offers (default: all of the trainer's), the first being where the lab starts. */
  presets?: readonly string[];
  /**
   * Presets to run one after another on the same seed, each kept on the charts (e.g. GRPO's variants), with the
   * columns of the table that compares them.
   */
  comparison?: { label: string; presets: string[]; columns: SummaryColumn[] };
  /** Buttons for the trainer's actions (Trainer.actions), usable once a run is paused or finished. */
  actions?: { name: string; label: string; help: string }[];
}

/** A download link for bytes an action made; the object URL is freed when the link goes. */
function FileLink({ file }: { file: { name: string; bytes: Uint8Array } }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const href = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: 'application/octet-stream' }));
    setUrl(href);
    return () => URL.revokeObjectURL(href);
  }, [file]);
  return url ? (
    <a href={url} download={file.name}>
      Download {file.name} ({(file.bytes.length / 1024).toFixed(1)} KB)
    </a>
  ) : null;
}

/** Every lab's shell: settings named as TRL's config, training in a worker, live charts, an inspector, runs. */
export function LabShell<N extends TrainerName>({ lab: definition }: { lab: LabDefinition<N> }) {
  const { trainer, fields, charts, inspector, evalMetric } = definition;
  const { schema, presets: allPresets } = trainerSettings(trainer);
  const offered = definition.presets;
  const presets = useMemo(() => (offered ? Object.fromEntries(offered.map((name) => [name, allPresets[name]])) : allPresets), [offered, allPresets]);
  const firstPreset = definition.presets?.[0] ?? 'default';
  const lab = useLabWorker(trainer);
  const assignment = useAssignment(trainer);
  const [settings, setSettings] = useState<Settings>(() => presetSettings(schema, presets[firstPreset]));
  const [preset, setPreset] = useState(firstPreset);
  const [backendChoice, setBackendChoice] = useState<BackendName | 'auto'>('auto');
  const [notices, setNotices] = useState<string[]>([]);
  const [saved, setSaved] = useState<SavedRun[]>([]);
  const customReward = useCustomReward(trainer);
  const [dataset, setDataset] = useState<LoadedDataset | null>(null);
  const { accepts } = TRAINERS[trainer];
  const runSettings = useRef<Settings>(settings);
  const runPreset = useRef<string>(preset);
  // The server renders the preset's settings; until the link's settings (and assignment) are read, the lab is marked
  // pending: the deferred boot holds the buttons pressed before then and presses them again once they are in
  // (app/_components/boot/deferred-boot.ts), so no action starts from the settings the server rendered.
  const [settled, setSettled] = useState(false);
  const { status } = lab;
  const steps = status.history.filter((l) => l.kind === 'train');
  const hasRun = status.history.length > 0 || status.state !== 'idle';

  // Settings come from the URL once (under the assignment in its fragment, if any), then go back into it on every
  // change: a link reproduces the run.
  useEffect(() => {
    if (!assignment.ready) return;
    const decoded = decodeSettings(schema, presets, window.location.search, firstPreset);
    const { backend } = decoded;
    const { settings: fromUrl, preset: p, problems } = assignment.assignment ? applyAssignment(assignment.assignment, schema, presets, decoded, window.location.search, firstPreset) : decoded;
    setSettings(fromUrl);
    setPreset(p);
    setBackendChoice(backend);
    setNotices(problems.map((problem) => `Link settings: ${problem}.`));
    setSettled(true);
  }, [schema, presets, firstPreset, assignment]);
  useEffect(() => {
    if (!settled) return;
    const query = encodeSettings(schema, presets, settings, preset, firstPreset);
    const backend = backendChoice === 'auto' ? '' : `${query ? '&' : ''}backend=${backendChoice}`;
    const url = `${window.location.pathname}${query || backend ? `?${query}${backend}` : ''}${window.location.hash}`;
    window.history.replaceState(null, '', url);
  }, [settled, schema, presets, settings, preset, backendChoice, firstPreset]);

  /** Keep the finished or stopped run for comparison (the current run is one of the MAX_RUNS). */
  const archive = () => {
    if (status.history.length === 0) return;
    const run: SavedRun = { id: `run-${Date.now()}`, trainer, settings: runSettings.current, history: status.history, preset: runPreset.current };
    setSaved((runs) => [...runs, run].slice(-(MAX_RUNS - 1)));
  };

  /**
   * What a fresh run takes besides its settings: the reader's dataset, and their reward function loaded into a fresh
   * sandbox. Null when the reward function cannot be loaded (the notice says why): no run starts.
   */
  const [starting, setStarting] = useState(false);
  const runExtras = async (): Promise<LabExtras | null> => {
    if (assignment.assignment) return {}; // an assignment trains on its lab's own reward and data
    const extras: LabExtras = { dataset: accepts.dataset ? dataset?.dataset : undefined };
    if (accepts.reward && customReward.enabled) {
      const prepared = await customReward.prepare();
      if ('error' in prepared) {
        setNotices([prepared.error]);
        return null;
      }
      extras.reward = prepared.reward;
    }
    return extras;
  };
  /** Starts a fresh run with these settings and the reader's extras; false if it could not start. */
  const startRun = async (chosen: Settings): Promise<boolean> => {
    setStarting(true);
    try {
      const extras = await runExtras();
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
    setSaved([]);
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
  // Under an assignment the comparison is not offered: its presets would change the settings the instructor locked.
  const comparison = assignment.assignment ? undefined : definition.comparison;
  const startComparison = () => {
    if (!comparison) return;
    // The comparison's runs take every place on the charts, so the runs there now are cleared, not kept.
    if ((hasRun || saved.length > 0) && !window.confirm('The comparison clears the runs on the charts; only the current one can be exported first (Export run). Start it?')) return;
    if (hasRun) lab.reset();
    setSaved([]);
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

  const change = (key: string, value: FieldValue) => {
    if (assignment.locked.has(key)) return; // its control is disabled; a locked field never changes
    if (freshRunAllowed(key)) setSettings((s) => ({ ...s, [key]: value }));
  };
  const choosePreset = (name: string) => {
    const assigned = assignment.assignment ? presetUnderAssignment(assignment.assignment, schema, presets, name) : null;
    if (assigned && 'refusal' in assigned) return setNotices([assigned.refusal]);
    if (!freshRunAllowed('the preset')) return;
    setPreset(name);
    setSettings(assigned?.settings ?? presetSettings(schema, ownEntry(presets, name)));
  };
  const chooseBackend = (choice: BackendName | 'auto') => {
    if (!freshRunAllowed('the backend')) return;
    setBackendChoice(choice);
    lab.restart();
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

  const download = () =>
    downloadText(exportRun({ id: 'current', trainer, settings: runSettings.current, history: status.history }), `${trainer}-run-seed${runSettings.current.seed}.json`, 'application/json');
  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setNotices([`Could not import ${file.name}: it is ${(file.size / 1e6).toFixed(1)} MB, and a run export is at most ${MAX_FILE_BYTES / 1e6} MB. Nothing was changed.`]);
      return;
    }
    try {
      const run = importRun(await file.text(), trainer, schema);
      setSaved((runs) => [...runs, run].slice(-(MAX_RUNS - 1)));
      setNotices([`Imported ${file.name}: ${run.history.filter((l) => l.kind === 'train').length} steps, overlaid on the charts.`]);
    } catch (error) {
      setNotices([`Could not import ${file.name}: ${(error as Error).message}. Nothing was changed.`]);
    }
  };

  const current = { settings: runSettings.current, history: status.history, preset: runPreset.current };
  const allRuns = [...saved, ...(status.history.length ? [current] : [])];
  // Runs from a comparison are named by their preset; others by the settings that differ between them.
  const byPreset = allRuns.every((r) => r.preset) && new Set(allRuns.map((r) => r.preset)).size === allRuns.length;
  const chartRuns = allRuns.map((run, i) => ({
    history: run.history,
    label: `run ${i + 1}${allRuns.length > 1 ? ` (${byPreset ? run.preset : describeDifferences(schema, run.settings, allRuns.filter((o) => o !== run).map((o) => o.settings))})` : ''}`,
  }));
  const last = steps.at(-1)?.metrics;
  const msPerStep = last?.['timing/step_ms'] !== undefined ? Math.round(last['timing/step_ms']) : null;
  const [evalName, evalLabel, evalPercent] = evalMetric;
  // While a run trains, starts or a sweep goes on, what the next run takes (reward, data, a sweep) stays as it is.
  const busy = starting || Boolean(sweep?.running) || status.state === 'running';
  const lastEval = status.history.filter((l) => l.kind === 'eval').at(-1)?.metrics[evalName];
  const stateWord = { idle: 'ready', running: 'training', paused: 'paused', stopped: 'stopped', done: 'finished', failed: 'stopped on an error' }[status.state];

  return (
    <div className="lab" data-boot-pending={settled ? undefined : ''}>
      <AssignmentBanner view={assignment} trainer={trainer} run={{ state: status.state, backend: status.backend, settings: runSettings.current, history: status.history }} requestWeights={lab.weights} />
      <div className="lab-toolbar">
        <button type="button" className="lab-primary" onClick={train} disabled={starting || Boolean(sweep?.running) || status.state === 'running' || status.state === 'done' || status.state === 'failed'}>
          Train
        </button>
        <button type="button" onClick={lab.pause} disabled={status.state !== 'running'}>
          Pause
        </button>
        <button type="button" onClick={reset} disabled={!hasRun}>
          Reset
        </button>
        <label className="lab-inline">
          Preset{' '}
          <select value={preset} onChange={(e) => choosePreset(e.target.value)}>
            {Object.keys(presets).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="lab-inline">
          Backend{' '}
          <select value={backendChoice} onChange={(e) => chooseBackend(e.target.value as BackendName | 'auto')}>
            <option value="auto">auto</option>
            {BACKEND_ORDER.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p role="status" className="lab-status">
        {status.backend ?? (status.state === 'running' ? 'choosing a backend…' : 'backend chosen on Train')} · step {steps.length}
        {msPerStep !== null ? ` · ${msPerStep} ms/step` : ''} · {stateWord}
        {lastEval !== undefined ? ` · ${evalLabel} ${evalPercent ? `${(lastEval * 100).toFixed(1)}%` : lastEval.toFixed(2)}` : ''}
      </p>
      {status.fallbacks.length > 0 ? (
        <ul className="lab-fallbacks" aria-label="Backends not used">
          {status.fallbacks.map((f) => (
            <li key={f.backend}>
              {f.backend} not used: {f.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {status.sampler && status.backend ? (
        <p className="lab-sampler">
          {status.sampler === 'fused'
            ? `Sampling runs in a fused WebAssembly SIMD kernel on the CPU, one call per token step; the training step runs on ${status.backend}.`
            : `Sampling runs as tfjs kernels on ${status.backend}: the fused WebAssembly kernel cannot run in this browser.`}
        </p>
      ) : null}
      <BackendReport probe={status.probe} switched={status.switched} />
      {status.error ? <p className="lab-error" role="alert">{status.error}</p> : null}
      {notices.map((n) => (
        <p key={n} className="lab-notice">
          {n}
        </p>
      ))}
      <p className="lab-preset-note">{ownEntry(presets, preset)?.description}</p>

      <div className="lab-charts">
        {charts.map((spec) => (
          <MetricChart key={spec.title} spec={spec} runs={chartRuns} />
        ))}
      </div>

      <section className="lab-section" aria-label={inspector.title}>
        <h3>{inspector.title}</h3>
        {inspector.render(status.samples, runSettings.current)}
      </section>

      {definition.actions?.length ? (
        <section className="lab-section" aria-label="Actions">
          <h3>Actions</h3>
          <p className="inspector-legend">They act on the current run between steps: pause it or let it finish first.</p>
          {definition.actions.map((a) => {
            const result = status.actions[a.name];
            return (
              <div className="lab-action" key={a.name}>
                <button type="button" onClick={() => lab.action(a.name)} disabled={!(status.state === 'paused' || status.state === 'done' || status.state === 'stopped')}>
                  {a.label}
                </button>{' '}
                <span className="setting-help">{a.help}</span>
                {result ? (
                  <p className="lab-action-result" role="status" aria-label={`${a.label}: result`}>
                    {result.summary}{' '}
                    {result.file ? <FileLink file={result.file} /> : null}
                  </p>
                ) : null}
              </div>
            );
          })}
        </section>
      ) : null}

      {accepts.reward ? (
        <RewardPanel reward={customReward} disabled={busy || Boolean(assignment.assignment)} note={assignment.assignment ? 'An assignment trains with its lab’s own rewards: your function is not used here.' : undefined} />
      ) : null}
      {accepts.dataset ? (
        <DatasetPanel
          kind={accepts.dataset}
          loaded={dataset}
          sampledCompletion={trainer === 'grpo' ? Number(settings.max_completion_length) : undefined}
          disabled={busy || Boolean(assignment.assignment)}
          note={assignment.assignment ? 'An assignment trains on its lab’s own data: a file is not used here.' : undefined}
          onLoad={(next) => freshRunAllowed('the dataset') && setDataset(next)}
        />
      ) : null}
      {assignment.assignment ? null : (
        <SweepPanel
          schema={schema}
          fields={fields}
          settings={settings}
          metric={evalName}
          sweep={sweep}
          currentStep={steps.length}
          disabled={busy || queue.length > 0}
          onStart={startSweep}
          onStop={stopSweep}
        />
      )}

      {comparison ? (
        <section className="lab-section" aria-label="Compare">
          <h3>Compare</h3>
          <p>
            {comparison.label}{' '}
            <button type="button" onClick={startComparison} disabled={queue.length > 0 || busy}>
              Run {comparison.presets.join(', ')}
            </button>
          </p>
          {queue.length > 0 ? (
            <p role="status" className="lab-notice">
              Running {queue[0]} ({comparison.presets.length - queue.length + 1} of {comparison.presets.length}); the others follow on the same seed.
            </p>
          ) : null}
          <RunsSummary runs={chartRuns} columns={comparison.columns} />
        </section>
      ) : null}

      <section className="lab-section" aria-label="Runs">
        <h3>Runs</h3>
        <p>
          Up to {MAX_RUNS} runs overlay on the charts, labelled by the settings that differ. Reset keeps the last run for comparison.
        </p>
        <div className="lab-runs-actions">
          <button type="button" onClick={download} disabled={status.history.length === 0}>
            Export run (JSON)
          </button>
          <label className="lab-file">
            Import run{' '}
            <input type="file" accept="application/json,.json" onChange={(e) => void upload(e.target.files?.[0]).finally(() => (e.target.value = ''))} />
          </label>
          <button type="button" onClick={() => setSaved([])} disabled={saved.length === 0}>
            Clear saved runs
          </button>
        </div>
      </section>

      <ExportForTrl trainer={trainer} settings={settings} preset={preset} />

      <details className="lab-section lab-settings" open>
        <summary>Settings (named as in TRL)</summary>
        <SettingsForm schema={schema} fields={fields} settings={settings} onChange={change} locked={assignment.locked} />
      </details>
    </div>
  );
}
