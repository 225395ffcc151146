/**
 * The one model and task the LM labs, the CLI and the shipped checkpoints share. Changing either means
 * rebuilding the checkpoints (`npm run build:checkpoints`): loading a checkpoint checks the shapes.
 */
import type { TinyLMConfig } from '@/lib/models/config';
import { configForTask } from '@/lib/models/presets';
import { createArithmeticTask, type ArithmeticTask } from '@/lib/tasks/arithmetic';

/**
 * 2-digit addition with a scratchpad, "07+45=" → "12,5 #### 52": the column sums give a 2-layer model a
 * way to carry, so SFT reaches a useful (and still imperfect) accuracy within a few hundred steps.
 */
export function createLabTask(): ArithmeticTask {
  return createArithmeticTask({ digits: 2, operators: ['+'], scratchpad: true });
}

/** 27.6k parameters (lib/models/presets.ts has the measurements behind the size). */
export function labModelConfig(task: ArithmeticTask): TinyLMConfig {
  return configForTask(task);
}

/** Shipped checkpoints, relative to the site root (served from public/, read from there by the CLI). */
export const CHECKPOINTS = {
  /** Freshly initialised weights (seed 0): where SFT starts. */
  base: 'models/base.arlw',
  /** The base model after a deliberately short SFT run: right on some problems, wrong on many, so RL has room. */
  sft: 'models/sft.arlw',
} as const;

export type CheckpointName = keyof typeof CHECKPOINTS;
