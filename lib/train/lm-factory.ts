/**
 * The one way an LM trainer is built from a checkpoint file: load the model, create the trainer, and make the
 * trainer own the model. If creating the trainer fails (a bad config, too few preference pairs…), the model is
 * freed before the error propagates, so a retry starts from a clean slate.
 */
import { loadTinyLM, saveTinyLM } from '@/lib/models/checkpoint';
import type { TinyLM } from '@/lib/models/tiny-lm';
import type { Schema } from './config';
import { ownModel, type Trainer, type TrainerExtras, type TrainerFactory } from './trainer';

/** An LM trainer as its create function returns it: it trains `model` (possibly an adapter copy of the base). */
export type LmTrainer<S extends Schema, I> = Omit<Trainer<S, I>, 'save' | 'model'> & { readonly model: TinyLM };

export function lmTrainerFactory<S extends Schema, I>(
  create: (model: TinyLM, overrides: Record<string, unknown>, extras: TrainerExtras) => LmTrainer<S, I> | Promise<LmTrainer<S, I>>,
  /** Builds the model to train (from the registry's checkpoint, or from nothing where it names none); by default the checkpoint itself. */
  initialModel: (init: Uint8Array | null, overrides: Record<string, unknown>) => TinyLM = loadCheckpoint,
): TrainerFactory<S, I> {
  return async (init, overrides, extras = {}) => {
    const trainer = await ownModel(initialModel(init, overrides), (base) => create(base, overrides, extras));
    return Object.assign(trainer, { save: () => saveTinyLM(trainer.model) });
  };
}

function loadCheckpoint(init: Uint8Array | null): TinyLM {
  if (init === null) throw new Error('this trainer fine-tunes a model: it needs a checkpoint to start from');
  return loadTinyLM(init);
}
