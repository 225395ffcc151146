/**
 * The GRPO update, shared by every trainer that samples groups and scores them (single-turn arithmetic, the
 * multi-turn agent), scheduled as TRL's GRPOTrainer schedules it (v1.13 `_prepare_inputs`,
 * grpo_trainer.py:1579, unchanged since v1.9):
 *
 *   every steps_per_generation × num_iterations optimizer steps, generate one batch of
 *   per_device_train_batch_size × steps_per_generation completions, score it, compute group-relative advantages over
 *   the whole batch (and, when the updates will be off-policy, the sampling policy's log-probs), shuffle it and split
 *   it into steps_per_generation slices; each optimizer step then trains on the next slice, cycling through the
 *   slices num_iterations times.
 *
 * With steps_per_generation = num_iterations = 1 every update is on-policy and the importance ratio is exactly 1, so
 * no clip (nor GSPO's sequence ratio) can act; from the second slice on, the policy has moved and the ratio leaves 1.
 */
import * as tf from '@tensorflow/tfjs';
import type { TrainablePolicy } from '@/lib/models/tiny-lm';
import type { Rng } from '@/lib/random';
import { wasmFastPaths } from '@/lib/models/fast-paths';
import { grpoAdvantages, grpoAdvantageValues, grpoLoss, type GrpoAdvantageValues, type ScaleRewards } from '@/lib/rl/grpo';
import { grpoLossOnArrays, grpoLossOnArraysCovers } from '@/lib/rl/grpo-fused';
import { completionLogprobs, completionLogprobsAndEntropy } from '@/lib/rl/logprobs';
import { maskedTokenMean } from '@/lib/rl/ops';
import type { ConfigOf } from './config';
import type { grpoSchema } from './grpo-config';
import { completionBatch, completionLogits, readScalars } from './lm-batch';
import { adam, optimizerStep, StepTimer } from './optim';
import type { Keep } from './scope';
import { keepTokenTerms, pickTokenRows, readTokenTerms, type StepTokenTerms } from './token-terms';

export type GrpoUpdateConfig = Pick<
  ConfigOf<typeof grpoSchema>,
  | 'learning_rate' | 'beta' | 'num_generations' | 'scale_rewards' | 'num_iterations' | 'steps_per_generation' | 'temperature'
  | 'loss_type' | 'importance_sampling_level' | 'epsilon' | 'epsilon_high' | 'max_completion_length' | 'max_grad_norm'
  | 'per_device_train_batch_size'
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

/** What a trainer's generate() hands the stepper: the batch, and anything it wants back for its inspector. */
export interface Generated<S> {
  batch: GroupBatch;
  /** Metrics of the generation batch (lengths, tool use…), logged with every step that trains on it. */
  metrics: Record<string, number>;
  samples: S;
}

export interface StepResult<S> {
  metrics: Record<string, number>;
  /** On the steps that generated: the new batch's samples with each completion's advantage. */
  generated: { samples: S; advantages: Float32Array } | null;
  /** When asked for: a few of the slice's completions, token by token, as this step's loss saw them. */
  tokenTerms: StepTokenTerms | null;
}

/** A generation batch prepared for its updates; its tensors outlive the step that made them. */
interface Buffer<S> {
  input: tf.Tensor2D;
  targets: tf.Tensor2D;
  mask: tf.Tensor2D;
  advantages: tf.Tensor1D;
  /** The same advantages, read back: the token view picks rows by their sign. */
  advantageValues: Float32Array;
  oldLogps?: tf.Tensor2D;
  refLogps?: tf.Tensor2D;
  observationMask?: tf.Tensor2D;
  promptLength: number;
  slices: number[][];
  stepsDone: number;
  metrics: Record<string, number>;
  samples: S;
}

export interface GrpoStepper<S> {
  /**
   * One optimizer step, generating a new batch first when the last one is used up, timed: its metrics with the
   * phases' `timing/*`; `onGenerated` sees each new batch with its advantages; `onTokenTerms` (when given) the step's
   * token terms for a few completions of its slice, after onGenerated.
   */
  trainStep(
    keep: Keep,
    onGenerated: (generated: NonNullable<StepResult<S>['generated']>) => void,
    onTokenTerms?: (terms: StepTokenTerms) => void,
  ): Promise<Record<string, number>>;
  dispose(): void;
}

/**
 * The advantages and their metrics as numbers, as the trainer reads them: with the wasm fast paths, from the array form
 * (the tensor form is some forty tfjs kernels on [N] and [N/G, G] tensors, ~0.6 ms of a 25 ms GRPO step in engine
 * bookkeeping, for numbers read back anyway); elsewhere the tensor form, read back, so every backend keeps its numbers.
 */
