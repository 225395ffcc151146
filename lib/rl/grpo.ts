// GRPO (TRL GRPOTrainer): group-relative advantages and the clipped surrogate loss.
import * as tf from '@tensorflow/tfjs';

import { grpoTokenTerms, type GrpoTokenTerms } from './grpo-token-terms';
import { asFloat, maskedTokenMean, stopGradient } from './ops';

import { GRPO_LOSS_TYPES, IMPORTANCE_SAMPLING_LEVELS, SCALE_REWARDS, type GrpoLossType, type ImportanceSamplingLevel, type ScaleRewards } from './choices';

export { GRPO_LOSS_TYPES, IMPORTANCE_SAMPLING_LEVELS, SCALE_REWARDS, type GrpoLossType, type ImportanceSamplingLevel, type ScaleRewards };

/** TRL's legacy booleans: true → 'group', false → 'none'. */
export function resolveScaleRewards(s: ScaleRewards | boolean | undefined): ScaleRewards {
  if (s === undefined || s === true) return 'group';
  if (s === false) return 'none';
  if (!(SCALE_REWARDS as readonly string[]).includes(s)) {
    throw new Error(`scaleRewards must be one of ${SCALE_REWARDS.join(', ')}, true or false; got ${String(s)}`);
  }
  return s;
}

export type GrpoAdvantagesOut = {
  /** [N]: (r − group mean) / (std + 1e-4), 0 for unscorable rows. */
  advantages: tf.Tensor1D;
  /** [N]: Σ_f w_f r_f ignoring NaN (nansum); 0 for unscorable rows. */
  rewards: tf.Tensor1D;
  /** [N]: 1 where at least one reward function scored the row. */
  scorable: tf.Tensor1D;
  /** TRL's `reward` metric: mean reward over scorable rows. */
  reward: tf.Scalar;
  /** TRL's `reward_std`: mean over rows of the std used (group std for 'none'). */
  rewardStd: tf.Scalar;
  /** TRL's `frac_reward_zero_std`: share of rows whose std is ~0. */
  fracRewardZeroStd: tf.Scalar;
};

/** Below this a reward std is round-off, not signal (rewards are O(1); float32 sums of equal values drift ~1e-8). */
const ZERO_STD = 1e-6;

/** Masked mean and unbiased std along `axis` (kept); fewer than 2 scored rows give std 0. */
function maskedMeanStd(x: tf.Tensor, m: tf.Tensor, axis?: number): { mean: tf.Tensor; std: tf.Tensor } {
  const keep = axis !== undefined;
  const n = tf.sum(m, axis, keep);
  const mean = tf.div(tf.sum(tf.mul(x, m), axis, keep), tf.maximum(n, 1));
  const ss = tf.sum(tf.mul(m, tf.square(tf.sub(x, mean))), axis, keep);
  // n < 2 ⇒ ss = 0, so max(n − 1, 1) yields std 0 there (TRL: std 0 when a group has one row).
  return { mean, std: tf.sqrt(tf.div(ss, tf.maximum(tf.sub(n, 1), 1))) };
}

/**
 * rewardsPerFunc [N, F] with NaN where a function did not score a row; prompt i owns rows iG … iG+G−1.
 * Unscorable rows (every function NaN) are left out of their group's mean and std and get advantage 0.
 */
export function grpoAdvantages(
  rewardsPerFunc: tf.Tensor2D,
  opts: { numGenerations: number; rewardWeights?: number[]; scaleRewards?: ScaleRewards | boolean },
): GrpoAdvantagesOut {
  const [N, F] = rewardsPerFunc.shape;
  const G = opts.numGenerations;
  if (!Number.isInteger(G) || G < 1) throw new Error(`numGenerations must be a positive integer, got ${G}`);
  if (N % G !== 0) throw new Error(`the number of rows (${N}) is not divisible by numGenerations (${G})`);
  const weights = opts.rewardWeights ?? new Array<number>(F).fill(1);
  if (weights.length !== F) throw new Error(`rewardWeights has ${weights.length} entries for ${F} reward functions`);
  const scale = resolveScaleRewards(opts.scaleRewards);
  return tf.tidy(() => {
    const nan = tf.isNaN(rewardsPerFunc); // [N, F]
    const weighted = tf.mul(rewardsPerFunc, tf.tensor1d(weights)); // [N, F]
    const r = tf.sum(tf.where(nan, tf.zerosLike(weighted), weighted), 1) as tf.Tensor1D; // nansum, [N]
    const m = tf.cast(tf.any(tf.logicalNot(nan), 1), 'float32') as tf.Tensor1D; // [N]
    const P = N / G;
    const group = maskedMeanStd(tf.reshape(r, [P, G]), tf.reshape(m, [P, G]), 1); // [P, 1] each
    const mean = tf.reshape(tf.tile(group.mean, [1, G]), [N]);
    const groupStd = tf.reshape(tf.tile(group.std, [1, G]), [N]); // [N]
    const std = scale === 'batch' ? tf.mul(tf.onesLike(r), maskedMeanStd(r, m).std) : groupStd;
    let adv = tf.mul(tf.sub(r, mean), m);
    if (scale !== 'none') adv = tf.div(adv, tf.add(std, 1e-4));
    // Equal rewards leave float32 round-off (std ~1e-8) that 1e-4 would turn into ±1e-4 "advantages": snap to 0.
    adv = tf.where(tf.less(groupStd, ZERO_STD), tf.zerosLike(adv), adv);
    return {
      advantages: adv as tf.Tensor1D,
      rewards: r,
      scorable: m,
      reward: maskedTokenMean(r, m),
      rewardStd: tf.mean(std) as tf.Scalar,
      fracRewardZeroStd: tf.mean(tf.cast(tf.less(std, ZERO_STD), 'float32')) as tf.Scalar,
    };
  });
}

