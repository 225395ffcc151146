'use client';

import { useEffect, useRef, useState } from 'react';
import { BACKEND_ORDER, type BackendName } from '@/lib/tf/backend';
import { defaults, type FieldValue } from '@/lib/train/config';
import { grpoPresets, grpoSchema } from '@/lib/train/grpo-config';
import { CHECKPOINTS } from '@/lib/train/lab-setup';
import { MetricChart, type ChartSpec } from '../shell/MetricChart';
import { exportRun, importRun, MAX_RUNS, type SavedRun } from '../shell/runs';
import { decodeSettings, describeDifferences, encodeSettings, type Settings } from '../shell/settings';
import { SettingsForm } from '../shell/SettingsForm';
import { useLabWorker } from '../shell/useLabWorker';
import { GroupInspector } from './GroupInspector';

const CHARTS: ChartSpec[] = [
  { title: 'Reward (mean and std)', metrics: ['reward', 'reward_std'], kind: 'train' },
  { title: 'Held-out accuracy', metrics: ['eval/accuracy'], kind: 'eval', domain: [0, 1] },
  { title: 'KL to the reference (beta > 0 only)', metrics: ['kl'], kind: 'train' },
  { title: 'Clip ratio (low, high)', metrics: ['clip_ratio/low_mean', 'clip_ratio/high_mean'], kind: 'train' },
  { title: 'Entropy', metrics: ['entropy'], kind: 'train' },
  { title: 'Completion length', metrics: ['completions/mean_length'], kind: 'train' },
  { title: 'Loss', metrics: ['loss'], kind: 'train' },
];

const FIELDS = [
  'learning_rate', 'num_generations', 'per_device_train_batch_size', 'max_steps', 'beta', 'epsilon', 'epsilon_high', 'temperature',
  'loss_type', 'scale_rewards', 'importance_sampling_level', 'num_iterations', 'max_completion_length',
  'reward_weight_correctness', 'reward_weight_format', 'reward_weight_length', 'correctness_reward', 'seed',
];

const CHECKPOINT_URL = `/${CHECKPOINTS.sft}`;

