/**
 * The GRPO update, shared by every trainer that samples groups and scores them (single-turn arithmetic, the
 * multi-turn agent): rewards → group-relative advantages, then num_iterations clipped policy-gradient steps on the
 * tokens the loss mask selects, with a k3 KL penalty to a frozen reference when beta > 0 (TRL's GRPOTrainer).
 */
import * as tf from '@tensorflow/tfjs';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { grpoAdvantages, grpoLoss } from '@/lib/rl/grpo';
import { completionLogprobs, completionLogprobsAndEntropy } from '@/lib/rl/logprobs';
import { stopGradient } from '@/lib/rl/ops';
import type { ConfigOf } from './config';
import type { grpoSchema } from './grpo-config';
import { completionBatch, completionLogits, readScalars } from './lm-batch';
import { optimizerStep, type StepTimer } from './optim';
import type { Keep } from './scope';

export type GrpoUpdateConfig = Pick<
  ConfigOf<typeof grpoSchema>,
  | 'learning_rate' | 'beta' | 'num_generations' | 'scale_rewards' | 'num_iterations' | 'temperature' | 'loss_type'
  | 'importance_sampling_level' | 'epsilon' | 'epsilon_high' | 'max_completion_length' | 'max_grad_norm'
>;

export interface GroupBatch {
  /** [N] prompts of equal length, each repeated num_generations times in a row. */
  prompts: number[][];
  /** [N][M] sampled completions (observations included in multi-turn episodes), PAD after the end. */
  completions: number[][];
  /** [N][M] 1 where a token carries the loss: the policy's own tokens (TRL masks tool results out). */
  lossMask: number[][];
  /** [N][F] each reward function's score (NaN: not scored). */
  rewardsPerFunc: number[][];
  rewardWeights: number[];
  /** [N][M] 1 on tokens the environment wrote: their mean log-prob under the policy is logged. */
  observationMask?: number[][];
  pad: number;
}

export interface GrpoUpdater {
  /** One generation batch's update; returns TRL's metrics and each completion's advantage. */
  update(batch: GroupBatch, keep: Keep, timer: StepTimer): Promise<{ metrics: Record<string, number>; advantages: Float32Array }>;
  dispose(): void;
}

export function createGrpoUpdater(model: TinyLM, config: GrpoUpdateConfig): GrpoUpdater {
  // The reference is a frozen copy of the starting policy; without a KL term TRL does not need one.
  const reference = config.beta > 0 ? model.clone() : null;
  const optimizer = tf.train.adam(config.learning_rate);
  const variables = model.trainableVariables();

  async function update(input: GroupBatch, keep: Keep, timer: StepTimer) {
    const N = input.prompts.length;
    const batch = completionBatch(input.prompts, input.completions, input.lossMask, input.pad);
    const rewards = tf.tensor2d(input.rewardsPerFunc, [N, input.rewardWeights.length]);
    const adv = grpoAdvantages(rewards, { numGenerations: config.num_generations, rewardWeights: input.rewardWeights, scaleRewards: config.scale_rewards });
    const noGrad = (f: () => tf.Tensor2D) => timer.time('reference', () => tf.tidy(f));
    const logpsOf = (m: TinyLM) => completionLogprobs(completionLogits(m, batch, false), batch.targets, config.temperature);
    // μ > 1 reuses this batch, so the sampling policy's log-probs are needed; μ = 1 uses logps.detach() (ratio 1).
    const oldLogps = config.num_iterations > 1 ? noGrad(() => logpsOf(model)) : undefined;
    const refLogps = reference ? noGrad(() => logpsOf(reference)) : undefined;
    const obsMask = input.observationMask ? tf.tensor2d(input.observationMask.map((row) => row.slice(0, batch.targets.shape[1])), batch.targets.shape, 'float32') : null;

    const logged: Record<string, tf.Tensor> = {};
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
          logged.loss = keep(tf.clone(loss));
          for (const [name, value] of Object.entries(metrics)) if (value) logged[name] = keep(value);
          // How likely the policy finds the environment's tokens: it rises only if the loss trains on them.
          if (obsMask) logged['observations/mean_logprob'] = keep(tf.div(tf.sum(tf.mul(stopGradient(logps), obsMask)), tf.maximum(tf.sum(obsMask), 1)));
        }
        return loss;
      }, timer);
    }
    const [advantages, metrics] = await Promise.all([
      adv.advantages.data() as Promise<Float32Array>,
      readScalars({ ...logged, grad_norm: gradNorm, reward: adv.reward, reward_std: adv.rewardStd, frac_reward_zero_std: adv.fracRewardZeroStd }),
    ]);
    // The batch, rewards, advantages and old/reference log-probs go with the caller's step scope.
    return { metrics, advantages };
  }

  return {
    update,
    dispose() {
      optimizer.dispose();
      reference?.dispose();
    },
  };
}
