/**
 * Every trainer by name: its config schema and presets, the checkpoint it starts from, how its throughput is
 * counted, and how to build it. The CLI's choices, the training worker, the benchmark and the labs all read this
 * one list. It imports no tfjs: each trainer's code (and tfjs with it) loads only when a trainer is started, so a lab
 * page can read schemas and presets from here on its main thread.
 */
import { agentPresets, agentSchema } from '@/lib/train/agent-config';
import { resolve, type ConfigOf, type Presets, type PresetTable, type Schema } from '@/lib/train/config';
import { dpoPresets, dpoSchema } from '@/lib/train/dpo-config';
import { grpoPresets, grpoSchema } from '@/lib/train/grpo-config';
import { agentCheckpoint, type CheckpointName } from '@/lib/train/lab-setup';
import { ppoPresets, ppoSchema } from '@/lib/train/ppo-config';
import { selfImprovePresets, selfImproveSchema } from '@/lib/train/self-improve-config';
import { sftPresets, sftSchema } from '@/lib/train/sft-config';
import { teamPresets, teamSchema } from '@/lib/train/team-config';
import { visionPresets, visionSchema } from '@/lib/train/vision-config';
import type { DatasetKind } from '@/lib/tasks/dataset';
import type { TrainerFactory } from '@/lib/train/trainer';

export interface TrainerSpec<S extends Schema, I> {
  /** One line, for `npm run train -- --help` and the benchmark. */
  summary: string;
  schema: S;
  presets: Presets<S>;
  /**
   * The shipped checkpoint it fine-tunes (lib/train/lab-setup.ts CHECKPOINTS), or null: it builds its own model. A
   * function picks one from the config (validated first, so a bad override fails before anything is read).
   */
  checkpoint: CheckpointName | null | ((config: ConfigOf<S>) => CheckpointName | null);
  /** A cumulative metric every step logs, and its unit: the benchmark's throughput is its change per second. */
  throughput: { metric: string; unit: string };
  /** What a reader may bring (lib/train/trainer.ts TrainerExtras): a reward function, and a dataset of which kind. */
  accepts: { reward: boolean; dataset: DatasetKind | null };
  /** The trainer's code, loaded on first use. */
  load(): Promise<TrainerFactory<S, I>>;
}

/** Keeps each entry's schema and inspector types exact (a plain object literal would widen them). */
const spec = <S extends Schema, I>(entry: TrainerSpec<S, I>) => entry;

const ENTRIES = {
  sft: spec({
    summary: 'supervised fine-tuning on reference answers (completion-only loss), optionally with LoRA',
    schema: sftSchema,
    presets: sftPresets,
    checkpoint: (config) => (config.init_from === 'addition_sft' ? 'addition_sft' : 'base'),
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: false, dataset: 'prompt-answer' },
    load: () => import('@/lib/train/sft-trainer').then((m) => m.sftFactory),
  }),
  grpo: spec({
    summary: 'GRPO with a verifiable reward on 2-digit addition',
    schema: grpoSchema,
    presets: grpoPresets,
    checkpoint: 'sft',
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: true, dataset: 'prompt-answer' },
    load: () => import('@/lib/train/grpo-trainer').then((m) => m.grpoFactory),
  }),
  dpo: spec({
    summary: 'DPO on (correct, incorrect) pairs sampled from the SFT model',
    schema: dpoSchema,
    presets: dpoPresets,
    checkpoint: 'sft',
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: false, dataset: 'preference' },
    load: () => import('@/lib/train/dpo-trainer').then((m) => m.dpoFactory),
  }),
  agent: spec({
    summary: 'GRPO on multi-turn episodes: a tiny agent learns to call a calculator, plan two calls, and call again after a failure',
    schema: agentSchema,
    presets: agentPresets,
    checkpoint: (config) => (config.init_from === 'base' ? null : agentCheckpoint(config.task, config.answer_attempts)),
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: true, dataset: null },
    load: () => import('@/lib/train/agent-trainer').then((m) => m.agentFactory),
  }),
  ppo: spec({
    summary: 'PPO with an MLP actor-critic on a grid world or CartPole',
    schema: ppoSchema,
    presets: ppoPresets,
    checkpoint: null,
    throughput: { metric: 'global_step', unit: 'env steps' },
    accepts: { reward: false, dataset: null },
    load: () => import('@/lib/train/ppo-trainer').then((m) => m.ppoFactory),
  }),
  self_improve: spec({
    summary: 'self-improvement (expert iteration): sample, keep what a verifier or a majority vote accepts, fine-tune, then longer sums',
    schema: selfImproveSchema,
    presets: selfImprovePresets,
    // It builds its own model: round 0 is SFT on the demonstrations, sized for the longest sum from the start.
    checkpoint: null,
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: false, dataset: null },
    load: () => import('@/lib/train/self-improve-trainer').then((m) => m.selfImproveFactory),
  }),
  team: spec({
    summary: 'two policies, a sender and a receiver, learn to communicate through a short channel from one team reward (GRPO per role)',
    schema: teamSchema,
    presets: teamPresets,
    checkpoint: (config) => (config.init_from === 'base' ? null : 'team_receiver_sft'),
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: false, dataset: null },
    load: () => import('@/lib/train/team-trainer').then((m) => m.teamFactory),
  }),
  vision: spec({
    summary: 'a tiny vision-language model: SFT on described pictures, then GRPO with a correctness reward (count shapes, name colours)',
    schema: visionSchema,
    presets: visionPresets,
    // It builds its own model: the first sft_steps steps are its SFT phase.
    checkpoint: null,
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: false, dataset: null },
    load: () => import('@/lib/train/vision-trainer').then((m) => m.visionFactory),
  }),
};

export type TrainerName = keyof typeof ENTRIES;
type Parts = { [N in TrainerName]: (typeof ENTRIES)[N] extends TrainerSpec<infer S, infer I> ? { schema: S; inspect: I } : never };
export type SchemaOf<N extends TrainerName> = Parts[N]['schema'];
/** What trainer N's inspect() returns: the data its lab's inspector shows. */
export type InspectOf<N extends TrainerName> = Parts[N]['inspect'];

/** Typed as a mapped type, so that TRAINERS[name] keeps its schema and inspector types for a generic name. */
export const TRAINERS: { [N in TrainerName]: TrainerSpec<SchemaOf<N>, InspectOf<N>> } = ENTRIES;
/** A config field of trainer N: lab controls are typed with it, so a misspelt field fails to compile. */
export type FieldOf<N extends TrainerName> = keyof SchemaOf<N> & string;

export const TRAINER_NAMES = Object.keys(TRAINERS) as TrainerName[];

/** The trainer called `name`, if there is one (own keys only: "__proto__" or "toString" name nothing). */
export function trainerNamed(name: string): TrainerName | null {
  return Object.hasOwn(TRAINERS, name) ? (name as TrainerName) : null;
}

/** Trainer `name`'s schema and presets as plain data (for settings forms, links and run files). */
export function trainerSettings(name: TrainerName): { schema: Schema; presets: PresetTable } {
  const { schema, presets } = TRAINERS[name];
  return { schema, presets };
}

/** The shipped checkpoint trainer `name` starts from under these overrides (validated first: a ConfigError if bad). */
export function checkpointFor(name: TrainerName, overrides: Record<string, unknown>): CheckpointName | null {
  const { checkpoint, schema } = TRAINERS[name] as TrainerSpec<Schema, unknown>;
  return typeof checkpoint === 'function' ? checkpoint(resolve(schema, overrides)) : checkpoint;
}
