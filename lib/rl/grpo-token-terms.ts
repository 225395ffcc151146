/**
 * The per-token quantities of TRL's GRPO loss (chapter 6, "The clipped objective" to "Aggregating the loss over
 * tokens"), in one place so that the loss (lib/rl/grpo.ts) and the labs' token view read the same numbers:
 *
 *   ρ_{i,t} = exp(log π_θ − log π_θ_old)             the importance ratio, per token; GSPO: s_i, one per sequence
 *   ℓ_{i,t} = −min(ρ·Â_i, clip(ρ, 1−ε, 1+ε_high)·Â_i) + β·k3_{i,t}
 *   k3_{i,t} = u − log u − 1, u = π_ref / π_θ         the KL term (only when β > 0)
 *   loss    = Σ_{i,t} weight_{i,t} · ℓ_{i,t}           weight set by loss_type (grpoLossWeights)
 *
 * A token is "clipped" as TRL's clip_ratio metrics count it: below 1 − ε with Â < 0 (low) or above 1 + ε_high with
 * Â > 0 (high), the two cases where the clipped term wins the min and the token's gradient is zero.
 */
import * as tf from '@tensorflow/tfjs';

import type { GrpoLossType, ImportanceSamplingLevel } from './choices';

export interface GrpoTokenTermsArgs {
  /** [B, T] log-probs under the policy being trained. */
  logps: tf.Tensor2D;
  /** [B, T] log-probs under the sampling policy (logps, detached, on-policy). */
  oldLogps: tf.Tensor;
  /** [B, T] log-probs under the reference; used only when beta ≠ 0. */
  refLogps?: tf.Tensor2D;
  /** [B, 1] one advantage per completion. */
  advantages: tf.Tensor;
  /** [B, T] float completion mask. */
  mask: tf.Tensor;
  level: ImportanceSamplingLevel;
  beta: number;
  epsilon: number;
  epsilonHigh: number;
}

// A type, not an interface: tf.tidy returns it, and only types meet TensorContainer's index signature.
export type GrpoTokenTerms = {
  /** [B, T] log π_θ − log π_θ_old, 0 on padding (exp stays finite there). */
  logRatio: tf.Tensor;
  /** ρ: [B, T] per token, or [B, 1] per sequence (GSPO's s_i). */
  ratio: tf.Tensor;
  /** clip(ρ, 1 − ε, 1 + ε_high), the same shape as ratio. */
  clippedRatio: tf.Tensor;
  /** bool, ratio's shape: ρ < 1 − ε with Â < 0 (clip_ratio/low). */
  clippedLow: tf.Tensor;
  /** bool, ratio's shape: ρ > 1 + ε_high with Â > 0 (clip_ratio/high). */
  clippedHigh: tf.Tensor;
  /** [B, T] k3 = exp(ref − lp) − (ref − lp) − 1 (0 on padding); undefined when β = 0. */
  kl?: tf.Tensor;
  /** ℓ before the mask: [B, T], or [B, 1] at the sequence level with β = 0 (broadcast over tokens by the mask). */
  perToken: tf.Tensor;
  /** The same numbers on plain arrays, where the loss computed them there (grpo-fused.ts), with the mask and Â. */
  values?: GrpoTokenTermValues;
};

/** Per-token terms [B·T] row-major (ratio per token), the float mask [B·T] and the advantages [B], as float32 numbers. */
export type GrpoTokenTermValues = {
  B: number;
  T: number;
  ratio: Float32Array;
  clippedLow: Uint8Array;
  clippedHigh: Uint8Array;
  perToken: Float32Array;
  mask: Float32Array;
  advantages: Float32Array;
};

