/**
 * npm run sweep -- <trainer> --grid key=v1,v2[,...] [--grid key2=...] --seeds 1,2,3 --out DIR
 *                  [--steps N] [--preset NAME] [--set key=value ...] [--backend wasm|cpu]
 *                  [--reward FILE.js [--reward-weight W]] [--dataset FILE.jsonl] [--force]
 *
 * Runs every combination of the grid's values once per seed, one after another, as `npm run train` would run each
 * (same presets, same checks, same logged names), prints a table of each run's final metrics and a summary per
 * combination (mean and spread over seeds), and writes DIR/sweep.csv: one row per run with the swept fields, `seed`
 * and every final metric. Progress goes to stderr. Everything is checked before the first run: a mistake is one line
 * on stderr and exit code 2. A run that fails (NaN, a reward function error) is reported and the sweep goes on; the
 * exit code is then 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { errorMessage } from '@/lib/errors';
import { ConfigError, parseAssignment, type FieldValue } from '@/lib/train/config';
import { TRAINER_NAMES, TRAINERS } from '@/lib/spec/registry';
import { checkPlan, finalMetrics, parseAxis, parseSeeds, planSweep, summarize, sweepCsv, SweepError, type SweepResult } from '@/lib/train/sweep';
import { integerFlag, nodeBackendFlag, parseFlags, UsageError } from './cli';
import { EXTRAS_FLAGS, EXTRAS_USAGE, readExtras } from './extras';
import { trainerAndPreset } from './trainer-flag';

const USAGE = `usage: npm run sweep -- <${TRAINER_NAMES.join('|')}> --grid key=v1,v2[,...] [--grid key2=...] --seeds 1,2,3 --out DIR [--steps N] [--preset NAME] [--set key=value ...] [--backend wasm|cpu] ${EXTRAS_USAGE} [--force]`;

function fail(message: string, code = 2): never {
  console.error(`sweep: ${message.split('\n')[0]}`);
  process.exit(code);
}

async function parseCommandLine(argv: string[]) {
  const { values, positionals } = parseFlags(
    argv,
    {
      grid: { type: 'string', multiple: true, default: [] },
      seeds: { type: 'string' },
      steps: { type: 'string' },
      preset: { type: 'string' },
      set: { type: 'string', multiple: true, default: [] },
      backend: { type: 'string', default: 'wasm' },
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      ...EXTRAS_FLAGS,
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  if (values.help) return null;
  const { name, schema, preset } = trainerAndPreset(positionals, values.preset);
  const grid = values.grid ?? [];
  if (grid.length === 0) throw new UsageError('give at least one --grid key=v1,v2,…: the field to sweep and its values');
  if (values.seeds === undefined) throw new UsageError('give --seeds, e.g. --seeds 1,2,3: each combination runs once per seed');
  if (values.out === undefined) throw new UsageError('give --out DIR: the folder sweep.csv is written to');
  const backend = nodeBackendFlag(values.backend!);

  const base: Record<string, FieldValue> = {};
  for (const [key, value] of Object.entries(preset.overrides)) if (value !== undefined) base[key] = value as FieldValue;
  const setKeys = new Set<string>();
  for (const text of values.set ?? []) {
    const [key, value] = parseAssignment(schema, text);
    base[key] = value;
    setKeys.add(key);
  }
  const steps = integerFlag('steps', values.steps, 1);
  if (steps !== undefined) base.max_steps = steps;
  const axes = grid.map((text) => parseAxis(schema, text));
  for (const axis of axes) if (setKeys.has(axis.field)) throw new UsageError(`${axis.field} is both swept (--grid) and set (--set)`);
  const runs = planSweep(base, axes, parseSeeds(values.seeds));
  checkPlan(schema, axes, runs);

  const out = path.resolve(values.out);
  const csv = path.join(out, 'sweep.csv');
  if (fs.existsSync(out) && !fs.statSync(out).isDirectory()) throw new UsageError(`--out ${values.out} is a file; give a folder`);
  if (fs.existsSync(csv) && !values.force) throw new UsageError(`${path.join(values.out, 'sweep.csv')} exists: give another --out, or --force to replace it`);
  try {
    fs.mkdirSync(out, { recursive: true });
    fs.accessSync(out, fs.constants.W_OK);
  } catch (error) {
    throw new UsageError(`--out ${values.out}: cannot write there (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const extras = await readExtras(name, values, { ...base });
  return { name, axes, runs, backend, csv, extras };
}

/** A path as the reader would type it: relative inside the working folder, absolute outside it. */
const shown = (file: string) => (path.relative(process.cwd(), file).startsWith('..') ? file : path.relative(process.cwd(), file));
const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(4));

async function main() {
  let options;
  try {
    options = await parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof SweepError) fail(error.message);
    throw error;
  }
  if (options === null) {
    console.log(USAGE);
    return;
  }
  const { name, axes, runs, backend, csv, extras } = options;
  const [tf, { startTrainer }, { TrainingRun }] = await Promise.all([import('@tensorflow/tfjs'), import('@/lib/spec/start'), import('@/lib/train/run')]);
  // The trainer's headline metric: the first its spec offers a goal (PPO's return, self-improvement's target accuracy).
  const metric = TRAINERS[name].grading.metrics[0].name;
  const results: SweepResult[] = [];
  const label = (values: FieldValue[], seed: number) => [...axes.map((a, i) => `${a.field}=${String(values[i])}`), `seed=${seed}`].join(' ');
  for (const [i, run] of runs.entries()) {
    const started = Date.now();
    let result: SweepResult;
    try {
      const { trainer } = await startTrainer(name, {
        overrides: run.overrides,
        readCheckpoint: async (file) => new Uint8Array(fs.readFileSync(path.join('public', file))),
        backend: { requested: backend, order: [backend] },
        extras: extras.extras,
      });
      const training = new TrainingRun(trainer, { maxSteps: trainer.config.max_steps, evalEvery: trainer.config.eval_steps });
      const state = await training.run();
      trainer.dispose();
      result = { run, state, error: training.error, metrics: finalMetrics(training.history) };
    } catch (error) {
      result = { run, state: 'failed', error: errorMessage(error), metrics: {} };
    }
    results.push(result);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.error(`sweep: run ${i + 1}/${runs.length} ${label(run.values, run.seed)}: ${result.state === 'done' ? `${metric} ${pct(result.metrics[metric])}` : `${result.state}: ${result.error}`} (${seconds} s, ${tf.memory().numTensors} tensors)`);
  }
  extras.close();
  fs.writeFileSync(csv, sweepCsv(axes, results));

  // The table: each run's final metric and reward, then the mean and spread per combination.
  const headers = [...axes.map((a) => a.field), 'seed', metric, 'reward', 'status'];
  const rows = results.map((r) => [...r.run.values.map(String), String(r.run.seed), pct(r.metrics[metric]), pct(r.metrics.reward), r.state]);
  const summary = summarize(results, metric).map((g) => [...g.values.map(String), `${g.points.length} seeds`, `${pct(g.mean)} ± ${pct(g.std)}`, '', '']);
  const widths = headers.map((h, c) => Math.max(h.length, ...[...rows, ...summary].map((r) => r[c].length)));
  const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd();
  console.log([line(headers), ...rows.map(line), '', `mean ± std of ${metric} over seeds:`, ...summary.map(line), '', `wrote ${shown(csv)} (${results.length} runs)`].join('\n'));
  if (results.some((r) => r.state !== 'done')) process.exit(1);
}

main().catch((error: unknown) => fail(`unexpected error: ${errorMessage(error)}`, 1));
