/**
 * grpoLoss (./grpo.ts) for the configurations most runs use, importance sampling per token and β = 0, computed on plain
 * arrays: the forward pass, its six metrics, the token view's terms and autodiff's backward pass for the log-probs,
 * with tfjs-wasm's numbers bit for bit. Stock, that loss is some 45 tfjs kernels forward and 25 backward on [B, T]
 * tensors (64 × 15 in the GRPO lab), each a few µs of engine bookkeeping around a few hundred flops; here it is one
 * read of the inputs, two loops, and one tensor for the gradient.
 *
 * Each number is the float32 operation tfjs runs, in its order (Math.fround after every step; float64 rounded once to
 * float32 is the float32 result for +, −, ×, ÷): sums from 0, first element to last, as tfjs-wasm's Sum and Mean
 * compute them (tfjs-cpu sums in float64, so this matches wasm only: the trainer calls it on the wasm fast paths);
 * exp is musl's expf (./expf.ts), as tfjs-wasm's Exp is. The backward pass is what tfjs-core 4.22's gradients give:
 *   Div:      d a = dy / b                          Sum, Mean:  dy · 1, spread over what was summed (÷ n for Mean)
 *   Multiply: d a = dy · b                          Neg:        −dy
 *   Minimum:  d a = dy · [a ≤ b],  d b = dy · [a > b]
 *   ClipByValue: dy where lo ≤ x ≤ hi, else 0       Exp:        dy · exp(x)
 *   Sub:      d a = dy
 * and ρ's two gradients (through the clip and directly) are added as the tape adds them: the direct one first. On-policy
 * the old log-probs are the log-probs themselves behind stopGradient, whose zero gradient the tape adds last (+0).
 * A test runs both on random batches, every loss type, on- and off-policy, ties at the clip bounds and at the minimum.
 */
import * as tf from '@tensorflow/tfjs';

import { expf } from './expf';
import { checkGrpoLossArgs, grpoConfig, type GrpoLossArgs, type GrpoLossOut, type GrpoMetrics } from './grpo';

const f32 = Math.fround;

/** Whether grpoLossOnArrays computes this configuration (else grpoLoss must). */
export function grpoLossOnArraysCovers(args: Parameters<typeof grpoConfig>[0]): boolean {
  const cfg = grpoConfig(args);
  return cfg.level === 'token' && cfg.beta === 0;
}

