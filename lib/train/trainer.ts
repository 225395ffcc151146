/**
 * What every trainer offers, whatever it trains: the step loop's contract (StepTrainer), its resolved config, its
 * model, a typed view for its lab's inspector, and its weights as a checkpoint file. Types only: no tfjs here.
 */
import type { Checkpointable } from '@/lib/models/checkpoint';
import type { AsyncRewardFunction } from '@/lib/tasks/custom-reward';
import type { Dataset } from '@/lib/tasks/dataset';
import type { ConfigOf, Schema } from './config';
import type { StepTrainer } from './run';

export interface Trainer<S extends Schema = Schema, I = unknown> extends StepTrainer {
  readonly config: ConfigOf<S>;
  readonly model: Checkpointable;
  /** What the lab's inspector shows about the last step (a GRPO batch, DPO pairs, PPO's policy map); null before one. */
  inspect(): Promise<I | null>;
  /** The trained weights in the checkpoint format (lib/models/weights-file.ts). */
  save(): Promise<Uint8Array>;
  /** Things a lab can ask of the trainer between steps (merge and compare, export an adapter…), by name. */
  readonly actions?: Readonly<Record<string, () => Promise<ActionResult>>>;
  /**
   * For a trainer whose step is long and has parts (a self-improvement round: sampling, filtering, fine-tuning,
   * evaluation): called with each part's name as it starts, so a lab can say where a running step is.
   */
  onPhase?: (listener: ((phase: string) => void) | null) => void;
}

/** What an action reports: one sentence for the reader, and a file to download if it made one. */
export interface ActionResult {
  summary: string;
  file?: { name: string; bytes: Uint8Array };
}

/**
 * What a reader brings besides settings: their own reward function (GRPO and the agent), added to the built-in
 * rewards with its weight as TRL's reward_weights, and their own data (SFT, GRPO, DPO), which replaces the lab's task.
 * A trainer given one it cannot use refuses it (the registry's `accepts` says which take what).
 */
export interface TrainerExtras {
  reward?: { fn: AsyncRewardFunction; weight: number };
  dataset?: Dataset;
}

/**
 * Builds a trainer from the bytes of the checkpoint it starts from (null for one that builds its own model) and
 * config overrides. It owns everything it allocates: if it fails it frees all of it before throwing, and the
 * trainer's dispose() frees the rest, the model included.
 */
export type TrainerFactory<S extends Schema = Schema, I = unknown> = (init: Uint8Array | null, overrides: Record<string, unknown>, extras?: TrainerExtras) => Promise<Trainer<S, I>>;

/**
 * Makes `create`'s trainer own `model`: disposing the trainer disposes the model too, and if `create` throws the model
 * is freed before the error propagates (a retry starts from a clean slate). For any trainer built on a loaded model.
 */
export async function ownModel<M extends { dispose(): void }, T extends { dispose(): void }>(model: M, create: (model: M) => T | Promise<T>): Promise<T> {
  let trainer: T;
  try {
    trainer = await create(model);
  } catch (error) {
    model.dispose();
    throw error;
  }
  const disposeTrainer = trainer.dispose;
  return Object.assign(trainer, {
    dispose() {
      disposeTrainer();
      model.dispose();
    },
  });
}
