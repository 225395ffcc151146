import * as tf from '@tensorflow/tfjs';
import type { Rng } from '@/lib/random';
import { oneHotF32 } from './ops';
import type { ToolEnvironment } from '@/lib/tasks/environment';
import type { CausalLM } from './tiny-lm';
import { sampleToken, type SamplingConfig } from './sampling';

export { sampleToken, type SamplingConfig } from './sampling';

/**
 * Batched autoregressive sampling, single-turn or multi-turn: the one sampling loop that every rollout runs. Each
 * step runs one forward pass over the unfinished rows, reads the next-token probabilities back with a single
 * `await data()`, and samples in JS from a seeded generator: tfjs's multinomial differs per backend, this does not
 * (backends agree on probabilities to ~1e-5, so the same seed gives the same completions everywhere except on
 * near-ties). With an environment (lib/tasks/environment.ts), after each policy token the environment may append an
 * observation: tokens the policy did not choose, kept as context and masked out of the loss. Rows then differ in
 * length. A model with a key/value cache is fed only each row's new tokens per step: by default through the fused
 * WebAssembly kernel (TinyLM.beginFusedDecoding, one call per step, no read-back), else through tfjs
 * (TinyLM.beginDecoding). One without (a scripted test model) re-runs the prefix. All sample in the same order, so a
 * seed gives the same completions (up to near-ties, as across backends).
 */

/** How to decode: 'auto' uses the fused kernel where it runs, else tfjs; 'tfjs' always runs tfjs kernels. */
export type Decoder = 'auto' | 'tfjs';

export interface GenerateConfig extends SamplingConfig {
  /** Tokens after the prompt at most per row, EOS and observations included. */
  max_completion_length: number;
  eos_id: number;
  /** Written after the end so every row has max_completion_length tokens. */
  pad_id: number;
}

export interface Generation {
  /** [B][max_completion_length] the tokens after the prompt (policy and observations), PAD after the end. */
  completions: number[][];
  /** [B][max_completion_length] 1 for tokens the policy chose, up to and including EOS: the loss mask. 0 for
   * observation tokens and padding. */
  completionMask: number[][];
  /** [B][max_completion_length] 1 where the environment inserted the token (all 0 without an environment). */
  observationMask: number[][];
  /** Tokens per row, policy and observation (EOS included). */
  lengths: number[];
  /** Whether the row emitted EOS (false: cut off at max_completion_length, or ended by the environment). */
  finished: boolean[];
  /** Whether the environment ended the row (e.g. a tool call beyond the cap). */
  endedByEnv: boolean[];
  /** Observations the environment appended per row (tool calls answered). */
  observations: number[];
  /** [B][max_completion_length] log-prob of each sampled token under the sampling distribution (after temperature
   * and top-k; 0 for greedy, observations and padding). For diagnostics: trainers recompute log-probs with the model. */
  samplingLogprobs: number[][];
}

