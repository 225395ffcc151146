import * as tf from '@tensorflow/tfjs';

/** Marks a tensor to outlive the step's scope until the step ends (e.g. a metric read back at the end). */
export type Keep = <T extends tf.Tensor>(tensor: T) => T;

/**
 * Runs one async training step (or evaluation) in a tfjs scope of its own: every tensor it creates and does not
 * dispose is freed when it ends, whether it returns or throws. `tf.tidy` cannot do this for async code.
 * Tensors passed to `keep` survive the inner `tf.tidy`/`variableGrads` calls and are freed at the end too.
 * Variables (weights, optimizer slots) are never tracked by scopes, so they persist. A cache that must outlive
 * the step has to use `tf.keep` itself.
 */
export async function inTensorScope<T>(body: (keep: Keep) => Promise<T>): Promise<T> {
  const kept: tf.Tensor[] = [];
  const keep: Keep = (tensor) => {
    kept.push(tensor);
    return tf.keep(tensor);
  };
  tf.engine().startScope();
  try {
    return await body(keep);
  } finally {
    tf.engine().endScope();
    tf.dispose(kept); // a no-op for those the step already disposed
  }
}