/** grpoAdvantages's outputs as numbers: what the trainer reads back anyway (advantages, the three metrics). */
export type GrpoAdvantageValues = {
  advantages: Float32Array;
  rewards: Float32Array;
  scorable: Float32Array;
  reward: number;
  rewardStd: number;
  fracRewardZeroStd: number;
};

const f32 = Math.fround;

/** maskedMeanStd over n entries of x and m read with `stride` from `start`: the same float32 operations in its order. */
function maskedMeanStdOf(x: Float32Array, m: Float32Array, start: number, n: number, stride = 1): { mean: number; std: number } {
  let count = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) count = f32(count + m[start + i * stride]);
  for (let i = 0; i < n; i++) sum = f32(sum + f32(x[start + i * stride] * m[start + i * stride]));
  const mean = f32(sum / Math.max(count, 1));
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = f32(x[start + i * stride] - mean);
    ss = f32(ss + f32(m[start + i * stride] * f32(d * d)));
  }
  return { mean, std: f32(Math.sqrt(f32(ss / Math.max(f32(count - 1), 1)))) };
}

/**
 * grpoAdvantages on plain arrays, with tfjs-wasm's numbers bit for bit: float32 after every operation, each sum from
 * its first term to its last (a test compares the two). Float64 division and square root rounded once to float32 equal
 * the float32 operations exactly (53 ≥ 2·24 + 2 bits). tfjs-cpu sums in float64 instead, so its numbers can differ in
 * the last bit: the trainer (lib/train/grpo-update.ts) picks the form by backend.
 */
export function grpoAdvantageValues(
  rewardsPerFunc: readonly (readonly number[])[],
  opts: { numGenerations: number; rewardWeights?: number[]; scaleRewards?: ScaleRewards | boolean },
): GrpoAdvantageValues {
  const N = rewardsPerFunc.length;
  const F = N > 0 ? rewardsPerFunc[0].length : 0;
  const G = opts.numGenerations;
  if (!Number.isInteger(G) || G < 1) throw new Error(`numGenerations must be a positive integer, got ${G}`);
  if (N % G !== 0) throw new Error(`the number of rows (${N}) is not divisible by numGenerations (${G})`);
  if (rewardsPerFunc.some((row) => row.length !== F)) throw new Error(`rewardsPerFunc is ragged: every row needs ${F} rewards`);
  const weights = (opts.rewardWeights ?? new Array<number>(F).fill(1)).map(f32);
  if (weights.length !== F) throw new Error(`rewardWeights has ${weights.length} entries for ${F} reward functions`);
  const scale = resolveScaleRewards(opts.scaleRewards);
  const r = new Float32Array(N);
  const m = new Float32Array(N);
  for (let i = 0; i < N; i++) {
    let sum = 0;
    let any = false;
    for (let j = 0; j < F; j++) {
      const v = f32(rewardsPerFunc[i][j]);
      if (Number.isNaN(v)) sum = f32(sum + 0);
      else {
        sum = f32(sum + f32(v * weights[j]));
        any = true;
      }
    }
    r[i] = sum;
    m[i] = any ? 1 : 0;
  }
  const groupMean = new Float32Array(N);
  const groupStd = new Float32Array(N);
  for (let p = 0; p < N / G; p++) {
    const { mean, std } = maskedMeanStdOf(r, m, p * G, G);
    groupMean.fill(mean, p * G, (p + 1) * G);
    groupStd.fill(std, p * G, (p + 1) * G);
  }
  const std = scale === 'batch' ? new Float32Array(N).fill(maskedMeanStdOf(r, m, 0, N).std) : groupStd;
  const zeroStd = f32(ZERO_STD);
  const advantages = new Float32Array(N);
  for (let i = 0; i < N; i++) {
    let a = f32(f32(r[i] - groupMean[i]) * m[i]);
    if (scale !== 'none') a = f32(a / f32(std[i] + f32(1e-4)));
    advantages[i] = groupStd[i] < zeroStd ? 0 : a;
  }
  let rewardSum = 0;
  let scored = 0;
  let stdSum = 0;
  let zeroCount = 0;
  for (let i = 0; i < N; i++) {
    rewardSum = f32(rewardSum + f32(r[i] * m[i]));
    scored = f32(scored + m[i]);
    stdSum = f32(stdSum + std[i]);
    zeroCount = f32(zeroCount + (std[i] < zeroStd ? 1 : 0));
  }
  return {
    advantages,
    rewards: r,
    scorable: m,
    reward: f32(rewardSum / Math.max(scored, 1)),
    rewardStd: f32(stdSum / N),
    fracRewardZeroStd: f32(zeroCount / N),
  };
}

