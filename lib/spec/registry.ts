/**
 * Every trainer by name, and everything a lab built on it needs: its config schema and presets, the checkpoint it
 * starts from, how its throughput is counted and how to build it (training); what a goal can name, how a weights file
 * is checked and evaluated again (grading); its TRL project or the reason it has none (export); the settings search
 * finds it by; and the seeded claims its presets and chapters make. Grading, the assignment builder, export, search,
 * the claims runner, the CLI, the training worker, the benchmark and the labs all read this one list and never branch
 * on a trainer's name. It imports no tfjs: each part that needs it (a trainer, a grader, an exporter, the claims) is
 * loaded by import() when it is used, so a lab page can read schemas and presets from here on its main thread.
 *
 * lib/spec is the top of lib: it may import lib/train, lib/export and lib/claims; nothing there imports it back.
 */
import { agentPresets, agentSchema } from '@/lib/train/agent-config';
import { resolve, settingsAsRun, type ConfigOf, type FieldValue, type Presets, type PresetTable, type Schema } from '@/lib/train/config';
import { dpoPresets, dpoSchema } from '@/lib/train/dpo-config';
import { grpoPresets, grpoSchema } from '@/lib/train/grpo-config';
import { agentCheckpoint, type CheckpointName } from '@/lib/train/lab-setup';
import { ppoPresets, ppoSchema } from '@/lib/train/ppo-config';
import { selfImprovePresets, selfImproveSchema } from '@/lib/train/self-improve-config';
import { measuresOldTask, sftPresets, sftSchema } from '@/lib/train/sft-config';
import { COUNTING_KINDS, MIXED_KINDS, VISION_QUESTION_KINDS } from '@/lib/tasks/vision';
import { TEAM_MAX_MESSAGE_LENGTH, teamPresets, teamSchema } from '@/lib/train/team-config';
import { visionCheckpoint, visionPresets, visionSchema } from '@/lib/train/vision-config';
import type { DatasetKind } from '@/lib/tasks/dataset';
import type { Claim } from '@/lib/claims/types';
import { agentScope, dpoScope, grpoScope, selfImproveScope, sftScope, visionScope, type ScopeOf } from '@/lib/export/scope';
import type { ExportBuilder } from '@/lib/export/types';
import type { Grading } from '@/lib/train/grading/types';
import { TRAINER_NAMES as NAMES, type TrainerName } from '@/lib/train/trainer-names';
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
  /** How an assignment on this trainer's lab is graded (lib/teach): every lab can be assigned. */
  grading: GradingSpec<S>;
  /** Its TRL project, or one line saying why there is none (the CLI prints it and exits 2; the lab's dialog shows it). */
  export: ExportSpec | { refusal: string };
  /** The seeded claims its presets and chapters make (`npm run claims`), loaded on first use. */
  claims(): Promise<readonly Claim[]>;
}

/** A metric a goal can name, with the values it can take (a goal no value can meet, or every value meets, is refused). */
export interface GoalMetric {
  name: string;
  min: number;
  max: number;
}

export interface GradingSpec<S extends Schema = Schema> {
  /** The held-out metrics its evaluation reports that a goal can name, the first offered first. */
  metrics: readonly GoalMetric[];
  /** The field that sizes the run's own evaluation set, and what it counts (the grader's interval and wording). */
  evalSize: { field: keyof S & string; unit: 'problems' | 'episodes' | 'pictures' | 'games' };
  /** Why `metric` cannot grade a run under `settings` although the trainer reports it elsewhere, or null. */
  goalProblem?: (metric: string, settings: ConfigOf<S>) => string | null;
  /** The weights check and the evaluation, with tfjs (lib/train/grading/<trainer>.ts). */
  load(): Promise<Grading>;
}

export interface ExportSpec {
  /** The model the project trains, as Hugging Face names it. */
  model: string;
  /**
   * What the project of a run with these settings holds and what it leaves out, with reasons (lib/export/scope.ts):
   * the lab says it next to the button, before anything is built, and the project's README prints the same.
   */
  scope: ScopeOf;
  /** The project builder (lib/export), loaded when the reader asks for it. */
  load(): Promise<ExportBuilder>;
}

