/**
 * npm run record:self-improve
 *
 * Runs the self-improvement lab's four presets (default, majority, sft_only, full_schedule) with seed 0 on wasm, as the CLI and the
 * claims start them, and writes every log line to content/self-improve-runs.json: the runs whose numbers the chapter's
 * self-improvement section prints (tests/content/self-improve-numbers.test.ts recomputes them from this file and
 * checks it still matches the presets; `npm run claims -- --only self-improve-verifier-lifts-target` reruns them).
 * Progress on stderr. CPU seconds per run are recorded too: tfjs's wasm backend runs on one thread, so they are what a
 * run costs one core whatever else the machine is doing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { presetSettings } from '@/lib/train/config';
import { trainerSettings } from '@/lib/spec/registry';
import { TrainingRun, type LogLine } from '@/lib/train/run';
import { startTrainer } from '@/lib/spec/start';
import { SELF_IMPROVE_PRESETS, type SelfImproveRuns } from '@/content/self-improve-runs';

import { parseFlags, UsageError } from './cli';

const USAGE = 'usage: npm run record:self-improve -- [--presets default,majority,sft_only,full_schedule] [--out FILE] [--merge FILE,FILE,...]';
const { values } = parseFlags(process.argv.slice(2), { presets: { type: 'string' }, out: { type: 'string', default: 'content/self-improve-runs.json' }, merge: { type: 'string' } }, USAGE);
const OUT = values.out as string;
const log = (message: string) => console.error(`record: ${message}`);

const runs = {} as SelfImproveRuns['runs'];
// --merge: the runs of several partial recordings (one preset each, run side by side) into one file.
for (const file of values.merge ? String(values.merge).split(',') : []) Object.assign(runs, (JSON.parse(fs.readFileSync(file, 'utf8')) as SelfImproveRuns).runs);
const chosen = values.merge ? [] : values.presets ? String(values.presets).split(',') : [...SELF_IMPROVE_PRESETS];
const unknown = chosen.find((p) => !(SELF_IMPROVE_PRESETS as readonly string[]).includes(p));
if (unknown !== undefined) throw new UsageError(`unknown preset ${JSON.stringify(unknown.slice(0, 40))} (known: ${SELF_IMPROVE_PRESETS.join(', ')})`);
for (const preset of chosen as (typeof SELF_IMPROVE_PRESETS)[number][]) {
  const { schema, presets } = trainerSettings('self_improve');
  const config: Record<string, number | string | boolean> = { ...presetSettings(schema, presets[preset]), seed: 0 };
  const cpu0 = process.cpuUsage();
  const { trainer } = await startTrainer('self_improve', {
    overrides: config,
    readCheckpoint: async (file) => new Uint8Array(fs.readFileSync(path.join('public', file))),
    backend: { requested: 'wasm', order: ['wasm'] },
  });
  const history: LogLine[] = [];
  const run = new TrainingRun(trainer, {
    maxSteps: Number(config.max_steps),
    evalEvery: Number(config.eval_steps),
    onLog: (line) => {
      history.push(line);
      if (line.kind === 'train') log(`${preset}: round ${line.metrics.round}, 3-digit accuracy ${line.metrics['eval/accuracy_target']}`);
    },
  });
  const state = await run.run();
  trainer.dispose();
  if (state !== 'done') throw new Error(`${preset}: the run ended as ${state}: ${run.error ?? ''}`);
  const cpu = process.cpuUsage(cpu0);
  runs[preset] = { config, cpu_seconds: Math.round((cpu.user + cpu.system) / 1e4) / 100, history };
}
const out: SelfImproveRuns = { recorded: new Date().toISOString(), command: 'npm run record:self-improve', backend: 'wasm', runs };
fs.writeFileSync(OUT, `${JSON.stringify(out, null, 1)}\n`);
log(`wrote ${OUT}`);
