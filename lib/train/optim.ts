import * as tf from '@tensorflow/tfjs';

/**
 * Gradient clipping by global norm (TRL's max_grad_norm, default 1.0): g ← g · min(1, c / ‖g‖).
 * Returns the clipped gradients (new tensors; the caller disposes the inputs) and the pre-clip norm, which
 * TRL logs as `grad_norm`.
 */
export function clipByGlobalNorm(grads: tf.NamedTensorMap, maxNorm: number): { grads: tf.NamedTensorMap; norm: tf.Scalar } {
  return tf.tidy(() => {
    const names = Object.keys(grads);
    const norm = tf.sqrt(tf.addN(names.map((n) => tf.sum(tf.square(grads[n]))))) as tf.Scalar;
    const scale = tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6)));
    const clipped: tf.NamedTensorMap = {};
    for (const n of names) clipped[n] = tf.mul(grads[n], scale);
    return { grads: clipped, norm };
  });
}

/** One optimizer update from a loss closure: grads, clip, apply. Only the returned scalars survive. */
export function optimizerStep(
  optimizer: tf.Optimizer,
  variables: tf.Variable[],
  maxGradNorm: number,
  lossFn: () => tf.Scalar,
): tf.Scalar {
  const { value, grads } = tf.variableGrads(lossFn, variables);
  const { grads: clipped, norm } = clipByGlobalNorm(grads, maxGradNorm);
  optimizer.applyGradients(clipped);
  tf.dispose([value, grads, clipped]);
  return norm;
}

/** Wall-clock milliseconds since `start` (performance.now exists in Node, pages and workers). */
export const since = (start: number) => performance.now() - start;