const share = (name: string): GoalMetric => ({ name, min: 0, max: 1 });
/** A count or a length: at least `min`, with no bound the grader can state for every config. */
const atLeast = (name: string, min = 0): GoalMetric => ({ name, min, max: Infinity });

/** The project every GSM8K export (sft, grpo, dpo, agent) is built by, the method taken from the lab. */
const textProject = () => import('@/lib/export/text-project').then((m) => m.buildTextProject);
const GSM8K_MODEL = 'Qwen/Qwen3-0.6B';

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
    grading: {
      metrics: [share('eval/accuracy'), share('eval/format'), share('eval/old_task_accuracy')],
      evalSize: { field: 'eval_samples', unit: 'problems' },
      goalProblem: (metric, settings) =>
        metric === 'eval/old_task_accuracy' && !measuresOldTask(settings) ? 'eval/old_task_accuracy is measured only with init_from addition_sft and a dataset other than addition' : null,
      load: () => import('@/lib/train/grading/text').then((m) => m.sftGrading),
    },
    export: { model: GSM8K_MODEL, scope: sftScope, load: textProject },
    claims: () => import('@/lib/claims/sft').then((m) => m.claims),
  }),
  grpo: spec({
    summary: 'GRPO with a verifiable reward on 2-digit addition',
    schema: grpoSchema,
    presets: grpoPresets,
    checkpoint: 'sft',
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: true, dataset: 'prompt-answer' },
    load: () => import('@/lib/train/grpo-trainer').then((m) => m.grpoFactory),
    grading: {
      metrics: [share('eval/accuracy'), share('eval/format')],
      evalSize: { field: 'eval_samples', unit: 'problems' },
      load: () => import('@/lib/train/grading/text').then((m) => m.grpoGrading),
    },
    export: { model: GSM8K_MODEL, scope: grpoScope, load: textProject },
    claims: () => import('@/lib/claims/grpo').then((m) => m.claims),
  }),
  dpo: spec({
    summary: 'DPO on (correct, incorrect) pairs sampled from the SFT model',
    schema: dpoSchema,
    presets: dpoPresets,
    checkpoint: 'sft',
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: false, dataset: 'preference' },
    load: () => import('@/lib/train/dpo-trainer').then((m) => m.dpoFactory),
    grading: {
      metrics: [share('eval/accuracy'), share('eval/format')],
      evalSize: { field: 'eval_samples', unit: 'problems' },
      load: () => import('@/lib/train/grading/text').then((m) => m.dpoGrading),
    },
    export: { model: GSM8K_MODEL, scope: dpoScope, load: textProject },
    claims: () => import('@/lib/claims/dpo').then((m) => m.claims),
  }),
  agent: spec({
    summary: 'GRPO on multi-turn episodes: a tiny agent learns to call a calculator, plan two calls, and call again after a failure',
    schema: agentSchema,
    presets: agentPresets,
    checkpoint: (config) => (config.init_from === 'base' ? null : agentCheckpoint(config.task, config.answer_attempts, config.tool_after_verdict)),
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: true, dataset: null },
    load: () => import('@/lib/train/agent-trainer').then((m) => m.agentFactory),
    grading: {
      metrics: [
        share('eval/accuracy'),
        share('eval/accuracy_hard'),
        share('eval/accuracy_easy'),
        share('eval/format'),
        share('eval/tool_call_rate'),
        atLeast('eval/mean_turns', 1),
        atLeast('eval/calls_per_episode'),
        share('eval/retry_rate'),
        share('eval/recovery_rate'),
      ],
      evalSize: { field: 'eval_samples', unit: 'problems' },
      load: () => import('@/lib/train/grading/agent').then((m) => m.agentGrading),
    },
    export: { model: GSM8K_MODEL, scope: agentScope, load: textProject },
    claims: () => import('@/lib/claims/agent').then((m) => m.claims),
  }),
  ppo: spec({
    summary: 'PPO with an MLP actor-critic on a grid world or CartPole',
    schema: ppoSchema,
    presets: ppoPresets,
    checkpoint: null,
    throughput: { metric: 'global_step', unit: 'env steps' },
    accepts: { reward: false, dataset: null },
    load: () => import('@/lib/train/ppo-trainer').then((m) => m.ppoFactory),
    grading: {
      // A return has no bound the grader can state for every environment.
      metrics: [{ name: 'eval/return', min: -Infinity, max: Infinity }, share('eval/success_rate'), atLeast('eval/length')],
      evalSize: { field: 'eval_episodes', unit: 'episodes' },
      load: () => import('@/lib/train/grading/ppo').then((m) => m.ppoGrading),
    },
    export: {
      refusal:
        'the PPO lab trains an MLP actor-critic on a grid world or CartPole, not a language model: no TRL run corresponds to it (TRL’s PPOTrainer is for LLMs with a reward model; chapter 4 explains the difference).',
    },
    claims: () => import('@/lib/claims/ppo').then((m) => m.claims),
  }),
  self_improve: spec({
    summary: 'self-improvement (expert iteration): sample, keep what a verifier or a majority vote accepts, fine-tune, then longer sums',
    schema: selfImproveSchema,
    presets: selfImprovePresets,
    // Round 0 (SFT on the demonstrations) shipped as a checkpoint; "base" builds its own model and trains round 0 itself.
    checkpoint: (config) => (config.init_from === 'base' ? null : 'self_improve_sft'),
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: false, dataset: null },
    load: () => import('@/lib/train/self-improve-trainer').then((m) => m.selfImproveFactory),
    grading: {
      metrics: [share('eval/accuracy_target')],
      evalSize: { field: 'eval_samples', unit: 'problems' },
      load: () => import('@/lib/train/grading/self-improve').then((m) => m.selfImproveGrading),
    },
    export: {
      model: GSM8K_MODEL,
      scope: selfImproveScope,
      load: () => import('@/lib/export/self-improve').then((m) => m.buildSelfImproveProject),
    },
    claims: () => import('@/lib/claims/self-improve').then((m) => m.claims),
  }),
  team: spec({
    summary: 'two policies, a sender and a receiver, learn to communicate through a short channel from one team reward (GRPO per role)',
    schema: teamSchema,
    presets: teamPresets,
    checkpoint: (config) => (config.init_from === 'base' ? null : 'team_receiver_sft'),
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: false, dataset: null },
    load: () => import('@/lib/train/team-trainer').then((m) => m.teamFactory),
    grading: {
      metrics: [
        share('eval/accuracy'),
        share('eval/accuracy_blank_channel'),
        share('eval/message_decodability'),
        { name: 'eval/message_length', min: 0, max: TEAM_MAX_MESSAGE_LENGTH },
        // At most log2 of the board's 4 positions.
        { name: 'eval/message_information_bits', min: 0, max: 2 },
        atLeast('eval/distinct_messages'),
      ],
      evalSize: { field: 'eval_samples', unit: 'games' },
      load: () => import('@/lib/train/grading/team').then((m) => m.teamGrading),
    },
    export: {
      refusal:
        'the team lab trains two policies on one shared reward, and TRL v1.13’s GRPOTrainer trains one policy per run: two runs would not share their rollouts or their reward, and one run with role prompts would make the two roles one policy, so no faithful TRL project can be generated.',
    },
    claims: () => import('@/lib/claims/team').then((m) => m.claims),
  }),
  vision: spec({
    summary: 'a tiny vision-language model: SFT on described pictures, then GRPO with a correctness reward (count shapes, name colours)',
    schema: visionSchema,
    presets: visionPresets,
    // The SFT checkpoint (vision_sft) by default; init_from 'base' builds its own model, whose first sft_steps steps are its SFT phase.
    checkpoint: visionCheckpoint,
    throughput: { metric: 'num_tokens', unit: 'tokens' },
    accepts: { reward: false, dataset: null },
    load: () => import('@/lib/train/vision-trainer').then((m) => m.visionFactory),
    grading: {
      metrics: [share('eval/accuracy'), ...VISION_QUESTION_KINDS.map((kind) => share(`eval/accuracy_${kind}`))],
      evalSize: { field: 'eval_samples', unit: 'pictures' },
      goalProblem: (metric, settings) => {
        const kind = VISION_QUESTION_KINDS.find((k) => metric === `eval/accuracy_${k}`);
        const asked = settings.questions === 'counting' ? COUNTING_KINDS : MIXED_KINDS;
        return kind && !asked.includes(kind) ? `${metric} is measured only when the questions include ${kind} (questions ${settings.questions} asks ${asked.join(', ')})` : null;
      },
      load: () => import('@/lib/train/grading/vision').then((m) => m.visionGrading),
    },
    export: {
      model: 'Qwen/Qwen2.5-VL-3B-Instruct',
      scope: visionScope,
      load: () => import('@/lib/export/vision-project').then((m) => m.buildVisionProject),
    },
    claims: () => import('@/lib/claims/vision').then((m) => m.claims),
  }),
} satisfies { [N in TrainerName]: unknown }; // every trainer name has a spec, and no spec another name

