'use client';

/**
 * A lab's sweep: one or two of its settings, each with a list of values, crossed with a list of seeds (lib/train/
 * sweep.ts plans it as `npm run sweep` does). LabShell runs the plan one run after another in the training worker;
 * this panel asks for the plan and shows the progress, a table, a chart (final metric against the value, a point per
 * seed, the mean as a line) and the CSV, with the same columns as the CLI's sweep.csv.
 */
import { useState } from 'react';
import type { Schema } from '@/lib/train/config';
import { parseAxis, parseSeeds, planSweep, checkPlan, summarize, sweepCsv, SweepError, type PlannedRun, type SweepAxis, type SweepResult } from '@/lib/train/sweep';
import { downloadText } from '@/ui/download';
import { formatValue } from './format';
import { ReplaceRunsPrompt } from './ReplaceRunsPrompt';
import type { Settings } from '@/ui/settings';
import { SweepChart } from './SweepChart';

export interface SweepProgress {
  axes: SweepAxis[];
  runs: PlannedRun[];
  results: SweepResult[];
  /** Whether runs are still to come (false once finished or stopped). */
  running: boolean;
}

export function SweepPanel(props: {
  schema: Schema;
  fields: readonly string[];
  settings: Settings;
  /** The metric the chart shows first (the lab's evaluation metric). */
  metric: string;
  sweep: SweepProgress | null;
  /** Steps of the run under way, for the progress bar. */
  currentStep: number;
  disabled: boolean;
  /** Runs are on the charts: the panel asks before the sweep clears them. */
  chartsInUse: boolean;
  onStart(axes: SweepAxis[], runs: PlannedRun[]): void;
  onStop(): void;
}) {
  const { schema, fields, settings, sweep, currentStep, disabled, chartsInUse, onStart, onStop } = props;
  const [asking, setAsking] = useState<{ axes: SweepAxis[]; runs: PlannedRun[] } | null>(null);
  const sweepable = fields.filter((f) => f !== 'seed' && f in schema);
  const [first, setFirst] = useState<{ field: string; values: string }>({ field: sweepable.includes('learning_rate') ? 'learning_rate' : sweepable[0], values: '' });
  const [second, setSecond] = useState<{ field: string; values: string }>({ field: '', values: '' });
  const [seeds, setSeeds] = useState('0,1,2');
  const [problem, setProblem] = useState<string | null>(null);
  const names = sweep ? [...new Set(sweep.results.flatMap((r) => Object.keys(r.metrics)))].sort((a, b) => Number(b.startsWith('eval/')) - Number(a.startsWith('eval/')) || a.localeCompare(b)) : [];
  const [chosenMetric, setMetric] = useState<string | null>(null);
  const metric = chosenMetric && names.includes(chosenMetric) ? chosenMetric : props.metric;

  const start = () => {
    try {
      const axes = [first, ...(second.field ? [second] : [])].map((a) => {
        if (a.values.trim() === '') throw new SweepError(`list the values of ${a.field}, separated by commas`);
        return parseAxis(schema, `${a.field}=${a.values}`);
      });
      const base = Object.fromEntries(Object.entries(settings).filter(([k]) => k !== 'seed'));
      const runs = planSweep(base, axes, parseSeeds(seeds));
      checkPlan(schema, axes, runs);
      setProblem(null);
      if (chartsInUse) setAsking({ axes, runs });
      else onStart(axes, runs);
    } catch (error) {
      if (!(error instanceof SweepError)) throw error;
      setProblem(error.message);
    }
  };

  const fieldSelect = (value: string, onChange: (v: string) => void, allowNone: boolean, label: string) => (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
      {allowNone ? <option value="">none</option> : null}
      {sweepable.map((f) => (
        <option key={f} value={f}>
          {f}
        </option>
      ))}
    </select>
  );

  const done = sweep?.results.length ?? 0;
  const total = sweep?.runs.length ?? 0;
  const current = sweep && sweep.running && done < total ? sweep.runs[done] : null;
  const maxSteps = Number(settings.max_steps) || 1;
  const describe = (run: PlannedRun, axes: SweepAxis[]) => [...axes.map((a, i) => `${a.field}=${String(run.values[i])}`), `seed ${run.seed}`].join(', ');

  return (
    <section className="lab-section lab-sweep" aria-label="Sweep">
      <h3>Sweep</h3>
      <p className="setting-help">
        Run one or two settings over a list of values, each value once per seed, one run after another with the other settings as they are. The result is each run’s
        final metrics, as <code>npm run sweep</code> writes them. <a href="/chapters/pipeline/#sweeps-and-seed-variance">Sweeps and seed variance, in chapter 7</a>.
      </p>
      <div className="lab-sweep-form">
        <label className="lab-inline">
          Sweep {fieldSelect(first.field, (field) => setFirst({ ...first, field }), false, 'First field to sweep')}
        </label>
        <label className="lab-inline">
          over{' '}
          <input type="text" aria-label="Values of the first field" placeholder="e.g. 1e-4, 3e-4, 1e-3" value={first.values} disabled={disabled} onChange={(e) => setFirst({ ...first, values: e.target.value })} />
        </label>
        <label className="lab-inline">
          and {fieldSelect(second.field, (field) => setSecond({ ...second, field }), true, 'Second field to sweep (optional)')}
        </label>
        {second.field ? (
          <label className="lab-inline">
            over <input type="text" aria-label="Values of the second field" value={second.values} disabled={disabled} onChange={(e) => setSecond({ ...second, values: e.target.value })} />
          </label>
        ) : null}
        <label className="lab-inline">
          Seeds <input type="text" aria-label="Seeds" value={seeds} disabled={disabled} onChange={(e) => setSeeds(e.target.value)} />
        </label>
        {sweep?.running ? (
          <button type="button" onClick={onStop}>
            Stop sweep
          </button>
        ) : (
          <button type="button" onClick={start} disabled={disabled || asking !== null}>
            Run sweep
          </button>
        )}
      </div>
      {asking ? (
        <ReplaceRunsPrompt
          what="sweep"
          onConfirm={() => {
            setAsking(null);
            onStart(asking.axes, asking.runs);
          }}
          onCancel={() => setAsking(null)}
        />
      ) : null}
      {problem ? (
        <p className="lab-error" role="alert">
          {problem}
        </p>
      ) : null}
      {sweep ? (
        <>
          <progress className="lab-sweep-progress" aria-label="Sweep progress" max={total} value={Math.min(total, done + (current ? Math.min(currentStep, maxSteps) / maxSteps : 0))} />
          <p className="lab-notice" role="status">
            {current ? `Run ${done + 1} of ${total}: ${describe(current, sweep.axes)}, step ${currentStep} of ${maxSteps}.` : `${done} of ${total} runs ${sweep.running ? 'done' : done === total ? 'done: the sweep is finished' : 'done: the sweep was stopped'}.`}
          </p>
          {done > 0 ? (
            <>
              <div className="lab-runs-actions">
                <label className="lab-inline">
                  Metric{' '}
                  <select value={metric} onChange={(e) => setMetric(e.target.value)}>
                    {names.map((n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="button" onClick={() => downloadText(sweepCsv(sweep.axes, sweep.results), 'sweep.csv', 'text/csv')}>
                  Export CSV
                </button>
              </div>
              <SweepChart axes={sweep.axes} groups={summarize(sweep.results, metric)} metric={metric} />
              <SweepTable sweep={sweep} metric={metric} />
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function SweepTable({ sweep, metric }: { sweep: SweepProgress; metric: string }) {
  const show = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '—' : formatValue(v));
  const groups = summarize(sweep.results, metric);
  return (
    <div className="lab-table-wrap">
      <table className="runs-summary" aria-label="Sweep results">
        <thead>
          <tr>
            {sweep.axes.map((a) => (
              <th key={a.field} scope="col">
                {a.field}
              </th>
            ))}
            <th scope="col">seeds</th>
            <th scope="col">{metric} per seed</th>
            <th scope="col">mean ± std</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={JSON.stringify(g.values)}>
              {g.values.map((v, i) => (
                <td key={i}>{String(v)}</td>
              ))}
              <td>{g.points.map((p) => p.seed).join(', ')}</td>
              <td>{g.points.map((p) => show(p.value)).join(', ')}</td>
              <td>
                {show(g.mean)} ± {show(g.std)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {sweep.results.some((r) => r.state !== 'done') ? (
        <ul className="lab-fallbacks" aria-label="Runs that did not finish">
          {sweep.results
            .filter((r) => r.state !== 'done')
            .map((r) => (
              <li key={`${JSON.stringify(r.run.values)}-${r.run.seed}`}>
                {sweep.axes.map((a, i) => `${a.field}=${String(r.run.values[i])}`).join(', ')}, seed {r.run.seed}: {r.state}
                {r.error ? ` (${r.error})` : ''}
              </li>
            ))}
        </ul>
      ) : null}
    </div>
  );
}