export interface GrpoLossArgs {
  /** [B, T] per-token log-probs under the current policy (differentiated). */
  logps: tf.Tensor2D;
  /** [B, T] log-probs under the sampling policy; omitted = logps, not differentiated (ratio 1). */
  oldLogps?: tf.Tensor2D;
  /** [B, T] log-probs under the reference policy; required when beta ≠ 0. */
  refLogps?: tf.Tensor2D;
  /** [B] one advantage per completion. */
  advantages: tf.Tensor1D;
  /** [B, T] completion mask, 1 = real completion token. */
  mask: tf.Tensor2D;
  /** [B, T] per-token entropies, only for the `entropy` metric. */
  entropies?: tf.Tensor2D;
  lossType?: GrpoLossType;
  importanceSamplingLevel?: ImportanceSamplingLevel;
  beta?: number;
  epsilon?: number;
  epsilonHigh?: number;
  /** dr_grpo's constant denominator per row; defaults to T. */
  maxCompletionLength?: number;
  /** dapo's denominator: active tokens in the whole generation batch (gradient accumulation); defaults to Σ mask. */
  numItemsInBatch?: number;
  /** Also return the per-token terms the loss was built from (for the labs' token view). */
  withTerms?: boolean;
}

export type GrpoMetrics = {
  kl?: tf.Scalar;
  entropy?: tf.Scalar;
  'clip_ratio/low_mean': tf.Scalar;
  'clip_ratio/high_mean': tf.Scalar;
  'clip_ratio/region_mean': tf.Scalar;
  /** With oldLogps: the mean per-token ratio π/π_old, how far the policy moved from the one that sampled (1 on-policy). */
  'policy/ratio_mean'?: tf.Scalar;
};

/** Resolved GRPO hyper-parameters with TRL v1's defaults, validated. */
export function grpoConfig(a: Omit<GrpoLossArgs, 'logps' | 'oldLogps' | 'refLogps' | 'advantages' | 'mask' | 'withTerms'>) {
  const lossType = a.lossType ?? 'dapo';
  const level = a.importanceSamplingLevel ?? 'token';
  const beta = a.beta ?? 0;
  const epsilon = a.epsilon ?? 0.2;
  const epsilonHigh = a.epsilonHigh ?? epsilon;
  if (!(GRPO_LOSS_TYPES as readonly string[]).includes(lossType)) {
    throw new Error(`unknown lossType '${lossType}' (expected ${GRPO_LOSS_TYPES.join(', ')})`);
  }
  if (!(IMPORTANCE_SAMPLING_LEVELS as readonly string[]).includes(level)) {
    throw new Error(`unknown importanceSamplingLevel '${level}' (expected token or sequence)`);
  }
  if (!(beta >= 0) || !Number.isFinite(beta)) throw new Error(`beta must be a finite number ≥ 0, got ${beta}`);
  if (!(epsilon > 0) || !Number.isFinite(epsilon)) {
    throw new Error(`epsilon must be a finite number > 0, got ${epsilon}`);
  }
  if (!(epsilonHigh > 0) || !Number.isFinite(epsilonHigh)) {
    throw new Error(`epsilonHigh must be a finite number > 0, got ${epsilonHigh}`);
  }
  const { maxCompletionLength: L, numItemsInBatch: n } = a;
  if (L !== undefined && !(Number.isInteger(L) && L > 0)) {
    throw new Error(`maxCompletionLength must be a positive integer, got ${L}`);
  }
  if (n !== undefined && !(n > 0)) throw new Error(`numItemsInBatch must be > 0, got ${n}`);
  return { lossType, level, beta, epsilon, epsilonHigh, maxCompletionLength: L, numItemsInBatch: n };
}

