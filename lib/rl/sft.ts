// SFT with TRL's completion_only_loss: cross-entropy on completion tokens only, averaged over tokens.
import * as tf from '@tensorflow/tfjs';

import { completionLogprobsAndEntropy } from './logprobs';
import { asFloat, maskedTokenMean } from './ops';

export type SftLossOut = {
  /** −Σ mask · log p(target) / Σ mask (token-level mean over the whole batch, as HF's causal-LM loss). */
  loss: tf.Scalar;
  /** TRL's `entropy` metric: masked mean per-token entropy. */
  entropy: tf.Scalar;
  /** TRL's `mean_token_accuracy`: share of completion tokens where argmax(logits) = target. */
  meanTokenAccuracy: tf.Scalar;
};

/**
 * logits [B, T, V] (position t predicts targets[:, t]), targets int32 [B, T],
 * completionMask [B, T] (1 = completion token, 0 = prompt or padding).
 */
export function sftLoss(logits: tf.Tensor3D, targets: tf.Tensor2D, completionMask: tf.Tensor2D): SftLossOut {
  if (completionMask.shape[0] !== targets.shape[0] || completionMask.shape[1] !== targets.shape[1]) {
    throw new Error(`completionMask must be [${targets.shape}], got [${completionMask.shape}]`);
  }
  return tf.tidy(() => {
    const m = asFloat(completionMask);
    const { logps, entropy } = completionLogprobsAndEntropy(logits, targets); // [B, T] each
    const hit = tf.cast(tf.equal(tf.argMax(logits, -1), tf.cast(targets, 'int32')), 'float32'); // [B, T]
    return {
      loss: tf.neg(maskedTokenMean(logps, m)) as tf.Scalar,
      entropy: maskedTokenMean(entropy, m),
      meanTokenAccuracy: maskedTokenMean(hit, m),
    };
  });
}
