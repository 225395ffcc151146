'use client';

import { useState } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LogLine } from '@/lib/train/run';

export interface ChartRun {
  label: string;
  history: LogLine[];
}

export interface ChartSpec {
  title: string;
  /** Metric names (TRL's logged names); one line each per run. */
  metrics: string[];
  kind: 'train' | 'eval';
  /** Fixed y range, e.g. [0, 1] for accuracies. */
  domain?: [number, number];
}

export const RUN_COLOURS = ['#2f7ed8', '#e8743b', '#19a979', '#945ecf'];
const DASHES = [undefined, '5 3'];

const format = (v: number) => (Math.abs(v) >= 100 || v === 0 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3));

/** More points than a 170-px chart can show only slow it down: beyond this, every k-th step is drawn. */
export const MAX_CHART_POINTS = 600;
/** The data table shows this many rows at a time (an imported run can have 40,000 steps). */
export const TABLE_PAGE_ROWS = 100;

/** Every k-th row and the last, so the line keeps its shape and its end. */
function thin<T>(rows: T[], max: number): { rows: T[]; stride: number } {
  if (rows.length <= max) return { rows, stride: 1 };
  const stride = Math.ceil(rows.length / max);
  const kept = rows.filter((_, i) => i % stride === 0);
  if (kept.at(-1) !== rows.at(-1)) kept.push(rows.at(-1)!);
  return { rows: kept, stride };
}

/** One chart: each metric of each run as a line; values on hover; the same numbers as a table on request. */
export function MetricChart({ spec, runs }: { spec: ChartSpec; runs: ChartRun[] }) {
  const [tableOpen, setTableOpen] = useState(false);
  const [page, setPage] = useState(0);
  const key = (run: number, metric: string) => `${run}:${metric}`;
  const byStep = new Map<number, Record<string, number>>();
  runs.forEach((run, r) => {
    for (const line of run.history) {
      if (line.kind !== spec.kind) continue;
      for (const metric of spec.metrics) {
        const value = line.metrics[metric];
        if (value === undefined) continue;
        const row = byStep.get(line.step) ?? { step: line.step };
        row[key(r, metric)] = value;
        byStep.set(line.step, row);
      }
    }
  });
  const data = [...byStep.values()].sort((a, b) => a.step - b.step);
  const plotted = thin(data, MAX_CHART_POINTS);
  const pages = Math.max(1, Math.ceil(data.length / TABLE_PAGE_ROWS));
  const shownPage = Math.min(page, pages - 1);
  const tableRows = tableOpen ? data.slice(shownPage * TABLE_PAGE_ROWS, (shownPage + 1) * TABLE_PAGE_ROWS) : [];
  const lines = runs.flatMap((run, r) => spec.metrics.map((metric, m) => ({ dataKey: key(r, metric), name: runs.length > 1 ? `${metric} · ${run.label}` : metric, colour: RUN_COLOURS[r % RUN_COLOURS.length], dash: DASHES[m % DASHES.length] })));
  const empty = data.length === 0;

  return (
    <figure className="metric-chart" aria-label={spec.title}>
      <figcaption>
        {spec.title}
        {plotted.stride > 1 ? <span className="metric-chart-thinned"> (every {plotted.stride}th step drawn; the table has all)</span> : null}
      </figcaption>
      <div className="metric-chart-plot">
        {empty ? (
          <p className="metric-chart-empty">No data yet</p>
        ) : (
          <ResponsiveContainer width="100%" height={170}>
            <LineChart data={plotted.rows} margin={{ top: 6, right: 10, bottom: 0, left: 0 }}>
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
              <XAxis dataKey="step" type="number" domain={['dataMin', 'dataMax']} tick={{ fontSize: 11, fill: 'var(--fg-muted)' }} allowDecimals={false} />
              <YAxis domain={spec.domain ?? ['auto', 'auto']} tick={{ fontSize: 11, fill: 'var(--fg-muted)' }} tickFormatter={format} width={52} />
              <Tooltip formatter={(v) => format(Number(v))} labelFormatter={(s) => `step ${s}`} contentStyle={{ background: 'var(--bg)', border: '1px solid var(--border)', fontSize: 12 }} />
              {lines.length > 1 ? <Legend wrapperStyle={{ fontSize: 11 }} /> : null}
              {lines.map((l) => (
                <Line key={l.dataKey} dataKey={l.dataKey} name={l.name} stroke={l.colour} strokeDasharray={l.dash} dot={spec.kind === 'eval'} isAnimationActive={false} connectNulls />
              ))}
            </LineChart>
          </ResponsiveContainer>
        )}
      </div>
      <details className="metric-table" onToggle={(e) => setTableOpen(e.currentTarget.open)}>
        <summary>Data table</summary>
        {pages > 1 ? (
          <p className="metric-table-pager">
            <button type="button" onClick={() => setPage(shownPage - 1)} disabled={shownPage === 0}>
              Previous
            </button>{' '}
            rows {shownPage * TABLE_PAGE_ROWS + 1}–{Math.min(data.length, (shownPage + 1) * TABLE_PAGE_ROWS)} of {data.length}{' '}
            <button type="button" onClick={() => setPage(shownPage + 1)} disabled={shownPage === pages - 1}>
              Next
            </button>
          </p>
        ) : null}
        <div className="metric-table-scroll">
          <table>
            <caption className="sr-only">{spec.title} by step</caption>
            <thead>
              <tr>
                <th scope="col">step</th>
                {lines.map((l) => (
                  <th scope="col" key={l.dataKey}>
                    {l.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {tableRows.map((row) => (
                <tr key={row.step}>
                  <th scope="row">{row.step}</th>
                  {lines.map((l) => (
                    <td key={l.dataKey}>{row[l.dataKey] === undefined ? '' : format(row[l.dataKey])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
