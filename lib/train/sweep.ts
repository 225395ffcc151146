/**
 * Hyperparameter sweeps: one or two config fields, each with a list of values, crossed with a list of seeds. A sweep
 * is a plan of ordinary runs (each a set of overrides), run one after another by the CLI (`npm run sweep`) or by a
 * lab's training worker; each run's result is its final metrics under the names the CLI logs. tfjs-free: the lab's
 * page plans and summarises sweeps on its main thread.
 */
import { ConfigError, parseAssignment, resolve, type FieldValue, type Schema } from './config';
import type { LogLine } from './run';

export interface SweepAxis {
  field: string;
  values: FieldValue[];
}

export interface PlannedRun {
  /** The swept fields' values, in axis order. */
  values: FieldValue[];
  seed: number;
  /** Everything the run sets: the base settings, the swept values, the seed. */
  overrides: Record<string, FieldValue>;
}

export interface SweepResult {
  run: PlannedRun;
  /** How the run ended ('done', or 'failed' with the history so far). */
  state: string;
  error?: string;
  metrics: Record<string, number>;
}

/** At most two swept fields (a table and a chart can show two), this many values each, runs in all, seeds. */
export const SWEEP_MAX_AXES = 2;
export const SWEEP_MAX_VALUES = 12;
export const SWEEP_MAX_RUNS = 120;
export const SWEEP_MAX_SEEDS = 20;

export class SweepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SweepError';
  }
}

/** "learning_rate=1e-4,3e-4,1e-3" → the field and its values, each checked against the schema. */
export function parseAxis(schema: Schema, text: string): SweepAxis {
  const eq = text.indexOf('=');
  if (eq <= 0 || eq === text.length - 1) throw new SweepError(`a sweep axis is key=v1,v2,…, got ${JSON.stringify(text)}`);
  const field = text.slice(0, eq).trim();
  if (field === 'seed') throw new SweepError('seed is not swept as a field: list the seeds with --seeds');
  const parts = text.slice(eq + 1).split(',').map((v) => v.trim());
  if (parts.some((p) => p === '')) throw new SweepError(`${field}: an empty value in ${JSON.stringify(text.slice(eq + 1))}`);
  if (parts.length > SWEEP_MAX_VALUES) throw new SweepError(`${field}: ${parts.length} values; a sweep takes at most ${SWEEP_MAX_VALUES} per field`);
  const values = parts.map((p) => {
    try {
      return parseAssignment(schema, `${field}=${p}`)[1];
    } catch (error) {
      if (error instanceof ConfigError) throw new SweepError(error.problems.join('; '));
      throw error;
    }
  });
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(String(v))) throw new SweepError(`${field}: the value ${String(v)} is listed twice`);
    seen.add(String(v));
  }
  return { field, values };
}

/** "1,2,3" → [1, 2, 3]: distinct non-negative integers. */
export function parseSeeds(text: string): number[] {
  const parts = text.split(',').map((s) => s.trim());
  const seeds = parts.map((s) => (/^\d+$/.test(s) ? Number(s) : NaN));
  const bad = parts.find((s, i) => !Number.isSafeInteger(seeds[i]) || seeds[i] > 2 ** 31 - 1);
  if (bad !== undefined) throw new SweepError(`seeds are integers from 0 to 2147483647 separated by commas, got ${JSON.stringify(bad)}`);
  if (new Set(seeds).size !== seeds.length) throw new SweepError('a seed is listed twice');
  if (seeds.length > SWEEP_MAX_SEEDS) throw new SweepError(`${seeds.length} seeds; a sweep takes at most ${SWEEP_MAX_SEEDS}`);
  return seeds;
}

/** Every combination of the axes' values, each run once per seed: the first axis varies slowest, seeds fastest. */
export function planSweep(base: Record<string, FieldValue>, axes: SweepAxis[], seeds: number[]): PlannedRun[] {
  if (axes.length === 0 || axes.length > SWEEP_MAX_AXES) throw new SweepError(`a sweep varies one or two fields, got ${axes.length}`);
  if (new Set(axes.map((a) => a.field)).size !== axes.length) throw new SweepError(`${axes[0].field} is swept twice`);
  if (seeds.length === 0) throw new SweepError('a sweep needs at least one seed');
  const combos = axes.reduce<FieldValue[][]>((acc, axis) => acc.flatMap((prefix) => axis.values.map((v) => [...prefix, v])), [[]]);
  const total = combos.length * seeds.length;
  if (total > SWEEP_MAX_RUNS) throw new SweepError(`${total} runs (${combos.length} combinations × ${seeds.length} seeds); a sweep runs at most ${SWEEP_MAX_RUNS}`);
  return combos.flatMap((values) =>
    seeds.map((seed) => ({ values, seed, overrides: { ...base, ...Object.fromEntries(axes.map((a, i) => [a.field, values[i]])), seed } })),
  );
}

/** Every run's settings resolved before any runs: a value out of range is refused with the run that holds it. */
export function checkPlan(schema: Schema, axes: SweepAxis[], runs: readonly PlannedRun[]): void {
  for (const run of runs) {
    try {
      resolve(schema, run.overrides);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const at = axes.map((a, i) => `${a.field}=${String(run.values[i])}`).join(' ');
      throw new SweepError(`${at} seed=${run.seed}: ${error.problems.join('; ')}`);
    }
  }
}

/** A run's final metrics as the CLI logged them: its last training line's, then its last evaluation's on top. */
export function finalMetrics(history: readonly LogLine[]): Record<string, number> {
  const lastTrain = history.filter((l) => l.kind === 'train').at(-1)?.metrics ?? {};
  const lastEval = history.filter((l) => l.kind === 'eval').at(-1)?.metrics ?? {};
  return { ...lastTrain, ...lastEval };
}

const csvCell = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * One row per run: the swept fields, `seed`, then every final metric any run logged (sorted, evaluation metrics
 * first), blank where a run did not log one.
 */
export function sweepCsv(axes: SweepAxis[], results: readonly SweepResult[]): string {
  const names = [...new Set(results.flatMap((r) => Object.keys(r.metrics)))].sort((a, b) => Number(b.startsWith('eval/')) - Number(a.startsWith('eval/')) || a.localeCompare(b));
  const header = [...axes.map((a) => a.field), 'seed', ...names];
  const rows = results.map((r) => [...r.run.values.map(String), String(r.run.seed), ...names.map((n) => (n in r.metrics ? String(r.metrics[n]) : ''))]);
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

export interface SweepGroup {
  values: FieldValue[];
  /** The metric per seed, in seed order (NaN where a run did not log it). */
  points: { seed: number; value: number }[];
  mean: number;
  /** Sample standard deviation over seeds (n − 1); 0 for a single seed. */
  std: number;
}

/** The metric per combination of values: each seed's final value, their mean and spread (runs without it left out). */
export function summarize(results: readonly SweepResult[], metric: string): SweepGroup[] {
  const groups = new Map<string, SweepGroup>();
  for (const r of results) {
    const key = JSON.stringify(r.run.values);
    const group = groups.get(key) ?? { values: r.run.values, points: [], mean: NaN, std: 0 };
    group.points.push({ seed: r.run.seed, value: metric in r.metrics ? r.metrics[metric] : NaN });
    groups.set(key, group);
  }
  for (const g of groups.values()) {
    const xs = g.points.map((p) => p.value).filter(Number.isFinite);
    g.mean = xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
    g.std = xs.length > 1 ? Math.sqrt(xs.reduce((s, x) => s + (x - g.mean) ** 2, 0) / (xs.length - 1)) : 0;
  }
  return [...groups.values()];
}
