/**
 * npm run train -- <sft|grpo|dpo|ppo> [--preset NAME] [--set key=value ...] [--seed N] [--steps N]
 *                  [--backend cpu|wasm] [--init FILE] [--save FILE]
 *
 * Runs a trainer of lib/train in Node and prints one JSON object per line: each step's metrics with `step`,
 * `kind` ('train' | 'eval') and `tensors` (tf.memory().numTensors). Evaluation lines carry `eval/accuracy`
 * (or `eval/return` for PPO), including one before the first step. Without --init, GRPO and DPO start from
 * the shipped SFT checkpoint, SFT from the shipped base model, and PPO from a fresh actor-critic.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as tf from '@tensorflow/tfjs';
import { loadTinyLM } from '@/lib/models/checkpoint';
import { selectBackend } from '@/lib/tf/backend';
import { ConfigError } from '@/lib/train/config';
import { CHECKPOINTS, createLabTask } from '@/lib/train/lab-setup';
import { TrainingRun } from '@/lib/train/run';
import { TRAINERS, type TrainerName } from '@/lib/train/registry';

function fail(message: string): never {
  console.error(`train: ${message}`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    preset: { type: 'string' },
    set: { type: 'string', multiple: true, default: [] },
    seed: { type: 'string' },
    steps: { type: 'string' },
    backend: { type: 'string', default: 'cpu' },
    init: { type: 'string' },
    save: { type: 'string' },
  },
});

const name = positionals[0] as TrainerName | undefined;
if (!name || !(name in TRAINERS)) fail(`name a trainer: ${Object.keys(TRAINERS).join(' | ')}`);
const entry = TRAINERS[name];
const presetName = values.preset ?? 'default';
const preset = entry.presets[presetName];
if (!preset) fail(`unknown preset "${presetName}" for ${name} (known: ${Object.keys(entry.presets).join(', ')})`);
if (values.backend !== 'cpu' && values.backend !== 'wasm') fail(`--backend must be cpu or wasm in Node, got "${values.backend}"`);

const overrides: Record<string, unknown> = { ...preset.overrides };
try {
  for (const assignment of values.set ?? []) {
    const [key, value] = entry.parseAssignment(assignment);
    overrides[key] = value;
  }
} catch (error) {
  fail((error as Error).message);
}
const integer = (flag: string, text: string | undefined) => {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) fail(`--${flag} must be a non-negative integer, got "${text}"`);
  return n;
};
const seed = integer('seed', values.seed);
if (seed !== undefined) overrides.seed = seed;
const steps = integer('steps', values.steps);
if (steps !== undefined) overrides.max_steps = steps;

const selection = await selectBackend({ requested: values.backend as 'cpu' | 'wasm', order: [values.backend as 'cpu' | 'wasm', 'cpu'] });
if (selection.backend !== values.backend) fail(`backend ${values.backend} failed: ${selection.fallbacks.map((f) => f.reason).join('; ')}`);

const readCheckpoint = (file: string) => {
  try {
    return new Uint8Array(fs.readFileSync(file));
  } catch (error) {
    fail(`cannot read ${file}: ${(error as Error).message}`);
  }
};

let trainer;
try {
  if (entry.kind === 'lm') {
    const initFile = values.init ?? path.join('public', name === 'sft' ? CHECKPOINTS.base : CHECKPOINTS.sft);
    trainer = await entry.create(loadTinyLM(readCheckpoint(initFile)), createLabTask(), overrides);
  } else {
    trainer = await entry.create(overrides, values.init ? readCheckpoint(values.init) : undefined);
  }
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  fail(`could not start: ${(error as Error).message}`);
}

const run = new TrainingRun(trainer, {
  maxSteps: trainer.config.max_steps,
  evalEvery: trainer.config.eval_steps,
  onLog: (line) => console.log(JSON.stringify({ step: line.step, kind: line.kind, ...line.metrics, tensors: tf.memory().numTensors })),
});
const state = await run.run();
if (values.save) {
  fs.mkdirSync(path.dirname(path.resolve(values.save)), { recursive: true });
  const bytes = await entry.save(trainer);
  fs.writeFileSync(values.save, bytes);
  console.error(`train: saved ${values.save} (${bytes.length} bytes)`);
}
trainer.dispose();
if (state !== 'done') fail(run.error ?? `run ended as ${state}`);
