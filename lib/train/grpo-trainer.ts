/**
 * GRPO on the arithmetic task, as TRL's GRPOTrainer: sample G completions per prompt, score them with
 * weighted reward functions, turn rewards into group-relative advantages, and take num_iterations clipped
 * policy-gradient steps (plus a k3 KL penalty to a frozen reference when beta > 0).
 */
import * as tf from '@tensorflow/tfjs';
import { generate } from '@/lib/models/generate';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { grpoAdvantages, grpoLoss } from '@/lib/rl/grpo';
import { completionLogprobs, completionLogprobsAndEntropy } from '@/lib/rl/logprobs';
import type { ArithmeticTask } from '@/lib/tasks/arithmetic';
import { atLeastReward, correctnessReward, formatReward, hackableDigitReward, lengthPenalty, type RewardFunction } from '@/lib/tasks/rewards';
import { resolve, type ConfigOf } from './config';
import { grpoSchema } from './grpo-config';
import { completionBatch, completionLogits, evaluateOnTestSet, readScalars } from './lm-batch';
import { createLabTask } from './lab-setup';
import { lmTrainerFactory, type LmTrainer } from './lm-factory';
import { optimizerStep, StepTimer } from './optim';
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
  const withHigh = 'epsilon_high' in overrides || !('epsilon' in overrides) ? overrides : { ...overrides, epsilon_high: overrides.epsilon };
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
  // The reference is a frozen copy of the starting policy; without a KL term TRL does not need one.
  const reference = config.beta > 0 ? model.clone() : null;
  const optimizer = tf.train.adam(config.learning_rate);
  const variables = model.trainableVariables();
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
    const batch = completionBatch(prompts, gen.completions, gen.completionMask, tok.pad);
    const rewardsTensor = tf.tensor2d(rowsByFunc, [problems.length, rewardFns.length]);
    const adv = grpoAdvantages(rewardsTensor, { numGenerations: G, rewardWeights: rewardFns.map((r) => r.weight), scaleRewards: config.scale_rewards });
    const noGrad = (f: () => tf.Tensor2D) => timer.time('reference', () => tf.tidy(f));
    // μ > 1 reuses this batch, so the sampling policy's log-probs are needed; μ = 1 uses logps.detach() (ratio 1).
    const oldLogps = config.num_iterations > 1 ? noGrad(() => completionLogprobs(completionLogits(model, batch, false), batch.targets, config.temperature)) : undefined;
    const refLogps = reference ? noGrad(() => completionLogprobs(completionLogits(reference, batch, false), batch.targets, config.temperature)) : undefined;

    const stepMetrics: Record<string, tf.Tensor> = {};
    let gradNorm!: tf.Scalar;
    for (let iteration = 0; iteration < config.num_iterations; iteration++) {
      const last = iteration === config.num_iterations - 1;
      tf.dispose(gradNorm);
      gradNorm = optimizerStep(optimizer, variables, config.max_grad_norm, () => {
        const { logps, entropy } = completionLogprobsAndEntropy(completionLogits(model, batch), batch.targets, config.temperature);
        const { loss, metrics } = grpoLoss({
          logps, oldLogps, refLogps, advantages: adv.advantages, mask: batch.mask, entropies: entropy,
          lossType: config.loss_type, importanceSamplingLevel: config.importance_sampling_level,
          beta: config.beta, epsilon: config.epsilon, epsilonHigh: config.epsilon_high,
          maxCompletionLength: config.max_completion_length,
        });
        if (last) {
          stepMetrics.loss = keep(tf.clone(loss));
          for (const [name, value] of Object.entries(metrics)) if (value) stepMetrics[name] = keep(value);
        }
        return loss;
      }, timer);
    }
    const [advantages, scalars] = await Promise.all([
      adv.advantages.data(),
      readScalars({ ...stepMetrics, grad_norm: gradNorm, reward: adv.reward, reward_std: adv.rewardStd, frac_reward_zero_std: adv.fracRewardZeroStd }),
    ]);
    // Everything else this step made (batch, rewards, advantages, old and reference log-probs) goes with its scope.

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
    dispose() {
      optimizer.dispose();
      reference?.dispose();
    },
  };
}

/** For the registry: GRPO of the lab model from a checkpoint (the shipped SFT one by default). */
export const grpoFactory = lmTrainerFactory((model, overrides) => createGrpoTrainer(model, createLabTask(), resolveGrpoConfig(overrides)));
