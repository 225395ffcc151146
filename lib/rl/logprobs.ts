// Per-token log-probs and entropies of completion tokens (TRL's selective_log_softmax / entropy_from_logits).
import * as tf from '@tensorflow/tfjs';

import { fusedEntropy, fusedLogSoftmax, fusedPick, logprobKernelApplies } from '@/lib/models/logprob-kernel/logprobs';
import { asFloat } from './ops';

function checkShapes(logits: tf.Tensor, targets: tf.Tensor, temperature: number): void {
  if (logits.rank !== 3) throw new Error(`logits must be [B, T, V], got shape [${logits.shape}]`);
  if (targets.rank !== 2 || targets.shape[0] !== logits.shape[0] || targets.shape[1] !== logits.shape[1]) {
    throw new Error(`targets must be [B, T] = [${logits.shape.slice(0, 2)}], got [${targets.shape}]`);
  }
  if (!(temperature > 0)) throw new Error(`temperature must be > 0, got ${temperature}`);
}

/** log softmax(logits / temperature): TRL divides by the sampling temperature before scoring. */
function scaledLogSoftmax(logits: tf.Tensor3D, temperature: number): tf.Tensor3D {
  return tf.logSoftmax(temperature === 1 ? logits : tf.div(logits, temperature)) as tf.Tensor3D;
}

/**
 * The log-softmax of logits [B, T, V] / temperature as rows [B·T, V], with the pick of targets [B, T] and the entropy
 * on request, through the fused kernels (lib/models/logprob-kernel: the same numbers bit for bit) where they apply
 * (wasm, fast paths on); null elsewhere.
 */
function fused(logits: tf.Tensor3D, targets: tf.Tensor2D | null, temperature: number, withEntropy: boolean) {
  if (logits.dtype !== 'float32' || !logprobKernelApplies()) return null;
  const [B, T, V] = logits.shape;
  const logp = fusedLogSoftmax(tf.reshape(logits, [B * T, V]) as tf.Tensor2D, temperature);
  const ids = targets && (tf.reshape(targets.dtype === 'int32' ? targets : tf.cast(targets, 'int32'), [B * T]) as tf.Tensor1D);
  return {
    logps: ids ? (tf.reshape(fusedPick(logp, ids), [B, T]) as tf.Tensor2D) : null,
    entropy: withEntropy ? (tf.reshape(fusedEntropy(logp), [B, T]) as tf.Tensor2D) : null,
  };
}

/**
 * Picks logp[b, t, targets[b, t]]. tf.gather's gradient fails on the wasm backend, so the pick is a
 * one-hot product and a sum over V (a target outside [0, V) gives 0).
 */
function pick(logp: tf.Tensor3D, targets: tf.Tensor2D): tf.Tensor2D {
  const V = logp.shape[2];
  const ids = targets.dtype === 'int32' ? targets : tf.cast(targets, 'int32');
  // int32 then cast: wasm's OneHot ignores the dtype argument and writes int32 bits into a float32 tensor.
  const onehot = tf.cast(tf.oneHot(ids, V), 'float32'); // [B, T, V]
  return tf.sum(tf.mul(logp, onehot), -1) as tf.Tensor2D; // [B, T]
}

/**
 * Per-token log-probs of `targets` under `logits / temperature`.
 * logits [B, T, V] (row t already predicts targets[:, t]), targets int32 [B, T] → [B, T].
 * With a `mask` [B, T], masked positions come back as 0.
 */
export function completionLogprobs(
  logits: tf.Tensor3D,
  targets: tf.Tensor2D,
  temperature = 1,
  mask?: tf.Tensor2D,
): tf.Tensor2D {
  checkShapes(logits, targets, temperature);
  return tf.tidy(() => {
    const lp = fused(logits, targets, temperature, false)?.logps ?? pick(scaledLogSoftmax(logits, temperature), targets);
    return mask ? (tf.mul(lp, asFloat(mask)) as tf.Tensor2D) : lp;
  });
}

/** Per-token entropy −Σ_v p log p of softmax(logits / temperature): [B, T, V] → [B, T]. */
export function tokenEntropy(logits: tf.Tensor3D, temperature = 1): tf.Tensor2D {
  if (logits.rank !== 3) throw new Error(`logits must be [B, T, V], got shape [${logits.shape}]`);
  if (!(temperature > 0)) throw new Error(`temperature must be > 0, got ${temperature}`);
  return tf.tidy(() => {
    const viaKernel = fused(logits, null, temperature, true);
    if (viaKernel) return viaKernel.entropy!;
    const logp = scaledLogSoftmax(logits, temperature);
    return tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), -1)) as tf.Tensor2D;
  });
}

/** Both at once, sharing one log-softmax (the trainers' hot path). */
export function completionLogprobsAndEntropy(
  logits: tf.Tensor3D,
  targets: tf.Tensor2D,
  temperature = 1,
): { logps: tf.Tensor2D; entropy: tf.Tensor2D } {
  checkShapes(logits, targets, temperature);
  return tf.tidy(() => {
    const viaKernel = fused(logits, targets, temperature, true);
    if (viaKernel) return { logps: viaKernel.logps!, entropy: viaKernel.entropy! };
    const logp = scaledLogSoftmax(logits, temperature);
    const entropy = tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), -1)) as tf.Tensor2D;
    return { logps: pick(logp, targets), entropy };
  });
}

/** Σ_t logps · mask: sequence log-prob of each completion, [B, T] → [B] (DPO's input). */
export function sequenceLogprobs(logps: tf.Tensor2D, mask: tf.Tensor2D): tf.Tensor1D {
  return tf.tidy(() => tf.sum(tf.mul(logps, asFloat(mask)), -1) as tf.Tensor1D);
}
