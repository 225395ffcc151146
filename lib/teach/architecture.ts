/**
 * Whether a checkpoint's weights fit the model a trainer builds under a config, asked of the trainer's spec
 * (grading.load().weightsProblem, lib/train/grading/<trainer>.ts): checked on the decoded file's header and tensor
 * table, before any weight is allocated.
 */
import type { WeightsFile } from '@/lib/models/weights-file';
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import type { FieldValue } from '@/lib/train/config';

/** Why `file` cannot be the trained model of `trainer` under `config`, or null when it can. */
export async function architectureProblem(trainer: TrainerName, config: Record<string, FieldValue>, file: WeightsFile): Promise<string | null> {
  const grading = await TRAINERS[trainer].grading.load();
  try {
    return grading.weightsProblem(config, file);
  } catch (error) {
    return (error as Error).message;
  }
}
