import type { Schema } from '@/lib/train/config';
import type { LogLine } from '@/lib/train/run';
import type { ChartRun } from './MetricChart';
import { positionWords } from './progress';
import { describeDifferences, type Settings } from '@/ui/settings';

/** A run on the charts before it is named: saved, imported, or the current one. */
export interface UnlabelledRun {
  settings: Settings;
  history: LogLine[];
  preset?: string;
  /** Where the current run stands: training or paused. Saved and imported runs have ended. */
  live?: 'running' | 'paused';
}

/**
 * ", paused at step 12 of 60" for a run that ended (or waits) before its last step, so a short line on the charts is
 * not read as a finished run; nothing for a finished run or one still training.
 */
function unfinishedNote(run: UnlabelledRun, stepWord: string, countDone: boolean): string {
  if (run.live === 'running') return '';
  const done = run.history.filter((l) => l.kind === 'train').length;
  const total = Number(run.settings.max_steps);
  if (!Number.isInteger(total) || done >= total) return '';
  return countDone
    ? `, ${run.live === 'paused' ? 'paused' : 'stopped'} with ${positionWords(stepWord, done, total, true)}`
    : `, ${run.live === 'paused' ? 'paused' : 'stopped'} at ${positionWords(stepWord, done, total)}`;
}

/**
 * Names the runs on the charts "run 1", "run 2"…, with, when there are several, what tells them apart: runs from a
 * comparison by their preset; others by the settings that differ between them. A run that has not reached its last
 * step says where it stopped or paused, counted in `stepWord`s.
 */
export function labelRuns(schema: Schema, runs: UnlabelledRun[], stepWord = 'step', countDone = false): ChartRun[] {
  const byPreset = runs.every((r) => r.preset) && new Set(runs.map((r) => r.preset)).size === runs.length;
  return runs.map((run, i) => ({
    history: run.history,
    settings: run.settings,
    label: `run ${i + 1}${runs.length > 1 ? ` (${byPreset ? run.preset : describeDifferences(schema, run.settings, runs.filter((o) => o !== run).map((o) => o.settings))})` : ''}${unfinishedNote(run, stepWord, countDone)}`,
  }));
}