/** Samples completions for B prompts, with `env` answering along the way if given. Prompts may differ in length. */
export async function generate(
  model: CausalLM,
  prompts: number[][],
  config: GenerateConfig,
  rng: Rng,
  env?: ToolEnvironment,
  opts: { decoder?: Decoder } = {},
): Promise<Generation> {
  const M = config.max_completion_length;
  const V = model.config.vocab_size;
  const longest = Math.max(...prompts.map((p) => p.length));
  if (longest + M - 1 > model.config.context_length) {
    throw new Error(`prompt (${longest}) + max_completion_length (${M}) − 1 exceeds context_length ${model.config.context_length}`);
  }
  const padRow = () => new Array<number>(M).fill(0);
  const out: Generation = {
    completions: prompts.map(() => new Array<number>(M).fill(config.pad_id)),
    completionMask: prompts.map(padRow),
    observationMask: prompts.map(padRow),
    lengths: prompts.map(() => 0),
    finished: prompts.map(() => false),
    endedByEnv: prompts.map(() => false),
    observations: prompts.map(() => 0),
    samplingLogprobs: prompts.map(padRow),
  };
  const rows = prompts.map((p) => [...p]);
  /** Appends one token to row i: its position is the row's current completion length. */
  const append = (i: number, token: number, fromPolicy: boolean, logprob = 0) => {
    const t = out.lengths[i]++;
    rows[i].push(token);
    out.completions[i][t] = token;
    (fromPolicy ? out.completionMask : out.observationMask)[i][t] = 1;
    out.samplingLogprobs[i][t] = logprob;
  };
  let active = prompts.map((_, i) => i);
  // With a key/value cache each step feeds only the new tokens; without, it re-runs every row's whole prefix.
  const fused = (opts.decoder ?? 'auto') === 'auto' ? ((await model.beginFusedDecoding?.()) ?? null) : null;
  const session = fused ? null : model.beginDecoding?.();
  const cache = fused ?? session;
  const temperature = config.temperature ?? 1;
  let fresh: number[][] = prompts.map((p) => [...p]); // tokens the session has not seen yet, per active row
  try {
    while (active.length > 0) {
      const probs = fused
        ? fused.feed(fresh, temperature)
        : session
          ? await readProbs(session.feed(fresh), temperature)
          : await nextTokenProbs(model, active.map((i) => rows[i]), temperature, config.pad_id);
      const seenFrom = active.map((i) => out.lengths[i]);
      active.forEach((i, j) => {
        const { token, logprob } = sampleToken(probs.subarray(j * V, (j + 1) * V), rng, config);
        append(i, token, true, logprob);
        if (token === config.eos_id) {
          // An environment may answer the end of a turn (a wrong answer) and let the episode go on: one more try.
          const again = env?.respondToEnd && out.lengths[i] < M ? env.respondToEnd(out.completions[i].slice(0, out.lengths[i]), i) : null;
          if (!again || again.tokens.length === 0 || again.done) {
            out.finished[i] = true;
            return;
          }
          for (const o of again.tokens.slice(0, M - out.lengths[i])) append(i, o, false);
          out.observations[i]++;
          return;
        }
        const reply = env && out.lengths[i] < M ? env.respond(out.completions[i].slice(0, out.lengths[i]), i) : null;
        if (reply && reply.tokens.length > 0) {
          for (const o of reply.tokens.slice(0, M - out.lengths[i])) append(i, o, false); // cut at the length limit
          out.observations[i]++;
        }
        if (reply?.done) out.endedByEnv[i] = true;
      });
      const still: number[] = []; // positions in `active` of the rows that go on
      active.forEach((i, j) => !out.finished[i] && !out.endedByEnv[i] && out.lengths[i] < M && still.push(j));
      if (cache && still.length > 0) {
        if (still.length < active.length) cache.select(still);
        fresh = still.map((j) => out.completions[active[j]].slice(seenFrom[j], out.lengths[active[j]]));
      }
      active = still.map((j) => active[j]);
    }
  } finally {
    cache?.dispose();
  }
  return out;
}

/** softmax(logits / temperature) [rows, V], read back in one transfer; the logits are disposed. */
async function readProbs(logits: tf.Tensor2D, temperature: number): Promise<Float32Array> {
  const probs = tf.tidy(() => tf.softmax(temperature > 0 ? tf.div(logits, temperature) : logits));
  logits.dispose();
  try {
    return (await probs.data()) as Float32Array;
  } finally {
    probs.dispose();
  }
}

/**
 * Next-token probabilities after each row, softmax(logits / temperature), as one flat [B·V] array read back once.
 * Rows may have different lengths: they are right-padded, which causal attention makes harmless, and the logits
 * are taken at each row's own last position.
 */
export async function nextTokenProbs(model: CausalLM, rows: number[][], temperature: number, padId: number): Promise<Float32Array> {
  const B = rows.length;
  const T = Math.max(...rows.map((r) => r.length));
  const flat = new Int32Array(B * T).fill(padId);
  rows.forEach((r, i) => flat.set(r, i * T));
  const picked = tf.tidy(() => {
    const ids = tf.tensor2d(flat, [B, T], 'int32');
    const { logits, values } = model.forward(ids); // [B, T, V]
    values?.dispose();
    const last = oneHotF32(tf.tensor1d(rows.map((r) => r.length - 1), 'int32'), T); // [B, T]
    return tf.sum(tf.mul(logits, tf.expandDims(last, 2)), 1) as tf.Tensor2D; // [B, V]
  });
  return readProbs(picked, temperature);
}
