'use client';

import type { LogLine } from '@/lib/train/run';
import { formatValue } from './format';
import type { ChartRun } from './MetricChart';
import { ScrollBox } from './ScrollBox';

/** A column of the runs table: a metric read from a run's history. */
export interface SummaryColumn {
  label: string;
  metric: string;
  /** 'final': the last evaluation's value; 'recent': the mean over the last 10 training steps that logged it. */
  read: 'final' | 'recent';
  percent?: boolean;
}

function value(history: LogLine[], column: SummaryColumn): number | undefined {
  if (column.read === 'final') return history.filter((l) => l.kind === 'eval' && column.metric in l.metrics).at(-1)?.metrics[column.metric];
  const xs = history.filter((l) => l.kind === 'train' && column.metric in l.metrics).slice(-10).map((l) => l.metrics[column.metric]);
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined;
}

// As the charts' data tables print values, so one number reads the same in both.
const fmt = (x: number | undefined, percent = false) => (x === undefined ? '–' : percent ? `${(100 * x).toFixed(1)}%` : formatValue(x));

/** The runs on the charts side by side: a few columns of what each ended with, its steps and its training time. */
export function RunsSummary({ runs, columns }: { runs: ChartRun[]; columns: readonly SummaryColumn[] }) {
  if (runs.length === 0) return null;
  return (
    <ScrollBox label="The runs compared">
      <table className="runs-summary">
        <caption className="sr-only">The runs compared</caption>
        <thead>
          <tr>
            <th scope="col">run</th>
            {columns.map((c) => (
              <th scope="col" key={c.label}>
                {c.label}
              </th>
            ))}
            <th scope="col">steps</th>
            <th scope="col">training time</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => {
            const steps = run.history.filter((l) => l.kind === 'train');
            const ms = steps.reduce((s, l) => s + (l.metrics['timing/step_ms'] ?? 0), 0);
            return (
              <tr key={run.label}>
                <th scope="row">{run.label}</th>
                {columns.map((c) => (
                  <td key={c.label}>{fmt(value(run.history, c), c.percent)}</td>
                ))}
                <td>{steps.length}</td>
                <td>{(ms / 1000).toFixed(1)} s</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollBox>
  );
}
