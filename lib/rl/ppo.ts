// PPO (TRL PPOTrainer): masked statistics, GAE, clipped policy loss and clipped value loss.
import * as tf from '@tensorflow/tfjs';

import { asFloat } from './ops';

/** TRL's masked_mean: Σ(x · mask) / Σ mask, over everything or along `axis`. */
export function maskedMean(values: tf.Tensor, mask: tf.Tensor, axis?: number): tf.Tensor {
  return tf.tidy(() => {
    const m = asFloat(mask);
    return tf.div(tf.sum(tf.mul(values, m), axis), tf.sum(m, axis));
  });
}

/** TRL's masked_var: masked mean of squared deviations, × n/(n − 1) when unbiased. */
export function maskedVar(values: tf.Tensor, mask: tf.Tensor, unbiased = true): tf.Scalar {
  return tf.tidy(() => {
    const m = asFloat(mask);
    const mean = maskedMean(values, m);
    const variance = maskedMean(tf.square(tf.sub(values, mean)), m);
    if (!unbiased) return variance as tf.Scalar;
    const n = tf.sum(m);
    return tf.mul(variance, tf.div(n, tf.sub(n, 1))) as tf.Scalar; // Bessel; n = 1 divides by zero, as in TRL
  });
}

/** TRL's masked_whiten: (x − mean) · rsqrt(var + 1e-8); shiftMean=false adds the mean back. */
export function maskedWhiten<T extends tf.Tensor>(values: T, mask: tf.Tensor, shiftMean = true): T {
  return tf.tidy(() => {
    const mean = maskedMean(values, mask);
    const whitened = tf.mul(tf.sub(values, mean), tf.rsqrt(tf.add(maskedVar(values, mask), 1e-8)));
    return (shiftMean ? whitened : tf.add(whitened, mean)) as T;
  });
}

export interface GaeArgs {
  /** [B, T] per-step rewards and value estimates. */
  rewards: tf.Tensor2D;
  values: tf.Tensor2D;
  gamma: number;
  lam: number;
  /** [B, T]: 1 where step t begins a new episode (nothing bootstraps across it). */
  dones?: tf.Tensor2D;
  /** [B]: value of the state after the last step, and whether it begins a new episode. Default 0, 0. */
  nextValue?: tf.Tensor1D;
  nextDone?: tf.Tensor1D;
}

/** Upper-triangular discount matrix D[t, s] = (γλ)^(s − t) for s ≥ t, else 0: [T, T]. */
function discountMatrix(T: number, gl: number): tf.Tensor2D {
  const d = new Float32Array(T * T);
  for (let t = 0; t < T; t++) for (let s = t; s < T; s++) d[t * T + s] = gl ** (s - t);
  return tf.tensor2d(d, [T, T]);
}

/**
 * GAE with no loop over time: δ_t = r_t + γ V_{t+1} (1 − done_{t+1}) − V_t and
 * A_t = Σ_{s ≥ t} (γλ)^(s−t) δ_s over the steps s still in t's episode, i.e. the reverse recursion
 * A_t = δ_t + γλ (1 − done_{t+1}) A_{t+1}, as one matmul. returns = A + V.
 * With no dones and nextValue 0 this is TRL's PPOTrainer GAE.
 */