async function readGrpoAdvantages(
  rewardsPerFunc: readonly (readonly number[])[],
  opts: { numGenerations: number; rewardWeights?: number[]; scaleRewards?: ScaleRewards | boolean },
): Promise<GrpoAdvantageValues> {
  if (wasmFastPaths()) return grpoAdvantageValues(rewardsPerFunc, opts);
  const F = rewardsPerFunc.length > 0 ? rewardsPerFunc[0].length : 0;
  const t = tf.tidy(() => grpoAdvantages(tf.tensor2d(rewardsPerFunc as number[][], [rewardsPerFunc.length, F]), opts));
  try {
    const [advantages, rewards, scorable, reward, rewardStd, frac] = await Promise.all([t.advantages, t.rewards, t.scorable, t.reward, t.rewardStd, t.fracRewardZeroStd].map((x) => x.data() as Promise<Float32Array>));
    return { advantages, rewards, scorable, reward: reward[0], rewardStd: rewardStd[0], fracRewardZeroStd: frac[0] };
  } finally {
    tf.dispose(Object.values(t));
  }
}

/** The longest row (prompt + completion − 1 fed tokens) must fit the model's context. */
export function checkFitsContext(promptLength: number, maxCompletionLength: number, model: { config: { context_length: number } }): void {
  const longest = promptLength + maxCompletionLength - 1;
  if (longest > model.config.context_length) {
    throw new Error(`max_completion_length ${maxCompletionLength} does not fit: prompt (${promptLength}) + completion − 1 = ${longest} > the model's context_length ${model.config.context_length}`);
  }
}

/** TRL's rule: the generation batch (per_device_train_batch_size × steps_per_generation) holds whole groups. */
export function checkGenerationBatch(config: Pick<GrpoUpdateConfig, 'per_device_train_batch_size' | 'steps_per_generation' | 'num_generations'>): void {
  const size = config.per_device_train_batch_size * config.steps_per_generation;
  if (size % config.num_generations !== 0) {
    throw new Error(`the generation batch (per_device_train_batch_size × steps_per_generation = ${size}) must be a multiple of num_generations (${config.num_generations})`);
  }
}

