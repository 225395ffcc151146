/**
 * GRPO on the arithmetic task, as TRL's GRPOTrainer: sample G completions per prompt, score them with
 * weighted reward functions, turn rewards into group-relative advantages, and take num_iterations clipped
 * policy-gradient steps (plus a k3 KL penalty to a frozen reference when beta > 0).
 */
import { generate } from '@/lib/models/generate';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import type { ArithmeticTask } from '@/lib/tasks/arithmetic';
import { atLeastReward, correctnessReward, formatReward, hackableDigitReward, lengthPenalty, type RewardFunction } from '@/lib/tasks/rewards';
import { resolve, type ConfigOf } from './config';
import { grpoSchema } from './grpo-config';
import { createGrpoUpdater } from './grpo-update';
import { evaluateOnTestSet } from './lm-batch';
import { createLabTask } from './lab-setup';
import { lmTrainerFactory, type LmTrainer } from './lm-factory';
import { StepTimer } from './optim';
import type { Metrics } from './run';
import { inTensorScope, type Keep } from './scope';

export type GrpoConfig = ConfigOf<typeof grpoSchema>;

/** One generation batch, kept for the lab's group inspector. */
export interface GrpoSamples {
  step: number;
  /** Reward function names, in the order of `rewardsPerFunc` columns. */
  rewardNames: string[];
  /** Weights applied to each reward function. */
  rewardWeights: number[];
  groups: {
    prompt: string;
    answer: string;
    completions: { text: string; tokens: string[]; mask: number[]; rewards: number[]; total: number; advantage: number }[];
  }[];
}

export interface GrpoTrainer extends LmTrainer<typeof grpoSchema, GrpoSamples> {
  readonly config: GrpoConfig;
  /** The last step's prompts, completions, rewards and advantages. */
  readonly lastSamples: GrpoSamples | null;
}

/** Overrides that leave epsilon_high unset get epsilon_high = epsilon, as TRL does. */
export function resolveGrpoConfig(overrides: Record<string, unknown> = {}): GrpoConfig {
  const withHigh = Object.hasOwn(overrides, 'epsilon_high') || !Object.hasOwn(overrides, 'epsilon') ? overrides : { ...overrides, epsilon_high: overrides.epsilon };
  const config = resolve(grpoSchema, withHigh);
  if (config.per_device_train_batch_size % config.num_generations !== 0) {
    throw new Error(`per_device_train_batch_size (${config.per_device_train_batch_size}) must be a multiple of num_generations (${config.num_generations})`);
  }
  return config;
}

export function createGrpoTrainer(model: TinyLM, task: ArithmeticTask, overrides: Partial<GrpoConfig> = {}): GrpoTrainer {
  const config = resolveGrpoConfig(overrides);
  const longest = task.promptLength + config.max_completion_length - 1;
  if (longest > model.config.context_length) {
    throw new Error(`max_completion_length ${config.max_completion_length} does not fit: prompt (${task.promptLength}) + completion − 1 = ${longest} > the model's context_length ${model.config.context_length}`);
  }
  const rewardFns: { name: string; fn: RewardFunction; weight: number }[] = [
    { name: 'correctness', fn: { exact: correctnessReward, at_least: atLeastReward, digits: hackableDigitReward }[config.correctness_reward], weight: config.reward_weight_correctness },
    { name: 'format', fn: formatReward, weight: config.reward_weight_format },
    { name: 'length', fn: lengthPenalty, weight: config.reward_weight_length },
  ];
  const updater = createGrpoUpdater(model, config);
  const root = createRng(config.seed);
  const dataRng = root.fork('grpo-prompts');
  const sampleRng = root.fork('grpo-sampling');
  const testSet = task.testSet(config.eval_samples);
  const G = config.num_generations;
  const tok = task.tokenizer;
  let step = 0;
  let lastSamples: GrpoSamples | null = null;
  let numTokens = 0;

  async function trainStep(keep: Keep): Promise<Metrics> {
    step += 1;
    const timer = new StepTimer();
    const problems = task.sample('train', config.per_device_train_batch_size / G, dataRng).flatMap((p) => Array(G).fill(p));
    const prompts = problems.map((p) => task.encodePrompt(p));
    const gen = await timer.timeAsync('generation', () =>
      generate(model, prompts, { temperature: config.temperature, max_completion_length: config.max_completion_length, eos_id: tok.eos, pad_id: tok.pad }, sampleRng),
    );

    const texts = gen.completions.map((c) => tok.decode(c));
    const context = { answers: problems.map((p) => p.answer), truncated: gen.finished.map((f) => !f) };
    const perFunc = rewardFns.map((r) => r.fn(texts, context)); // [F][N]
    const rowsByFunc = problems.map((_, i) => perFunc.map((column) => column[i])); // [N][F]
    const { metrics: scalars, advantages } = await updater.update(
      { prompts, completions: gen.completions, lossMask: gen.completionMask, rewardsPerFunc: rowsByFunc, rewardWeights: rewardFns.map((r) => r.weight), pad: tok.pad },
      keep,
      timer,
    );

    lastSamples = {
      step,
      rewardNames: rewardFns.map((r) => r.name),
      rewardWeights: rewardFns.map((r) => r.weight),
      groups: Array.from({ length: problems.length / G }, (_, g) => ({
        prompt: problems[g * G].prompt,
        answer: problems[g * G].answer,
        completions: Array.from({ length: G }, (_, j) => {
          const i = g * G + j;
          const total = rowsByFunc[i].reduce((s, r, f) => s + r * rewardFns[f].weight, 0);
          return { text: texts[i], tokens: gen.completions[i].map((id) => tok.decode([id], { raw: true })), mask: gen.completionMask[i], rewards: rowsByFunc[i], total, advantage: advantages[i] };
        }),
      })),
    };
    const perFuncMeans = Object.fromEntries(rewardFns.map((r, f) => [`rewards/${r.name}/mean`, perFunc[f].reduce((a, b) => a + b, 0) / problems.length]));
    const lengths = gen.lengths;
    numTokens += prompts.reduce((s, p) => s + p.length, 0) + lengths.reduce((a, b) => a + b, 0);
    return {
      ...scalars,
      ...perFuncMeans,
      num_tokens: numTokens,
      'completions/mean_length': lengths.reduce((a, b) => a + b, 0) / lengths.length,
      'completions/clipped_ratio': gen.finished.filter((f) => !f).length / lengths.length,
      ...timer.metrics(),
    };
  }

  return {
    config,
    model,
    get lastSamples() {
      return lastSamples;
    },
    trainStep: () => inTensorScope(trainStep),
    evaluate: () => inTensorScope(() => evaluateOnTestSet(model, task, testSet)),
    inspect: async () => lastSamples,
    dispose: () => updater.dispose(),
  };
}

/** For the registry: GRPO of the lab model from a checkpoint (the shipped SFT one by default). */
export const grpoFactory = lmTrainerFactory((model, overrides) => createGrpoTrainer(model, createLabTask(), resolveGrpoConfig(overrides)));