export function gae(args: GaeArgs): { advantages: tf.Tensor2D; returns: tf.Tensor2D } {
  const { rewards, values, gamma, lam, dones, nextValue, nextDone } = args;
  if (rewards.rank !== 2) throw new Error(`rewards must be [B, T], got [${rewards.shape}]`);
  const [B, T] = rewards.shape;
  for (const [k, t] of [['values', values], ['dones', dones]] as const) {
    if (t && (t.rank !== 2 || t.shape[0] !== B || t.shape[1] !== T)) {
      throw new Error(`${k} must be [${B}, ${T}], got [${t.shape}]`);
    }
  }
  for (const [k, t] of [['nextValue', nextValue], ['nextDone', nextDone]] as const) {
    if (t && (t.rank !== 1 || t.shape[0] !== B)) throw new Error(`${k} must be [${B}], got [${t.shape}]`);
  }
  if (!(gamma >= 0 && gamma <= 1) || !(lam >= 0 && lam <= 1)) {
    throw new Error(`gamma and lam must be in [0, 1], got gamma=${gamma}, lam=${lam}`);
  }
  return tf.tidy(() => {
    const v1 = tf.reshape(nextValue ?? tf.zeros([B]), [B, 1]);
    const d1 = tf.reshape(nextDone ?? tf.zeros([B]), [B, 1]);
    const nextValues = tf.concat([tf.slice(values, [0, 1], [B, T - 1]), v1], 1); // V_{t+1}, [B, T]
    const inner = dones ? tf.slice(dones, [0, 1], [B, T - 1]) : tf.zeros([B, T - 1]);
    const notDoneNext = tf.sub(1, tf.concat([inner, d1], 1)); // 1 − done_{t+1}, [B, T]
    const delta = tf.sub(tf.add(rewards, tf.mul(tf.mul(nextValues, notDoneNext), gamma)), values); // [B, T]
    const D = discountMatrix(T, gamma * lam);
    let adv: tf.Tensor;
    if (!dones) {
      adv = tf.matMul(delta, D, false, true); // A[b, t] = Σ_s δ[b, s] D[t, s]
    } else {
      const episode = tf.cumsum(dones, 1); // episode id of each step, [B, T]
      const same = tf.equal(tf.expandDims(episode, 2), tf.expandDims(episode, 1)); // [B, T, T]
      const W = tf.mul(tf.cast(same, 'float32'), D); // [B, T, T]
      adv = tf.reshape(tf.matMul(W, tf.expandDims(delta, 2)), [B, T]);
    }
    return { advantages: adv as tf.Tensor2D, returns: tf.add(adv, values) as tf.Tensor2D };
  });
}

export interface PpoPolicyLossArgs {
  /** [B, T] log-probs under the current policy (differentiated). */
  newLogprobs: tf.Tensor2D;
  /** [B, T] log-probs recorded at rollout time. */
  oldLogprobs: tf.Tensor2D;
  /** [B, T] per-token advantages (usually whitened). */
  advantages: tf.Tensor2D;
  /** [B, T] 1 = padding (TRL's padding_mask). */
  paddingMask: tf.Tensor2D;
  cliprange?: number;
}

/**
 * pg_loss = masked mean of max(−A·ρ, −A·clip(ρ, 1−c, 1+c)); pg_clipfrac = masked mean of (clipped > unclipped);
 * approxKl = ½ masked mean of (Δ log p)².
 */
export function ppoPolicyLoss(args: PpoPolicyLossArgs): {
  pgLoss: tf.Scalar;
  pgClipfrac: tf.Scalar;
  approxKl: tf.Scalar;
} {
  const c = args.cliprange ?? 0.2;
  if (!(c > 0) || !Number.isFinite(c)) throw new Error(`cliprange must be a finite number > 0, got ${c}`);
  return tf.tidy(() => {
    const valid = tf.sub(1, asFloat(args.paddingMask)); // [B, T]
    const diff = tf.mul(tf.sub(args.newLogprobs, args.oldLogprobs), valid); // 0 on padding keeps exp finite
    const ratio = tf.exp(diff);
    const pg1 = tf.mul(tf.neg(args.advantages), ratio);
    const pg2 = tf.mul(tf.neg(args.advantages), tf.clipByValue(ratio, 1 - c, 1 + c));
    return {
      pgLoss: maskedMean(tf.maximum(pg1, pg2), valid) as tf.Scalar,
      pgClipfrac: maskedMean(tf.cast(tf.greater(pg2, pg1), 'float32'), valid) as tf.Scalar,
      approxKl: tf.mul(maskedMean(tf.square(diff), valid), 0.5) as tf.Scalar,
    };
  });
}

