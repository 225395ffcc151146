/**
 * The on-policy kit: what the trainers that learn from their own samples share (GRPO, the agent, vision, team,
 * self-improvement), so that each trainer file keeps only what makes it different (multi-turn episodes, two roles,
 * pictures, filtered rounds).
 *
 *   settings   a trainer's config resolved with the GRPO rules, and the update's settings read from it
 *              (resolveOnPolicyConfig, updateConfigOf)
 *   sampling   problems repeated G times in a row, one completion sampled per row (repeatEach, sampleGroups)
 *   rewards    each reward function's score per completion, logged as TRL logs them: rewards/<name>/mean,
 *              completions/mean_length, completions/clipped_ratio (scoreRewards, rewardMeans, completionMetrics)
 *   SFT        one supervised step of any TrainablePolicy on demonstrations (sftStep): the SFT trainer's, the vision
 *              lab's first phase, self-improvement's rounds (through the SFT trainer)
 */
import * as tf from '@tensorflow/tfjs';
import { generate, type GenerateConfig, type Generation } from '@/lib/models/generate';
import type { CausalLM, TrainablePolicy } from '@/lib/models/tiny-lm';
import type { Rng } from '@/lib/random';
import { sftLoss } from '@/lib/rl/sft';
import type { AsyncRewardFunction } from '@/lib/tasks/custom-reward';
import type { ToolEnvironment } from '@/lib/tasks/environment';
import type { RewardContext, RewardFunction } from '@/lib/tasks/rewards';
import { resolve, type ConfigOf, type Schema } from './config';
import type { grpoSchema } from './grpo-config';
import { checkGenerationBatch, type GrpoUpdateConfig } from './grpo-update';
import { completionBatch, completionLogits } from './lm-batch';
import { optimizerStep, type StepTimer } from './optim';
import type { Keep } from './scope';

// ─── Settings ────────────────────────────────────────────────────────────────────────────────────────────────────

/** The fields every on-policy schema has (GRPOConfig's names), which resolveOnPolicyConfig checks. */
type OnPolicySchema = Schema & Pick<typeof grpoSchema, 'epsilon' | 'per_device_train_batch_size' | 'num_generations'>;

/**
 * A trainer's config from overrides, with TRL's rules: with epsilon set and epsilon_high not, epsilon_high = epsilon
 * (where the schema has epsilon_high); and the generation batch (per_device_train_batch_size × steps_per_generation,
 * the latter 1 where the schema has none) holds whole groups.
 */
export function resolveOnPolicyConfig<S extends OnPolicySchema>(schema: S, overrides: Record<string, unknown>): ConfigOf<S> {
  const followsEpsilon = Object.hasOwn(schema, 'epsilon_high') && Object.hasOwn(overrides, 'epsilon') && !Object.hasOwn(overrides, 'epsilon_high');
  // The generic ConfigOf<S> does not expand; S's Pick above guarantees these numeric fields.
  const config = resolve(schema, followsEpsilon ? { ...overrides, epsilon_high: overrides.epsilon } : overrides) as ConfigOf<S> &
    Pick<GrpoUpdateConfig, 'per_device_train_batch_size' | 'num_generations'> & Partial<Pick<GrpoUpdateConfig, 'steps_per_generation'>>;
  checkGenerationBatch({ ...config, steps_per_generation: config.steps_per_generation ?? 1 });
  return config;
}

/** The update fields a schema may leave out: then its update is on-policy, token-level, with a symmetric clip. */
type OnPolicyDefaults = 'num_iterations' | 'steps_per_generation' | 'importance_sampling_level' | 'epsilon_high';

/** What updateConfigOf reads: the GRPO update's fields, the four above optional. */
export type UpdateSettings = Omit<GrpoUpdateConfig, OnPolicyDefaults> & Partial<Pick<GrpoUpdateConfig, OnPolicyDefaults>>;

/**
 * The GRPO update's settings (grpo-update.ts) from a trainer's config. A trainer whose schema lacks num_iterations and
 * steps_per_generation updates once per generation batch, on-policy (vision: each row keeps its picture; team: both
 * roles train on the one rollout); without importance_sampling_level the ratio is per token, and without epsilon_high
 * the clip is symmetric, TRL's defaults. A trainer that sets a field per role or from its task passes it in the
 * object: `updateConfigOf({ ...config, max_completion_length: 1 })`.
 */
export function updateConfigOf(config: UpdateSettings): GrpoUpdateConfig {
  return {
    learning_rate: config.learning_rate,
    beta: config.beta,
    num_generations: config.num_generations,
    scale_rewards: config.scale_rewards,
    num_iterations: config.num_iterations ?? 1,
    steps_per_generation: config.steps_per_generation ?? 1,
    temperature: config.temperature,
    loss_type: config.loss_type,
    importance_sampling_level: config.importance_sampling_level ?? 'token',
    epsilon: config.epsilon,
    epsilon_high: config.epsilon_high ?? config.epsilon,
    max_completion_length: config.max_completion_length,
    max_grad_norm: config.max_grad_norm,
    per_device_train_batch_size: config.per_device_train_batch_size,
  };
}

// ─── Sampling ────────────────────────────────────────────────────────────────────────────────────────────────────

/** Each item `times` times in a row: a group's rows sit together, as grpoAdvantages and the filters read them. */
export function repeatEach<T>(items: readonly T[], times: number): T[] {
  return items.flatMap((item) => Array<T>(times).fill(item));
}

/** How a rollout samples: the run's temperature and completion length, the tokenizer's EOS and PAD. */
export function samplingConfig(settings: { temperature: number; max_completion_length: number }, tokenizer: { eos: number; pad: number }): GenerateConfig & { temperature: number } {
  return { temperature: settings.temperature, max_completion_length: settings.max_completion_length, eos_id: tokenizer.eos, pad_id: tokenizer.pad };
}