/** grpoLoss's result for a configuration grpoLossOnArraysCovers; call it on the wasm backend (see above). */
export function grpoLossOnArrays(args: GrpoLossArgs): GrpoLossOut {
  const { cfg, B, T } = checkGrpoLossArgs(args);
  if (cfg.level !== 'token' || cfg.beta !== 0) throw new Error('grpoLossOnArrays: per-token importance sampling with beta 0 only (grpoLoss computes the rest)');
  const n = B * T;
  const onPolicy = args.oldLogps === undefined;
  const lo = f32(1 - cfg.epsilon);
  const hi = f32(1 + cfg.epsilonHigh);
  // dataSync gives a copy; a float32 tensor's is already a Float32Array (a bool or int mask is cast, as asFloat does).
  const floats = (t: tf.Tensor) => {
    const values = t.dataSync();
    return values instanceof Float32Array ? values : Float32Array.from(values as ArrayLike<number>);
  };
  const A = floats(args.advantages);
  const m = floats(args.mask);
  const entropies = args.entropies?.dataSync();

  // Forward values kept for the backward pass and the token view.
  const logRatio = new Float32Array(n);
  const ratio = new Float32Array(n);
  const clipped = new Float32Array(n);
  const perToken = new Float32Array(n);
  const low = new Uint8Array(n);
  const high = new Uint8Array(n);
  const minIsDirect = new Uint8Array(n); // [ρ·Â ≤ clip(ρ)·Â]: which side of the minimum the gradient takes
  const rowSum = new Float32Array(B);
  const rowCount = new Float32Array(B);
  let sum = 0; // Σ ℓ·m, first token to last
  let count = 0; // Σ m
  let lowSum = 0;
  let highSum = 0;
  let regionSum = 0;
  let entropySum = 0;
  let ratioSum = 0;

  const forward = (lp: ArrayLike<number>, old: ArrayLike<number>) => {
    for (let b = 0; b < B; b++) {
      const a = A[b];
      let rs = 0;
      let rc = 0;
      for (let t = 0; t < T; t++) {
        const i = b * T + t;
        const mi = m[i];
        const lr = f32(f32(lp[i] - old[i]) * mi);
        const r = expf(lr);
        const c = r < lo ? lo : r > hi ? hi : r; // clipByValue; NaN passes through
        const direct = f32(r * a);
        const viaClip = f32(c * a);
        const isDirect = direct <= viaClip;
        const l = -(isDirect ? direct : viaClip);
        logRatio[i] = lr;
        ratio[i] = r;
        clipped[i] = c;
        perToken[i] = l;
        minIsDirect[i] = isDirect ? 1 : 0;
        low[i] = r < lo && a < 0 ? 1 : 0;
        high[i] = r > hi && a > 0 ? 1 : 0;
        const masked = f32(l * mi);
        sum = f32(sum + masked);
        count = f32(count + mi);
        rs = f32(rs + masked);
        rc = f32(rc + mi);
        lowSum = f32(lowSum + f32(low[i] * mi));
        highSum = f32(highSum + f32(high[i] * mi));
        regionSum = f32(regionSum + f32((low[i] | high[i]) * mi));
        if (entropies) entropySum = f32(entropySum + f32(entropies[i] * mi));
        ratioSum = f32(ratioSum + f32(r * mi));
      }
      rowSum[b] = rs;
      rowCount[b] = rc;
    }
  };

  const denominator = (): number => {
    if (cfg.lossType === 'dr_grpo') return f32(B * (cfg.maxCompletionLength ?? T));
    if (cfg.lossType === 'dapo' && cfg.numItemsInBatch !== undefined) return f32(cfg.numItemsInBatch);
    return Math.max(count, 1);
  };

  const lossValue = (): number => {
    if (cfg.lossType !== 'grpo') return f32(sum / denominator());
    let total = 0;
    for (let b = 0; b < B; b++) total = f32(total + f32(rowSum[b] / Math.max(rowCount[b], 1)));
    return f32(total / B);
  };

  /** d loss / d logps for an upstream gradient dy, as autodiff computes it through the ops grpoLoss runs. */
  const backward = (dy: number): Float32Array => {
    const grad = new Float32Array(n);
    const dMean = cfg.lossType === 'grpo' ? f32(f32(dy * 1) / B) : 0;
    const dSum = cfg.lossType === 'grpo' ? 0 : f32(dy / denominator());
    for (let b = 0; b < B; b++) {
      const a = A[b];
      const dMasked = cfg.lossType === 'grpo' ? f32(f32(dMean / Math.max(rowCount[b], 1)) * 1) : f32(dSum * 1);
      for (let t = 0; t < T; t++) {
        const i = b * T + t;
        const mi = m[i];
        const dMin = -f32(dMasked * mi);
        const dDirect = f32(dMin * minIsDirect[i]);
        const dViaClip = f32(dMin * (1 - minIsDirect[i]));
        const dClipped = f32(dViaClip * a);
        const r = ratio[i];
        const dRatio = f32(f32(dDirect * a) + (r >= lo && r <= hi ? dClipped : 0));
        const dLogRatio = f32(dRatio * r);
        const d = f32(dLogRatio * mi);
        grad[i] = onPolicy ? d + 0 : d;
      }
    }
    return grad;
  };

  const op = tf.customGrad((lpIn) => {
    const lpValues = (lpIn as tf.Tensor).dataSync();
    forward(lpValues, onPolicy ? lpValues : (args.oldLogps as tf.Tensor).dataSync());
    return { value: tf.scalar(lossValue()), gradFunc: (dy: tf.Tensor) => tf.tensor2d(backward(dy.dataSync()[0]), [B, T]) };
  });
  const lossTensor = op(args.logps) as tf.Scalar;

  const tokenMean = (s: number) => tf.scalar(f32(s / Math.max(count, 1)));
  const metrics: GrpoMetrics = {
    'clip_ratio/low_mean': tokenMean(lowSum),
    'clip_ratio/high_mean': tokenMean(highSum),
    'clip_ratio/region_mean': tokenMean(regionSum),
  };
  if (entropies) metrics.entropy = tokenMean(entropySum);
  if (!onPolicy) metrics['policy/ratio_mean'] = tokenMean(ratioSum);
  if (!args.withTerms) return { loss: lossTensor, metrics };
  const bt = (x: Float32Array) => tf.tensor2d(x, [B, T]);
  return {
    loss: lossTensor,
    metrics,
    terms: {
      values: { B, T, ratio, clippedLow: low, clippedHigh: high, perToken, mask: m, advantages: A },
      logRatio: bt(logRatio),
      ratio: bt(ratio),
      clippedRatio: bt(clipped),
      clippedLow: tf.tensor2d(low, [B, T], 'bool'),
      clippedHigh: tf.tensor2d(high, [B, T], 'bool'),
      perToken: bt(perToken),
    },
  };
}
