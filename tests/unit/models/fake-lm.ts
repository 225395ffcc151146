import * as tf from '@tensorflow/tfjs';
import type { CausalLM } from '@/lib/models/tiny-lm';

/**
 * A CausalLM stub for generation tests: the next token after a row is `next(row)` with probability `p`, the rest
 * spread evenly over the vocabulary. Deterministic and independent of weights, so tests can script completions.
 */
export function createScriptedLM(opts: {
  vocab_size: number;
  context_length: number;
  next: (row: number[]) => number;
  p?: number;
}): CausalLM & { calls: number } {
  const { vocab_size: V, next } = opts;
  const p = opts.p ?? 1 - 1e-6;
  const stub = {
    config: { vocab_size: V, context_length: opts.context_length },
    calls: 0,
    forward(ids: tf.Tensor2D) {
      stub.calls++;
      const [B, T] = ids.shape;
      const rows = ids.arraySync();
      const logp = new Float32Array(B * T * V).fill(Math.log((1 - p) / (V - 1)));
      for (let b = 0; b < B; b++) {
        for (let t = 0; t < T; t++) logp[(b * T + t) * V + next(rows[b].slice(0, t + 1))] = Math.log(p);
      }
      return { logits: tf.tensor3d(logp, [B, T, V]) };
    },
  };
  return stub;
}
