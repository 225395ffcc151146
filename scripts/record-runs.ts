/**
 * npm run record:runs -- [--labs grpo,ppo] [--out-dir content]
 *
 * Records what the home page and the labs index show, from real seeded runs: each lab's first preset (the one its
 * page starts with), seed 0, on the wasm backend, started exactly as the CLI and the labs start a trainer
 * (lib/spec/start.ts), run to its max_steps under the same loop (TrainingRun) with the lab's own evaluations.
 *
 *  - content/home-run.json: the GRPO lab's run, every log line under the CLI's metric names (the home page's chart).
 *  - content/lab-times.json: for every lab, how long its default run takes: set-up (the checkpoint, the first
 *    evaluation, DPO's pair sampling), the training steps and the evaluations, both as wall-clock time and as the
 *    process's CPU time. tfjs's wasm backend runs on one thread here, so CPU time is what the run costs one core,
 *    whatever else the machine is doing; wall time is printed beside it.
 *
 * The machine (CPU model, cores, Node) is recorded with the numbers. Progress on stderr.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { labPresets, labs } from '@/content/labs';
import { ownEntry } from '@/lib/train/config';
import { trainerSettings } from '@/lib/spec/registry';
import { TrainingRun, type LogLine } from '@/lib/train/run';
import { startTrainer } from '@/lib/spec/start';
import { errorMessage } from '@/lib/errors';
import type { HomeRun, LabTime, LabTimes } from '@/content/recorded-runs';
import { namesFlag, parseFlags, UsageError } from './cli';

const USAGE = 'usage: npm run record:runs -- [--labs slug,slug] [--out-dir content]';
const HOME_LAB = 'grpo';
const SEED = 0;
const log = (message: string) => console.error(`record: ${message}`);

/** Wall and CPU seconds of `f`. */
async function timed<T>(f: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const [wall0, cpu0] = [performance.now(), process.cpuUsage()];
  const value = await f();
  const cpu = process.cpuUsage(cpu0);
  return { value, wall: (performance.now() - wall0) / 1000, cpu: (cpu.user + cpu.system) / 1e6 };
}

const round = (x: number, digits = 2) => Number(x.toFixed(digits));

async function recordLab(slug: string) {
  const lab = labs.find((l) => l.slug === slug)!;
  const { presets } = trainerSettings(lab.trainer);
  const preset = labPresets(lab, presets)[0];
  const overrides = { ...ownEntry(presets, preset)!.overrides, seed: SEED };
  const spent = { setup: { wall: 0, cpu: 0 }, train: { wall: 0, cpu: 0 }, evaluate: { wall: 0, cpu: 0 } };
  const add = (part: keyof typeof spent, t: { wall: number; cpu: number }) => {
    spent[part].wall += t.wall;
    spent[part].cpu += t.cpu;
  };
  const started = await timed(() =>
    startTrainer(lab.trainer, {
      overrides,
      readCheckpoint: async (file) => new Uint8Array(fs.readFileSync(path.join('public', file))),
      backend: { requested: 'wasm', order: ['wasm'] },
    }),
  );
  add('setup', started);
  const { trainer } = started.value;
  const stepMs: number[] = [];
  // The same trainer, timed: each step and each evaluation on its own.
  const measured = {
    trainStep: async () => {
      const t = await timed(() => trainer.trainStep());
      add('train', t);
      stepMs.push(t.cpu * 1000);
      return t.value;
    },
    evaluate: async () => {
      const t = await timed(() => trainer.evaluate());
      add('evaluate', t);
      return t.value;
    },
    dispose: () => trainer.dispose(),
  };
  const history: LogLine[] = [];
  const maxSteps = trainer.config.max_steps as number;
  const run = new TrainingRun(measured, {
    maxSteps,
    evalEvery: trainer.config.eval_steps as number,
    onLog: (line) => {
      history.push(line);
      if (line.kind === 'eval' || line.step % 20 === 0) log(`${slug}: step ${line.step} ${line.kind}`);
    },
  });
  const state = await run.run();
  const config = { ...trainer.config } as Record<string, number | string | boolean>;
  trainer.dispose();
  if (state !== 'done') throw new Error(`${slug}: the run ended as ${state}: ${run.error ?? ''}`);
  const sorted = [...stepMs].sort((a, b) => a - b);
  const time: LabTime = {
    trainer: lab.trainer,
    preset,
    seed: SEED,
    max_steps: maxSteps,
    ms_per_step: round(sorted[Math.floor(sorted.length / 2)], 1),
    cpu_seconds: { setup: round(spent.setup.cpu), train: round(spent.train.cpu), evaluate: round(spent.evaluate.cpu) },
    wall_seconds: { setup: round(spent.setup.wall), train: round(spent.train.wall), evaluate: round(spent.evaluate.wall) },
  };
  return { time, history, config, preset };
}

async function main(argv: string[]) {
  const { values } = parseFlags(argv, { labs: { type: 'string' }, 'out-dir': { type: 'string', default: 'content' }, help: { type: 'boolean', short: 'h' } }, USAGE);
  if (values.help) return console.log(USAGE);
  const chosen = namesFlag('--labs', values.labs, labs.map((l) => l.slug));
  const outDir = values['out-dir']!;
  const machine = { cpu: os.cpus()[0]?.model.trim() ?? 'unknown', cores: os.cpus().length, node: process.version, platform: `${process.platform} ${process.arch}`, tfjs: tf.version.tfjs };
  const recorded = new Date().toISOString();

  const timesFile = path.join(outDir, 'lab-times.json');
  const previous: LabTimes | null = fs.existsSync(timesFile) ? JSON.parse(fs.readFileSync(timesFile, 'utf8')) : null;
  // The browser's record (npm run record:browser-times) is kept as it was.
  const times: LabTimes = { recorded, command: 'npm run record:runs', backend: 'wasm', machine, labs: { ...previous?.labs }, ...(previous?.browser ? { browser: previous.browser } : {}) };
  for (const slug of chosen) {
    log(`${slug}: running its first preset, seed ${SEED}, on wasm`);
    const { time, history, config, preset } = await recordLab(slug);
    times.labs[slug] = time;
    log(`${slug}: ${time.max_steps} steps, ${time.ms_per_step} ms/step, CPU ${JSON.stringify(time.cpu_seconds)} s, wall ${JSON.stringify(time.wall_seconds)} s`);
    if (slug === HOME_LAB) {
      const home: HomeRun = { recorded, command: 'npm run record:runs', lab: slug, trainer: 'grpo', preset, seed: SEED, backend: 'wasm', machine, config, history };
      fs.writeFileSync(path.join(outDir, 'home-run.json'), `${JSON.stringify(home, null, 1)}\n`);
      log(`wrote ${path.join(outDir, 'home-run.json')} (${history.length} lines)`);
    }
  }
  fs.writeFileSync(timesFile, `${JSON.stringify(times, null, 1)}\n`);
  log(`wrote ${timesFile}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`record: ${errorMessage(error).split('\n')[0]}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