type Parts = { [N in TrainerName]: (typeof ENTRIES)[N] extends TrainerSpec<infer S, infer I> ? { schema: S; inspect: I } : never };
export type SchemaOf<N extends TrainerName> = Parts[N]['schema'];
/** What trainer N's inspect() returns: the data its lab's inspector shows. */
export type InspectOf<N extends TrainerName> = Parts[N]['inspect'];

/** Typed as a mapped type, so that TRAINERS[name] keeps its schema and inspector types for a generic name. */
export const TRAINERS: { [N in TrainerName]: TrainerSpec<SchemaOf<N>, InspectOf<N>> } = ENTRIES;
/** A config field of trainer N: lab controls are typed with it, so a misspelt field fails to compile. */
export type FieldOf<N extends TrainerName> = keyof SchemaOf<N> & string;

export const TRAINER_NAMES: TrainerName[] = [...NAMES];
export type { TrainerName };

/** The trainer called `name`, if there is one (own keys only: "__proto__" or "toString" name nothing). */
export function trainerNamed(name: string): TrainerName | null {
  return Object.hasOwn(TRAINERS, name) ? (name as TrainerName) : null;
}

/** Trainer `name`'s schema and presets as plain data (for settings forms, links and run files). */
export function trainerSettings(name: TrainerName): { schema: Schema; presets: PresetTable } {
  const { schema, presets } = TRAINERS[name];
  return { schema, presets };
}

