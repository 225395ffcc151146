/**
 * Reading a run's history (the LogLines a TrainingRun logged) the way claims read it, and writing its figures as a
 * verdict prints them. Shared by every trainer's claims.
 */
import type { LogLine } from '@/lib/train/run';

export const evals = (h: LogLine[]) => h.filter((l) => l.kind === 'eval');
export const trains = (h: LogLine[]) => h.filter((l) => l.kind === 'train');
/** The evaluation logged at `step`; a claim that reads a step its run did not evaluate fails with this error. */
export const evalAt = (h: LogLine[], step: number) => {
  const line = evals(h).find((l) => l.step === step);
  if (!line) throw new Error(`no evaluation at step ${step}`);
  return line.metrics;
};
export const last = (h: LogLine[]) => evals(h).at(-1)!.metrics;
/** Mean of a training metric over the steps that logged it (optionally only the last n). */
export const mean = (h: LogLine[], metric: string, lastN?: number) => {
  const values = trains(h).flatMap((l) => (metric in l.metrics ? [l.metrics[metric]] : []));
  const xs = lastN ? values.slice(-lastN) : values;
  return xs.reduce((a, b) => a + b, 0) / xs.length;
};
export const series = (h: LogLine[], metric: string) => trains(h).map((l) => l.metrics[metric]);
export const firstSteps = (h: LogLine[], n: number) => trains(h).slice(0, n);
export const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
/** A figure to fixed digits, for verdicts. */
export const f = (x: number, digits = 3) => x.toFixed(digits);

/** Seeds a chapter's figures are averaged over (or a claim must hold on each of). */
export const SEEDS = [0, 1, 2] as const;
