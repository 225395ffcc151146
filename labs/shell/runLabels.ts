import type { Schema } from '@/lib/train/config';
import type { LogLine } from '@/lib/train/run';
import type { ChartRun } from './MetricChart';
import { describeDifferences, type Settings } from '@/ui/settings';

/** A run on the charts before it is named: saved, imported, or the current one. */
export interface UnlabelledRun {
  settings: Settings;
  history: LogLine[];
  preset?: string;
}

/**
 * Names the runs on the charts "run 1", "run 2"…, with, when there are several, what tells them apart: runs from a
 * comparison by their preset; others by the settings that differ between them.
 */
export function labelRuns(schema: Schema, runs: UnlabelledRun[]): ChartRun[] {
  const byPreset = runs.every((r) => r.preset) && new Set(runs.map((r) => r.preset)).size === runs.length;
  return runs.map((run, i) => ({
    history: run.history,
    settings: run.settings,
    label: `run ${i + 1}${runs.length > 1 ? ` (${byPreset ? run.preset : describeDifferences(schema, run.settings, runs.filter((o) => o !== run).map((o) => o.settings))})` : ''}`,
  }));
}