/**
 * The complete settings a run of trainer `name` uses for settings read from a file (an assignment's settings, a
 * submission's config): the file's values, with each field the file predates at its schema's `absentMeans`
 * (settingsAsRun). Every place that starts, rebuilds or checks a run from a file reads its settings through this.
 */
export function runSettingsOf<T>(name: TrainerName, settings: Readonly<Record<string, T>>): Record<string, T | FieldValue> {
  return settingsAsRun(TRAINERS[name].schema, settings);
}

/** The shipped checkpoint trainer `name` starts from under these overrides (validated first: a ConfigError if bad). */
export function checkpointFor(name: TrainerName, overrides: Record<string, unknown>): CheckpointName | null {
  const { checkpoint, schema } = TRAINERS[name] as TrainerSpec<Schema, unknown>;
  return typeof checkpoint === 'function' ? checkpoint(resolve(schema, overrides)) : checkpoint;
}

/** Why `metric` cannot grade a run of trainer `name` under `settings` (complete and valid), or null. */
export function unmeasuredGoal(name: TrainerName, metric: string, settings: Record<string, unknown>): string | null {
  const { grading, schema } = TRAINERS[name] as TrainerSpec<Schema, unknown>;
  return grading.goalProblem?.(metric, resolve(schema, settings)) ?? null;
}