export interface PpoValueLossArgs {
  /** [B, T] value-head predictions now (differentiated). */
  vpred: tf.Tensor2D;
  /** [B, T] value predictions recorded at rollout time. */
  values: tf.Tensor2D;
  /** [B, T] GAE returns. */
  returns: tf.Tensor2D;
  /** [B, T] 1 = valid step (TRL's ~padding_mask_p1). */
  validMask: tf.Tensor2D;
  cliprangeValue?: number;
}

/**
 * vf_loss = ½ · masked mean of max((v − R)², (clip(v, V_old ± c) − R)²);
 * vf_clipfrac = masked share where the clipped error is the larger.
 */
export function ppoValueLoss(args: PpoValueLossArgs): { vfLoss: tf.Scalar; vfClipfrac: tf.Scalar } {
  const c = args.cliprangeValue ?? 0.2;
  if (!(c > 0) || !Number.isFinite(c)) throw new Error(`cliprangeValue must be a finite number > 0, got ${c}`);
  return tf.tidy(() => {
    const m = asFloat(args.validMask);
    // clipByValue only takes scalar bounds; per-element bounds are max then min.
    const vclipped = tf.minimum(tf.maximum(args.vpred, tf.sub(args.values, c)), tf.add(args.values, c));
    const vf1 = tf.square(tf.sub(args.vpred, args.returns));
    const vf2 = tf.square(tf.sub(vclipped, args.returns));
    return {
      vfLoss: tf.mul(maskedMean(tf.maximum(vf1, vf2), m), 0.5) as tf.Scalar,
      vfClipfrac: maskedMean(tf.cast(tf.greater(vf2, vf1), 'float32'), m) as tf.Scalar,
    };
  });
}

/**
 * gae() on plain arrays, for PPO's fused update (lib/train/ppo-kernel), as the reverse recursion
 * A_t = δ_t + γλ (1 − done_{t+1}) A_{t+1} with δ_t = r_t + γ V_{t+1} (1 − done_{t+1}) − V_t, in float64, rows env-major
 * ([B, T] flattened). Same quantities as gae() up to float32 rounding (that one sums the series as a matmul).
 */
export function gaeOnArrays(args: {
  rewards: Float32Array;
  values: Float32Array;
  dones: Float32Array;
  nextValue: Float32Array;
  nextDone: Float32Array;
  gamma: number;
  lam: number;
}): { advantages: Float64Array; returns: Float64Array } {
  const { rewards, values, dones, nextValue, nextDone, gamma, lam } = args;
  const B = nextValue.length;
  const T = rewards.length / B;
  if (!Number.isInteger(T) || values.length !== B * T || dones.length !== B * T || nextDone.length !== B) {
    throw new Error(`gaeOnArrays: rewards, values and dones must be [${B}, T] and nextDone [${B}]`);
  }
  if (!(gamma >= 0 && gamma <= 1) || !(lam >= 0 && lam <= 1)) throw new Error(`gamma and lam must be in [0, 1], got gamma=${gamma}, lam=${lam}`);
  const advantages = new Float64Array(B * T);
  const returns = new Float64Array(B * T);
  for (let b = 0; b < B; b++) {
    let next = 0;
    for (let t = T - 1; t >= 0; t--) {
      const i = b * T + t;
      const last = t === T - 1;
      const notDoneNext = 1 - (last ? nextDone[b] : dones[i + 1]);
      const delta = rewards[i] + gamma * (last ? nextValue[b] : values[i + 1]) * notDoneNext - values[i];
      next = delta + gamma * lam * notDoneNext * next;
      advantages[i] = next;
      returns[i] = next + values[i];
    }
  }
  return { advantages, returns };
}

/** maskedWhiten() over a whole plain array (every entry valid): (x − mean) / √(unbiased variance + 1e-8), in float64. */
export function whitenArray(x: Float64Array): Float64Array {
  const n = x.length;
  const mean = x.reduce((s, v) => s + v, 0) / n;
  const variance = (x.reduce((s, v) => s + (v - mean) ** 2, 0) / n) * (n / (n - 1));
  const scale = 1 / Math.sqrt(variance + 1e-8);
  return x.map((v) => (v - mean) * scale);
}
