/**
 * What the grading tests of the newer labs share: two short seeded runs of a lab on wasm, saved as a student's
 * submission would carry them, and a way to edit a saved weights file as a forger would.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, expect } from 'vitest';
import { decodeWeightsFile, encodeWeightsFile } from '@/lib/models/weights-file';
import type { TrainerName } from '@/lib/spec/registry';
import { startTrainer } from '@/lib/spec/start';
import { selectBackend } from '@/lib/tf/backend';
import { TrainingRun, type Metrics } from '@/lib/train/run';

export interface SavedRun {
  config: Record<string, number | string | boolean>;
  weights: Uint8Array;
  lastEval: Metrics;
}

const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(`public/${file}`));

/** One run of `trainer` under `config` with `seed` to its end, its weights and its last evaluation. */
async function trainAndSave(trainer: TrainerName, config: Record<string, number | string | boolean>, seed: number): Promise<SavedRun> {
  const settings: Record<string, number | string | boolean> = { ...config, seed };
  const started = await startTrainer(trainer, { overrides: settings, readCheckpoint });
  const run = new TrainingRun(started.trainer, { maxSteps: Number(settings.max_steps), evalEvery: Number(settings.eval_steps) });
  expect(await run.run()).toBe('done');
  const weights = await started.trainer.save();
  started.trainer.dispose();
  const last = run.history.at(-1)!;
  expect(last).toMatchObject({ kind: 'eval', step: settings.max_steps });
  return { config: settings, weights, lastEval: last.metrics };
}

/** Registers the suite's hooks: two runs (seeds 0 and 1) before its tests, on wasm; the backend back to cpu after. */
export function twoSavedRuns(trainer: TrainerName, config: Record<string, number | string | boolean>): () => [SavedRun, SavedRun] {
  let runs: [SavedRun, SavedRun] | null = null;
  beforeAll(async () => {
    await selectBackend({ requested: 'wasm', order: ['wasm'] });
    runs = [await trainAndSave(trainer, config, 0), await trainAndSave(trainer, config, 1)];
  }, 60_000);
  afterAll(async () => {
    await tf.setBackend('cpu');
  });
  return () => runs!;
}

/** A saved weights file with `edit` applied to its decoded header and tensors, encoded again. */
export function reencode(bytes: Uint8Array, edit: (file: ReturnType<typeof decodeWeightsFile>) => void): Uint8Array {
  const file = decodeWeightsFile(bytes);
  edit(file);
  return encodeWeightsFile(file);
}