/** The per-token terms of the GRPO loss (no aggregation); differentiable in logps. */
export function grpoTokenTerms(a: GrpoTokenTermsArgs): GrpoTokenTerms {
  const { logps, oldLogps, advantages: A, mask: m } = a;
  const logRatio = tf.mul(tf.sub(logps, oldLogps), m); // [B, T]
  const logW =
    a.level === 'token'
      ? logRatio
      : tf.div(tf.sum(logRatio, -1, true), tf.maximum(tf.sum(m, -1, true), 1)); // [B, 1]
  const ratio = tf.exp(logW);
  const clippedRatio = tf.clipByValue(ratio, 1 - a.epsilon, 1 + a.epsilonHigh);
  let perToken = tf.neg(tf.minimum(tf.mul(ratio, A), tf.mul(clippedRatio, A))); // [B, T] or [B, 1]
  let kl: tf.Tensor | undefined;
  if (a.beta !== 0) {
    const d = tf.mul(tf.sub(a.refLogps as tf.Tensor2D, logps), m); // ref − lp, [B, T]
    kl = tf.sub(tf.sub(tf.exp(d), d), 1);
    perToken = tf.add(perToken, tf.mul(kl, a.beta));
  }
  const clippedLow = tf.logicalAnd(tf.less(ratio, 1 - a.epsilon), tf.less(A, 0));
  const clippedHigh = tf.logicalAnd(tf.greater(ratio, 1 + a.epsilonHigh), tf.greater(A, 0));
  return { logRatio, ratio, clippedRatio, clippedLow, clippedHigh, kl, perToken };
}

/**
 * [B, T]: the weight each token's ℓ_{i,t} carries in the loss under `lossType` (chapter 6's table "A 2-token and an
 * 8-token completion"): grpo 1/(B·|y_i|), bnpo and dapo 1/Σ|y| (dapo: numItemsInBatch when given), dr_grpo
 * 1/(B·L_max); 0 on padding. grpoLoss aggregates with the same denominators (a unit test holds Σ weight·ℓ = loss).
 */
export function grpoLossWeights(
  mask: tf.Tensor2D,
  opts: { lossType: GrpoLossType; maxCompletionLength?: number; numItemsInBatch?: number },
): tf.Tensor2D {
  return tf.tidy(() => {
    const [B, T] = mask.shape;
    const m = mask.dtype === 'float32' ? mask : tf.cast(mask, 'float32');
    let denominator: tf.Tensor;
    if (opts.lossType === 'grpo') denominator = tf.mul(tf.maximum(tf.sum(m, -1, true), 1), B); // [B, 1]
    else if (opts.lossType === 'dr_grpo') denominator = tf.scalar(B * (opts.maxCompletionLength ?? T));
    else if (opts.lossType === 'dapo' && opts.numItemsInBatch !== undefined) denominator = tf.scalar(opts.numItemsInBatch);
    else denominator = tf.maximum(tf.sum(m), 1);
    return tf.div(m, denominator) as tf.Tensor2D;
  });
}

/**
 * grpoLossWeights on a float32 mask [B·T] (row-major), with tfjs-wasm's numbers bit for bit (float32 operations, sums
 * first element to last; a test compares the two). For the token view where the loss ran on arrays.
 */
export function grpoLossWeightValues(
  mask: Float32Array,
  B: number,
  T: number,
  opts: { lossType: GrpoLossType; maxCompletionLength?: number; numItemsInBatch?: number },
): Float32Array {
  const f32 = Math.fround;
  const out = new Float32Array(B * T);
  const rowDenominator = (b: number): number => {
    if (opts.lossType === 'grpo') {
      let count = 0;
      for (let t = 0; t < T; t++) count = f32(count + mask[b * T + t]);
      return f32(Math.max(count, 1) * B);
    }
    if (opts.lossType === 'dr_grpo') return f32(B * (opts.maxCompletionLength ?? T));
    if (opts.lossType === 'dapo' && opts.numItemsInBatch !== undefined) return f32(opts.numItemsInBatch);
    let count = 0;
    for (let i = 0; i < B * T; i++) count = f32(count + mask[i]);
    return Math.max(count, 1);
  };
  const shared = opts.lossType === 'grpo' ? 0 : rowDenominator(0);
  for (let b = 0; b < B; b++) {
    const d = opts.lossType === 'grpo' ? rowDenominator(b) : shared;
    for (let t = 0; t < T; t++) out[b * T + t] = f32(mask[b * T + t] / d);
  }
  return out;
}