export function createGrpoStepper<S>(model: TrainablePolicy, config: GrpoUpdateConfig, generate: (timer: StepTimer) => Promise<Generated<S>>, shuffleRng: Rng): GrpoStepper<S> {
  // The loss on arrays where it gives the same numbers (tfjs-wasm's, bit for bit: lib/rl/grpo-fused.ts), ~70 fewer
  // tfjs kernels a step; grpoLoss's tfjs ops elsewhere. Decided per step: the backend can change between steps.
  const lossOf = (args: Parameters<typeof grpoLoss>[0]) => (wasmFastPaths() && grpoLossOnArraysCovers(args) ? grpoLossOnArrays(args) : grpoLoss(args));
  checkGenerationBatch(config);
  // The reference is a frozen copy of the starting policy; without a KL term TRL does not need one.
  const reference = config.beta > 0 ? model.clone() : null;
  const optimizer = adam(config.learning_rate);
  const variables = model.trainableVariables();
  const stepsPerBatch = config.steps_per_generation * config.num_iterations;
  const offPolicy = stepsPerBatch > 1;
  let buffer: Buffer<S> | null = null;

  const release = () => {
    if (!buffer) return;
    const { input, targets, mask, advantages, oldLogps, refLogps, observationMask } = buffer;
    tf.dispose([input, targets, mask, advantages, ...(oldLogps ? [oldLogps] : []), ...(refLogps ? [refLogps] : []), ...(observationMask ? [observationMask] : [])]);
    buffer = null;
  };

  /** Scores a new generation batch; its tensors are kept (tf.keep) until the buffer is used up. */
  async function refill(timer: StepTimer): Promise<{ advantages: Float32Array; metrics: Record<string, number> }> {
    const generated = await generate(timer);
    const g = generated.batch;
    const N = g.prompts.length;
    const batch = completionBatch(g.prompts, g.completions, g.lossMask, g.pad);
    const adv = await readGrpoAdvantages(g.rewardsPerFunc, { numGenerations: config.num_generations, rewardWeights: g.rewardWeights, scaleRewards: config.scale_rewards });
    const noGrad = (m: TrainablePolicy) => timer.time('reference', () => tf.tidy(() => completionLogprobs(completionLogits(m, batch, false), batch.targets, config.temperature)));
    // Off-policy updates need the sampling policy's log-probs, taken now, before any update; on-policy ones use
    // logps.detach() (ratio exactly 1), as TRL does.
    const oldLogps = offPolicy ? noGrad(model) : undefined;
    const refLogps = reference ? noGrad(reference) : undefined;
    const M = batch.targets.shape[1];
    const observationMask = g.observationMask ? tf.tensor2d(g.observationMask.map((row) => row.slice(0, M)), [N, M], 'float32') : undefined;
    // Shuffled, then split into steps_per_generation slices (TRL: shuffle_sequence_dict, split_tensor_dict). One
    // slice is the whole batch, and the order of its rows changes nothing: it is left as generated.
    const rowsInOrder = Array.from({ length: N }, (_, i) => i);
    const order = config.steps_per_generation > 1 ? shuffleRng.shuffle(rowsInOrder) : rowsInOrder;
    const per = Math.ceil(N / config.steps_per_generation);
    const slices = Array.from({ length: config.steps_per_generation }, (_, k) => order.slice(k * per, (k + 1) * per)).filter((s) => s.length > 0);
    const advantages = adv.advantages;
    const rewardMetrics = { reward: adv.reward, reward_std: adv.rewardStd, frac_reward_zero_std: adv.fracRewardZeroStd };
    // The batch's tensors must outlive this step (the next slices train on them): kept globally, freed by release().
    buffer = {
      input: tf.keep(batch.input),
      targets: tf.keep(batch.targets),
      mask: tf.keep(batch.mask),
      advantages: tf.keep(tf.tensor1d(advantages)),
      advantageValues: advantages,
      oldLogps: oldLogps && tf.keep(oldLogps),
      refLogps: refLogps && tf.keep(refLogps),
      observationMask: observationMask && tf.keep(observationMask),
      promptLength: batch.promptLength,
      slices,
      stepsDone: 0,
      metrics: { ...generated.metrics, ...rewardMetrics },
      samples: generated.samples,
    };
    return { advantages, metrics: buffer.metrics };
  }

  async function step(keep: Keep, timer: StepTimer, withTerms: boolean): Promise<StepResult<S>> {
    let generated: StepResult<S>['generated'] = null;
    try {
      if (!buffer || buffer.stepsDone >= stepsPerBatch) {
        release();
        const { advantages } = await refill(timer);
        generated = { samples: buffer!.samples, advantages };
      }
      const b = buffer!;
      const rows = b.slices[b.stepsDone % b.slices.length];
      const whole = b.slices.length === 1;
      const idx = whole ? null : tf.tensor1d(rows, 'int32');
      // Constants, so no gradient flows through the gather; the whole batch in order needs none.
      const pick = <T extends tf.Tensor>(t: T) => (idx ? (tf.gather(t, idx) as T) : t);
      const slice = { input: pick(b.input), targets: pick(b.targets), mask: pick(b.mask), promptLength: b.promptLength, dispose: () => undefined };
      const advantages = pick(b.advantages);
      const oldLogps = b.oldLogps && pick(b.oldLogps);
      const refLogps = b.refLogps && pick(b.refLogps);
      const obsMask = b.observationMask && pick(b.observationMask);
      const logged: Record<string, tf.Tensor> = {};
      const termRows = withTerms ? pickTokenRows(rows, b.advantageValues) : [];
      let keptTerms: ReturnType<typeof keepTokenTerms> | null = null;
      const gradNorm = optimizerStep(optimizer, variables, config.max_grad_norm, () => {
        const { logps, entropy } = completionLogprobsAndEntropy(completionLogits(model, slice), slice.targets, config.temperature);
        const { loss, metrics, terms } = lossOf({
          logps, oldLogps, refLogps, advantages, mask: slice.mask, entropies: entropy,
          lossType: config.loss_type, importanceSamplingLevel: config.importance_sampling_level,
          beta: config.beta, epsilon: config.epsilon, epsilonHigh: config.epsilon_high,
          maxCompletionLength: config.max_completion_length, withTerms,
        });
        // The view's numbers are this forward's own terms, not a second computation.
        if (terms) {
          const positions = termRows.map((r) => rows.indexOf(r));
          keptTerms = keepTokenTerms(terms, { mask: slice.mask, advantages }, positions, { lossType: config.loss_type, maxCompletionLength: config.max_completion_length }, keep);
        }
        logged.loss = keep(tf.clone(loss));
        for (const [name, value] of Object.entries(metrics)) if (value) logged[name] = keep(value);
        // How likely the policy finds the environment's tokens: it rises only if the loss trains on them.
        if (obsMask) logged['observations/mean_logprob'] = keep(maskedTokenMean(logps, obsMask));
        return loss;
      }, timer);
      b.stepsDone += 1;
      const metrics = await readScalars({ ...logged, grad_norm: gradNorm });
      const tokenTerms = keptTerms
        ? await readTokenTerms(keptTerms, termRows, {
            lossType: config.loss_type, level: config.importance_sampling_level, beta: config.beta,
            epsilon: config.epsilon, epsilonHigh: config.epsilon_high, update: b.stepsDone, updates: stepsPerBatch,
          })
        : null;
      return { metrics: { ...b.metrics, ...metrics }, generated, tokenTerms };
    } catch (error) {
      release(); // a half-used batch is not trusted: the next step generates afresh
      throw error;
    }
  }

  return {
    async trainStep(keep, onGenerated, onTokenTerms) {
      const timer = new StepTimer();
      const { metrics, generated, tokenTerms } = await step(keep, timer, onTokenTerms !== undefined);
      if (generated) onGenerated(generated);
      if (tokenTerms) onTokenTerms?.(tokenTerms);
      return { ...metrics, ...timer.metrics() };
    },
    dispose() {
      release();
      optimizer.dispose();
      reference?.dispose();
    },
  };
}
