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
import { optimizerStep, since } from './optim';
import type { Metrics, StepTrainer } from './run';

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

export interface GrpoTrainer extends StepTrainer {
  readonly config: GrpoConfig;
  readonly model: TinyLM;
  /** The last step's prompts, completions, rewards and advantages. */
  readonly lastSamples: GrpoSamples | null;
}

/** Overrides that leave epsilon_high unset get epsilon_high = epsilon, as TRL does. */
export function resolveGrpoConfig(overrides: Partial<GrpoConfig> = {}): GrpoConfig {
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

  async function trainStep(): Promise<Metrics> {
    step += 1;
    const t0 = performance.now();
    const problems = task.sample('train', config.per_device_train_batch_size / G, dataRng).flatMap((p) => Array(G).fill(p));
    const prompts = problems.map((p) => task.encodePrompt(p));
    const gen = await generate(model, prompts, { temperature: config.temperature, max_completion_length: config.max_completion_length, eos_id: tok.eos, pad_id: tok.pad }, sampleRng);
    const generationMs = since(t0);

    const t1 = performance.now();
    const texts = gen.completions.map((c) => tok.decode(c));
    const context = { answers: problems.map((p) => p.answer), truncated: gen.finished.map((f) => !f) };
    const perFunc = rewardFns.map((r) => r.fn(texts, context)); // [F][N]
    const rowsByFunc = problems.map((_, i) => perFunc.map((column) => column[i])); // [N][F]
    const batch = completionBatch(prompts, gen.completions, gen.completionMask, tok.pad);
    const rewardsTensor = tf.tensor2d(rowsByFunc, [problems.length, rewardFns.length]);
    const adv = grpoAdvantages(rewardsTensor, { numGenerations: G, rewardWeights: rewardFns.map((r) => r.weight), scaleRewards: config.scale_rewards });
    const noGrad = (f: () => tf.Tensor2D) => tf.tidy(f);
    // μ > 1 reuses this batch, so the sampling policy's log-probs are needed; μ = 1 uses logps.detach() (ratio 1).
    const oldLogps = config.num_iterations > 1 ? noGrad(() => completionLogprobs(completionLogits(model, batch, false), batch.targets, config.temperature)) : undefined;
    const refLogps = reference ? noGrad(() => completionLogprobs(completionLogits(reference, batch, false), batch.targets, config.temperature)) : undefined;

    const kept: tf.Tensor[] = [];
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
          stepMetrics.loss = tf.keep(tf.clone(loss));
          for (const [name, value] of Object.entries(metrics)) if (value) stepMetrics[name] = tf.keep(value);
        }
        return loss;
      });
    }
    const updateMs = since(t1);
    kept.push(rewardsTensor, adv.rewards, adv.scorable);
    const [advantages, scalars] = await Promise.all([
      adv.advantages.data(),
      readScalars({ ...stepMetrics, grad_norm: gradNorm, reward: adv.reward, reward_std: adv.rewardStd, frac_reward_zero_std: adv.fracRewardZeroStd }),
    ]);
    tf.dispose([...kept, adv.advantages, oldLogps, refLogps].filter((t): t is tf.Tensor => t !== undefined));
    batch.dispose();

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
    return {
      ...scalars,
      ...perFuncMeans,
      'completions/mean_length': lengths.reduce((a, b) => a + b, 0) / lengths.length,
      'completions/clipped_ratio': gen.finished.filter((f) => !f).length / lengths.length,
      'timing/generation_ms': generationMs,
      'timing/update_ms': updateMs,
    };
  }

  return {
    config,
    model,
    get lastSamples() {
      return lastSamples;
    },
    trainStep,
    evaluate: () => evaluateOnTestSet(model, task, testSet),
    dispose() {
      optimizer.dispose();
      reference?.dispose();
    },
  };
}
