/**
 * Evaluates a checkpoint as its trainer does, through the trainer's spec (lib/spec/registry.ts grading.load(): the
 * trainer's own evaluation functions, lib/train/grading/<trainer>.ts), on one of two sets: the run's public test set,
 * or held-out problems drawn with the instructor's evaluation seed (lib/train/grading/types.ts EvalSet). The grader's
 * worker and `npm run grade` both call this. It loads tfjs: pages reach it only through a worker.
 */
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import type { FieldValue } from '@/lib/train/config';
import type { EvalSet } from '@/lib/train/grading/types';
import type { Metrics } from '@/lib/train/run';

/**
 * Metrics of the weights `bytes` (a checkpoint file) for `trainer` under `config`, on `set`. Throws when the weights
 * do not load or do not fit the task (a WeightsFileError, or the trainer's own message).
 */
export async function evaluateCheckpoint(trainer: TrainerName, bytes: Uint8Array, config: Record<string, FieldValue>, set: EvalSet): Promise<Metrics> {
  const grading = await TRAINERS[trainer].grading.load();
  return grading.evaluate(bytes, config, set);
}