function checkSame(name: string, t: tf.Tensor | undefined, shape: number[]): void {
  if (t && (t.rank !== 2 || t.shape[0] !== shape[0] || t.shape[1] !== shape[1])) {
    throw new Error(`${name} must be [${shape}], got [${t.shape}]`);
  }
}

export type GrpoLossOut = { loss: tf.Scalar; metrics: GrpoMetrics; terms?: GrpoTokenTerms };

/** grpoLoss's arguments checked (shapes, hyper-parameters), with the resolved config and [B, T]. */
export function checkGrpoLossArgs(args: GrpoLossArgs) {
  const { logps, oldLogps, refLogps, advantages, mask, entropies } = args;
  const cfg = grpoConfig(args);
  if (logps.rank !== 2) throw new Error(`logps must be [B, T], got [${logps.shape}]`);
  const [B, T] = logps.shape;
  const sameShape = { oldLogps, refLogps, mask, entropies };
  for (const [k, t] of Object.entries(sameShape)) checkSame(k, t, [B, T]);
  if (advantages.rank !== 1 || advantages.shape[0] !== B) {
    throw new Error(`advantages must be [${B}], got [${advantages.shape}]`);
  }
  if (cfg.beta !== 0 && !refLogps) throw new Error('refLogps is required when beta ≠ 0');
  return { cfg, B, T };
}

/**
 * TRL's GRPO loss: −min(w·A, clip(w, 1−ε, 1+ε_high)·A) + β·KL per token, aggregated by lossType,
 * where w is exp(lp − old) per token, or exp of the masked mean token log-ratio per sequence (GSPO).
 * Inside optimizer.minimize / tf.variableGrads only the returned loss survives the tape's tidy:
 * tf.keep() the metric tensors (and `terms`, with withTerms) you want to read, and dispose them after reading.
 */
export function grpoLoss(args: GrpoLossArgs): GrpoLossOut {
  const { logps, oldLogps, refLogps, advantages, mask, entropies } = args;
  const { cfg, B, T } = checkGrpoLossArgs(args);
  return tf.tidy(() => {
    const m = asFloat(mask); // [B, T]
    const A = tf.reshape(advantages, [B, 1]);
    const old = oldLogps ?? stopGradient(logps);
    const terms = grpoTokenTerms({
      logps, oldLogps: old, refLogps, advantages: A, mask: m, level: cfg.level, beta: cfg.beta, epsilon: cfg.epsilon, epsilonHigh: cfg.epsilonHigh,
    });
    const { logRatio, ratio: coef1, clippedLow: low, clippedHigh: high, kl, perToken } = terms;
    const masked = tf.mul(perToken, m); // [B, T]
    let loss: tf.Tensor;
    if (cfg.lossType === 'grpo') {
      loss = tf.mean(tf.div(tf.sum(masked, -1), tf.maximum(tf.sum(m, -1), 1)));
    } else if (cfg.lossType === 'bnpo') {
      loss = maskedTokenMean(perToken, m);
    } else if (cfg.lossType === 'dr_grpo') {
      loss = tf.div(tf.sum(masked), B * (cfg.maxCompletionLength ?? T));
    } else {
      loss = tf.div(tf.sum(masked), cfg.numItemsInBatch ?? tf.maximum(tf.sum(m), 1));
    }
    // TRL's masked_batch_mean: per sequence when the ratio is [B, 1], per token otherwise.
    const batchMean = (x: tf.Tensor): tf.Scalar =>
      cfg.level === 'sequence' ? (tf.mean(x) as tf.Scalar) : maskedTokenMean(x, m);
    const metrics: GrpoMetrics = {
      'clip_ratio/low_mean': batchMean(tf.cast(low, 'float32')),
      'clip_ratio/high_mean': batchMean(tf.cast(high, 'float32')),
      'clip_ratio/region_mean': batchMean(tf.cast(tf.logicalOr(low, high), 'float32')),
    };
    if (kl) metrics.kl = maskedTokenMean(kl, m);
    if (entropies) metrics.entropy = maskedTokenMean(entropies, m);
    // Per token at either level; exp of the masked log-ratio, so padding can never overflow into Inf · 0 = NaN.
    if (oldLogps) metrics['policy/ratio_mean'] = maskedTokenMean(cfg.level === 'token' ? coef1 : tf.exp(logRatio), m);
    return { loss: loss as tf.Scalar, metrics, ...(args.withTerms ? { terms } : {}) };
  });
}
