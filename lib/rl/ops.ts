// Small differentiable building blocks shared by the losses.
import * as tf from '@tensorflow/tfjs';

/**
 * Identity in the forward pass, zero gradient in the backward pass (torch's `.detach()`).
 * tfjs has no stopGradient op, so it is a customGrad.
 */
export const stopGradient: <T extends tf.Tensor>(x: T) => T = tf.customGrad(
  (x: tf.Tensor | tf.GradSaveFunc) => {
    const t = x as tf.Tensor;
    return { value: t.clone(), gradFunc: (dy: tf.Tensor) => tf.zerosLike(dy) };
  },
) as <T extends tf.Tensor>(x: T) => T;

/** sum(x · mask) / max(sum(mask), 1): TRL's `(x * mask).sum() / mask.sum().clamp(min=1.0)`. */
export function maskedTokenMean(x: tf.Tensor, mask: tf.Tensor): tf.Scalar {
  return tf.tidy(() => tf.div(tf.sum(tf.mul(x, mask)), tf.maximum(tf.sum(mask), 1)) as tf.Scalar);
}

/** Casts a 0/1 (bool, int or float) mask to float32 without copying float input. */
export function asFloat(mask: tf.Tensor): tf.Tensor {
  return mask.dtype === 'float32' ? mask : tf.cast(mask, 'float32');
}
