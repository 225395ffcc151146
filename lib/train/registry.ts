/**
 * Every trainer by name, with its config schema and presets: what the CLI, the benchmark and the labs
 * look up. Plain data and factories; no trainer logic lives here.
 */
import { loadActorCritic, saveTinyLM, saveWeights, type Checkpointable } from '@/lib/models/checkpoint';
import type { TinyLM } from '@/lib/models/tiny-lm';
import type { ArithmeticTask } from '@/lib/tasks/arithmetic';
import { parseAssignment, type FieldValue, type Schema } from './config';
import { dpoPresets, dpoSchema } from './dpo-config';
import { createDpoTrainer } from './dpo-trainer';
import { grpoPresets, grpoSchema } from './grpo-config';
import { ppoPresets, ppoSchema } from './ppo-config';
import { createPpoTrainer } from './ppo-trainer';
import { createGrpoTrainer } from './grpo-trainer';
import type { StepTrainer } from './run';
import { sftPresets, sftSchema } from './sft-config';
import { createSftTrainer } from './sft-trainer';

export type Preset = { description: string; overrides: Record<string, FieldValue> };

/** What the CLI and the benchmark need from any trainer. */
export interface RunnableTrainer extends StepTrainer {
  readonly config: { max_steps: number; eval_steps: number; seed: number };
  readonly model: Checkpointable;
}

interface Common {
  schema: Schema;
  presets: Record<string, Preset>;
  parseAssignment(assignment: string): [string, FieldValue];
  /** The trained weights as a checkpoint file. */
  save(trainer: RunnableTrainer): Promise<Uint8Array>;
}
export interface LmTrainerEntry extends Common {
  kind: 'lm';
  create(model: TinyLM, task: ArithmeticTask, overrides: Record<string, unknown>): Promise<RunnableTrainer>;
}

/** A trainer that brings its own environment and model (PPO on a control task). */
export interface ControlTrainerEntry extends Common {
  kind: 'control';
  /** `init`: a checkpoint of the model to start from; otherwise a fresh one from the seed. */
  create(overrides: Record<string, unknown>, init?: Uint8Array): Promise<RunnableTrainer>;
}

const lm = (schema: Schema, presets: Record<string, Preset>, create: LmTrainerEntry['create']): LmTrainerEntry => ({
  kind: 'lm',
  schema,
  presets,
  create,
  parseAssignment: (a) => parseAssignment(schema, a),
  save: (trainer) => saveTinyLM(trainer.model as TinyLM),
});

const ppo: ControlTrainerEntry = {
  kind: 'control',
  schema: ppoSchema,
  presets: ppoPresets as Record<string, Preset>,
  parseAssignment: (a) => parseAssignment(ppoSchema, a),
  create: async (overrides, init) => createPpoTrainer(overrides, init ? { model: loadActorCritic(init) } : {}),
  save: (trainer) => saveWeights(trainer.model),
};

export const TRAINERS = {
  sft: lm(sftSchema, sftPresets, async (model, task, o) => createSftTrainer(model, task, o)),
  grpo: lm(grpoSchema, grpoPresets, async (model, task, o) => createGrpoTrainer(model, task, o)),
  dpo: lm(dpoSchema, dpoPresets, (model, task, o) => createDpoTrainer(model, task, o)),
  ppo,
} satisfies Record<string, LmTrainerEntry | ControlTrainerEntry>;

export type TrainerName = keyof typeof TRAINERS;