/** What sampleGroups needs of a task: training problems and their prompts. */
export interface GroupTask<P> {
  readonly tokenizer: { eos: number; pad: number };
  sample(split: 'train', n: number, rng: Rng): P[];
  encodePrompt(p: P): number[];
}

export interface SampledGroups<P> {
  /** [N] the drawn problems, each num_generations times in a row (N = groups × G). */
  problems: P[];
  /** [N] their prompts. */
  prompts: number[][];
  generation: Generation;
  /** What the reward functions read besides the texts: each row's prompt, answer, truncation and length. */
  context: RewardContext & Required<Pick<RewardContext, 'prompts' | 'truncated' | 'lengths'>>;
}

/**
 * `groups` training problems, each repeated num_generations times, and one sampled completion per row. With
 * `environment`, each row is a multi-turn episode that the environment (made for these problems) answers along the way.
 */
export async function sampleGroups<P extends { prompt: string; answer: string }>(
  model: CausalLM,
  task: GroupTask<P>,
  groups: number,
  settings: { num_generations: number; temperature: number; max_completion_length: number },
  rngs: { problems: Rng; sampling: Rng },
  environment?: (problems: P[]) => ToolEnvironment | undefined,
): Promise<SampledGroups<P>> {
  const problems = repeatEach(task.sample('train', groups, rngs.problems), settings.num_generations);
  const prompts = problems.map((p) => task.encodePrompt(p));
  const generation = await generate(model, prompts, samplingConfig(settings, task.tokenizer), rngs.sampling, environment?.(problems));
  const context = {
    prompts: problems.map((p) => p.prompt),
    answers: problems.map((p) => p.answer),
    truncated: generation.finished.map((f) => !f),
    lengths: generation.lengths,
  };
  return { problems, prompts, generation, context };
}

// ─── Rewards ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** A reward function as a trainer runs it: its logged name and its weight in the total. */
export interface NamedReward {
  name: string;
  fn: RewardFunction | AsyncRewardFunction;
  weight: number;
}

/**
 * Each reward function's score of each completion: [N][F] (GroupBatch.rewardsPerFunc). The functions run one after
 * another in order, so a reader's function, listed last, runs after the built-in ones and fails the step alone.
 * `texts` is what every function reads, or per function what it reads (the agent's tool cost reads whole episodes).
 */
export async function scoreRewards<R extends NamedReward>(rewards: readonly R[], texts: string[] | ((reward: R) => string[]), context: RewardContext): Promise<number[][]> {
  const columns: number[][] = []; // [F][N]
  for (const r of rewards) columns.push(await r.fn(typeof texts === 'function' ? texts(r) : texts, context));
  return context.answers.map((_, i) => columns.map((column) => column[i]));
}

/** A completion's reward: its scores weighted and summed, as the advantages weigh them. */
export function weightedReward(scores: readonly number[], rewards: readonly Pick<NamedReward, 'weight'>[]): number {
  return scores.reduce((s, r, f) => s + r * rewards[f].weight, 0);
}

/** The mean of xs, summed left to right (0 for none): every logged mean here is this one. */
export function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

/** Each function's mean score over the rows ([N][F], as scoreRewards returns them), under TRL's name rewards/<name>/mean. */
export function rewardMeans(rewards: readonly Pick<NamedReward, 'name'>[], rows: readonly (readonly number[])[]): Record<string, number> {
  return Object.fromEntries(rewards.map((r, f) => [`rewards/${r.name}/mean`, mean(rows.map((row) => row[f]))]));
}

/** TRL's completion metrics: mean length in tokens (EOS and observations included), and the share cut off at the limit. */
export function completionMetrics(lengths: readonly number[], truncated: readonly boolean[]): { 'completions/mean_length': number; 'completions/clipped_ratio': number } {
  return { 'completions/mean_length': mean(lengths), 'completions/clipped_ratio': truncated.filter(Boolean).length / truncated.length };
}

// ─── SFT ─────────────────────────────────────────────────────────────────────────────────────────────────────────

/** Demonstrations: prompts of one length, completions (EOS included), and which completion tokens carry the loss. */
export interface Demonstrations {
  prompts: number[][];
  completions: number[][];
  mask: number[][];
}

/** A step's scalars, kept in the caller's scope (read them with readScalars, which frees them). */
export interface SftStepScalars {
  loss: tf.Scalar;
  entropy: tf.Scalar;
  meanTokenAccuracy: tf.Scalar;
  gradNorm: tf.Scalar;
}

/**
 * One SFT step of any trainable policy (a TinyLM, its LoRA view, the vision model bound to the batch's pictures):
 * cross-entropy on the completion tokens the mask marks (TRL's completion_only_loss), the gradient clipped to
 * maxGradNorm, one optimizer step.
 */
export function sftStep(
  policy: TrainablePolicy,
  optimizer: tf.Optimizer,
  demos: Demonstrations,
  opts: { pad: number; maxGradNorm: number; keep: Keep; timer?: StepTimer },
): SftStepScalars {
  const { keep } = opts;
  const batch = completionBatch(demos.prompts, demos.completions, demos.mask, opts.pad);
  let kept!: Omit<SftStepScalars, 'gradNorm'>;
  try {
    const gradNorm = optimizerStep(optimizer, policy.trainableVariables(), opts.maxGradNorm, () => {
      const out = sftLoss(completionLogits(policy, batch), batch.targets, batch.mask);
      kept = { entropy: keep(out.entropy), meanTokenAccuracy: keep(out.meanTokenAccuracy), loss: keep(tf.clone(out.loss)) };
      return out.loss;
    }, opts.timer);
    return { ...kept, gradNorm };
  } finally {
    batch.dispose();
  }
}
