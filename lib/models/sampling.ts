import type { Rng } from '@/lib/random';

/**
 * Drawing a token from next-token probabilities, in plain JS with a seeded generator. No tfjs here: the chapter's
 * MDP stepper samples on the page while the model runs in a Web Worker, and generate() samples with the same code.
 */

export interface SamplingConfig {
  /** Divides the logits before softmax. 0 means greedy (argmax). Default 1. */
  temperature?: number;
  /** Keep only the k most likely tokens, renormalised (0 or undefined = all). */
  top_k?: number;
}

/** Draws one token from a probability row (renormalised, so float error never matters). */
export function sampleToken(probs: Float32Array, rng: Rng, config: SamplingConfig = {}): { token: number; logprob: number } {
  const V = probs.length;
  if ((config.temperature ?? 1) === 0) {
    let best = 0;
    for (let v = 1; v < V; v++) if (probs[v] > probs[best]) best = v; // ties → lowest id
    return { token: best, logprob: 0 };
  }
  let weights: Float32Array = probs;
  const k = config.top_k ?? 0;
  if (k > 0 && k < V) {
    const kth = [...probs].sort((x, y) => y - x)[k - 1];
    weights = probs.map((p) => (p >= kth ? p : 0)); // ties at the k-th value are all kept
  }
  let total = 0;
  for (let v = 0; v < V; v++) total += weights[v];
  const u = rng.next() * total;
  let acc = 0;
  let token = V - 1;
  for (let v = 0; v < V; v++) {
    acc += weights[v];
    if (u < acc) {
      token = v;
      break;
    }
  }
  while (weights[token] === 0 && token > 0) token--; // guard against u landing past the last nonzero weight
  return { token, logprob: Math.log(weights[token] / total) };
}