/** The GRPO lab: settings named as TRL's GRPOConfig, training in a worker, live charts, group inspector, runs. */
export default function GrpoLab() {
  const lab = useLabWorker('grpo', CHECKPOINT_URL);
  const [settings, setSettings] = useState<Settings>(() => defaults(grpoSchema));
  const [preset, setPreset] = useState('default');
  const [backendChoice, setBackendChoice] = useState<BackendName | 'auto'>('auto');
  const [notices, setNotices] = useState<string[]>([]);
  const [saved, setSaved] = useState<SavedRun[]>([]);
  const runSettings = useRef<Settings>(settings);
  const loaded = useRef(false);
  const { status } = lab;
  const steps = status.history.filter((l) => l.kind === 'train');
  const hasRun = status.history.length > 0 || status.state !== 'idle';

  // Settings come from the URL once, then go back into it on every change: a link reproduces the run.
  useEffect(() => {
    const { settings: fromUrl, preset: p, problems } = decodeSettings(grpoSchema, grpoPresets, window.location.search);
    const backend = new URLSearchParams(window.location.search).get('backend');
    setSettings(fromUrl);
    setPreset(p);
    if (backend && (BACKEND_ORDER as readonly string[]).includes(backend)) setBackendChoice(backend as BackendName);
    else if (backend && backend !== 'auto') problems.push(`ignored backend=${backend}: expected auto, ${BACKEND_ORDER.join(', ')}`);
    setNotices(problems.map((p) => `Link settings: ${p}.`));
    loaded.current = true;
  }, []);
  useEffect(() => {
    if (!loaded.current) return;
    const query = encodeSettings(grpoSchema, settings, preset);
    const backend = backendChoice === 'auto' ? '' : `${query ? '&' : ''}backend=${backendChoice}`;
    const url = `${window.location.pathname}${query || backend ? `?${query}${backend}` : ''}${window.location.hash}`;
    window.history.replaceState(null, '', url);
  }, [settings, preset, backendChoice]);

  /** Keep the finished or stopped run for comparison (the current run is one of the MAX_RUNS). */
  const archive = () => {
    if (status.history.length === 0) return;
    const run: SavedRun = { id: `run-${Date.now()}`, trainer: 'grpo', settings: runSettings.current, history: status.history };
    setSaved((runs) => [...runs, run].slice(-(MAX_RUNS - 1)));
  };
  /** A change that needs a fresh run asks first; returns false if the reader keeps the run. */
  const freshRunAllowed = (what: string) => {
    if (!hasRun) return true;
    if (!window.confirm(`Changing ${what} needs a fresh run. Reset the current run (it stays on the charts for comparison)?`)) return false;
    archive();
    lab.reset();
    return true;
  };

  const change = (key: string, value: FieldValue) => {
    if (freshRunAllowed(key)) setSettings((s) => ({ ...s, [key]: value }));
  };
  const choosePreset = (name: string) => {
    if (!freshRunAllowed('the preset')) return;
    setPreset(name);
    setSettings({ ...defaults(grpoSchema), ...grpoPresets[name as keyof typeof grpoPresets].overrides });
  };
  const chooseBackend = (choice: BackendName | 'auto') => {
    if (!freshRunAllowed('the backend')) return;
    setBackendChoice(choice);
    lab.restart();
  };
  const train = () => {
    if (status.state === 'idle') runSettings.current = settings;
    lab.train(settings, backendChoice);
  };
  const reset = () => {
    archive();
    lab.reset();
  };

  const download = () => {
    const blob = new Blob([exportRun({ id: 'current', trainer: 'grpo', settings: runSettings.current, history: status.history })], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `grpo-run-seed${runSettings.current.seed}.json`;
    a.click();
    URL.revokeObjectURL(a.href);
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    try {
      const run = importRun(await file.text(), 'grpo', grpoSchema);
      setSaved((runs) => [...runs, run].slice(-(MAX_RUNS - 1)));
      setNotices([`Imported ${file.name}: ${run.history.filter((l) => l.kind === 'train').length} steps, overlaid on the charts.`]);
    } catch (error) {
      setNotices([`Could not import ${file.name}: ${(error as Error).message}. Nothing was changed.`]);
    }
  };

  const current = { label: 'current', settings: runSettings.current, history: status.history };
  const allRuns = [...saved.map((r) => ({ label: '', settings: r.settings, history: r.history })), ...(status.history.length ? [current] : [])];
  const chartRuns = allRuns.map((run, i) => ({
    history: run.history,
    label: `run ${i + 1}${allRuns.length > 1 ? ` (${describeDifferences(grpoSchema, run.settings, allRuns.filter((o) => o !== run).map((o) => o.settings))})` : ''}`,
  }));
  const last = steps.at(-1)?.metrics;
  const msPerStep = last ? Math.round((last['timing/generation_ms'] ?? 0) + (last['timing/update_ms'] ?? 0)) : null;
  const lastEval = status.history.filter((l) => l.kind === 'eval').at(-1)?.metrics['eval/accuracy'];
  const stateWord = { idle: 'ready', running: 'training', paused: 'paused', stopped: 'stopped', done: 'finished', failed: 'stopped on an error' }[status.state];

  return (
    <div className="lab">
      <div className="lab-toolbar">
        <button type="button" className="lab-primary" onClick={train} disabled={status.state === 'running' || status.state === 'done' || status.state === 'failed'}>
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
            {Object.keys(grpoPresets).map((name) => (
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
        {lastEval !== undefined ? ` · held-out accuracy ${(lastEval * 100).toFixed(1)}%` : ''}
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
      {status.error ? <p className="lab-error" role="alert">{status.error}</p> : null}
      {notices.map((n) => (
        <p key={n} className="lab-notice">
          {n}
        </p>
      ))}
      <p className="lab-preset-note">{grpoPresets[preset as keyof typeof grpoPresets].description}</p>

      <div className="lab-charts">
        {CHARTS.map((spec) => (
          <MetricChart key={spec.title} spec={spec} runs={chartRuns} />
        ))}
      </div>

      <section className="lab-section" aria-label="Group inspector">
        <h3>Group inspector</h3>
        <GroupInspector samples={status.samples} />
      </section>

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

      <details className="lab-section lab-settings" open>
        <summary>Settings (TRL GRPOConfig names)</summary>
        <SettingsForm schema={grpoSchema} fields={FIELDS} settings={settings} onChange={change} />
      </details>
    </div>
  );
}
