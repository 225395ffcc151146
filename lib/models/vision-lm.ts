/**
 * A tiny vision-language model: an image encoder (image-encoder.ts) whose P patch tokens sit in front of the
 * question, feeding the same TinyLM the other labs train (its forward's `prefix`). LLaVA's layout (Liu et al. 2023)
 * at toy scale: [image tokens][BOS question][answer]. With no picture (patches null) it is the TinyLM alone: the
 * text-only floor uses the same model and the same positions for the text.
 *
 * Generation keeps a key/value cache (vision-decode.ts): each group's picture and question run once, then one position
 * per answer token, with the full forward's numbers bit for bit.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '@/lib/random';
import type { TinyLMConfig } from './config';
import { createImageEncoder, numPatches, type ImageEncoder, type ImageEncoderConfig } from './image-encoder';
import { sampleToken } from './sampling';
import { beginVisionDecoding, visionDecodingApplies } from './vision-decode';
import { createTinyLM, type ForwardOptions, type LMOutput, type TinyLM, type TrainablePolicy } from './tiny-lm';

export interface VisionLMConfig {
  lm: TinyLMConfig;
  encoder: ImageEncoderConfig;
}

export interface VisionLM {
  readonly kind: 'vision-lm';
  readonly config: VisionLMConfig;
  readonly lm: TinyLM;
  readonly encoder: ImageEncoder;
  /**
   * ids int32 [B, T]; patches [B, P, patch_dim] or null (no picture). Outputs cover the T tokens only; with
   * returnAttention, attention is [B, H, P + T, P + T] (the image tokens first). Runs in its own tidy.
   */
  forward(ids: tf.Tensor2D, patches: tf.Tensor3D | null, opts?: Omit<ForwardOptions, 'prefix'>): LMOutput;
  /** Encoder weights ('image.…') then the LM's: the checkpoint order. */
  namedWeights(): ReadonlyMap<string, tf.Variable>;
  trainableVariables(): tf.Variable[];
  paramCount(): number;
  /** A frozen copy with identical outputs (a reference model). */
  clone(): VisionLM;
  dispose(): void;
}

/** The LM's context must hold the image tokens, the prompt and the answer. */
export function checkVisionConfig(config: VisionLMConfig): void {
  if (config.encoder.d_model !== config.lm.d_model) throw new Error(`the image encoder's d_model (${config.encoder.d_model}) must equal the language model's (${config.lm.d_model})`);
}

export function createVisionLM(config: VisionLMConfig, seed: number, opts: { frozen?: boolean } = {}): VisionLM {
  checkVisionConfig(config);
  return visionLM(config, createImageEncoder(config.encoder, seed, opts), createTinyLM(config.lm, seed, opts));
}

function visionLM(config: VisionLMConfig, encoder: ImageEncoder, lm: TinyLM): VisionLM {
  const P = numPatches(config.encoder);
  const model: VisionLM = {
    kind: 'vision-lm',
    config,
    lm,
    encoder,
    forward(ids, patches, opts = {}) {
      if (!patches) return lm.forward(ids, opts);
      if (patches.shape[0] !== ids.shape[0]) throw new Error(`${patches.shape[0]} pictures for ${ids.shape[0]} rows`);
      if (P + ids.shape[1] > lm.config.context_length) throw new Error(`${P} image tokens + ${ids.shape[1]} tokens exceed context_length ${lm.config.context_length}`);
      const prefix = encoder.encode(patches); // [B, P, D]
      try {
        return lm.forward(ids, { ...opts, prefix });
      } finally {
        prefix.dispose(); // under a gradient tape the tape keeps what the backward pass needs
      }
    },
    namedWeights: () => new Map([...encoder.namedWeights(), ...lm.namedWeights()]),
    trainableVariables: () => [...encoder.trainableVariables(), ...lm.trainableVariables()],
    paramCount: () => encoder.paramCount() + lm.paramCount(),
    clone: () => visionLM(config, encoder.clone(), lm.clone()),
    dispose() {
      encoder.dispose();
      lm.dispose();
    },
  };
  return model;
}

/** The model as the GRPO update (lib/train/grpo-update.ts) and SFT's loss train it, and disposable. */
export type BoundPolicy = TrainablePolicy & { dispose(): void };

/** Which pictures the rows of the next forward passes belong to (one per row, in order; null: no picture). */
export interface ImageSlot {
  /** Replaces the pictures (kept until the next set or clear; the slot owns them). */
  set(patches: tf.Tensor3D | null): void;
  readonly current: tf.Tensor3D | null;
  dispose(): void;
}

export function createImageSlot(): ImageSlot {
  let current: tf.Tensor3D | null = null;
  return {
    set(patches) {
      if (patches === current) return;
      current?.dispose();
      current = patches ? tf.keep(patches) : null;
    },
    get current() {
      return current;
    },
    dispose() {
      current?.dispose();
      current = null;
    },
  };
}

/**
 * The model as a plain causal LM over token ids whose rows see the slot's pictures: what code written for a TinyLM
 * (the GRPO update, SFT's loss) can train. A clone shares the slot, so a reference model sees the same pictures.
 * dispose() frees the model, not the slot.
 */
export function bindPictures(model: VisionLM, slot: ImageSlot): BoundPolicy {
  return {
    forward: (ids, opts) => model.forward(ids, slot.current, opts),
    trainableVariables: () => model.trainableVariables(),
    clone: () => bindPictures(model.clone(), slot),
    dispose: () => model.dispose(),
  };
}

export interface SampledAnswers {
  /** [B][M] tokens, PAD after EOS. */
  completions: number[][];
  /** [B][M] 1 through EOS. */
  completionMask: number[][];
  lengths: number[];
  finished: boolean[];
  /** [B][M] log-probability of each sampled token under the sampling distribution (0 for greedy and padding). */
  samplingLogprobs: number[][];
}

export interface AnswerSampling {
  max_completion_length: number;
  eos_id: number;
  pad_id: number;
  temperature: number;
}

function emptyAnswers(B: number, M: number, padId: number): SampledAnswers {
  return {
    completions: Array.from({ length: B }, () => Array<number>(M).fill(padId)),
    completionMask: Array.from({ length: B }, () => Array<number>(M).fill(0)),
    lengths: Array<number>(B).fill(0),
    finished: Array<boolean>(B).fill(false),
    samplingLogprobs: Array.from({ length: B }, () => Array<number>(M).fill(0)),
  };
}

/** softmax(logits / temperature) read back in one transfer (temperature 0: softmax(logits), for the argmax); disposes the logits. */
async function readProbs(logits: tf.Tensor2D, temperature: number): Promise<Float32Array> {
  const probsT = tf.tidy(() => tf.softmax(temperature > 0 ? tf.div(logits, temperature) : logits));
  logits.dispose();
  try {
    return (await probsT.data()) as Float32Array;
  } finally {
    probsT.dispose();
  }
}

/** Draws answer token t for every unfinished row, in row order (the order the seeded generator is drawn in). */
function drawTokens(out: SampledAnswers, t: number, probsOfRow: (i: number) => Float32Array, config: AnswerSampling, rng: Rng): void {
  for (let i = 0; i < out.completions.length; i++) {
    if (out.finished[i]) continue;
    const { token, logprob } = sampleToken(probsOfRow(i), rng, { temperature: config.temperature });
    out.completions[i][t] = token;
    out.completionMask[i][t] = 1;
    out.samplingLogprobs[i][t] = logprob;
    out.lengths[i] = t + 1;
    if (token === config.eos_id) out.finished[i] = true;
  }
}

function checkPrompts(prompts: number[][]): void {
  if (prompts.length === 0) throw new Error('sampleAnswers: no prompts');
  if (prompts.some((p) => p.length !== prompts[0].length)) throw new Error('sampleAnswers: prompts must all have the same length');
}

/**
 * Samples answers of at most M tokens for each row (its prompt, its picture); temperature 0 is greedy. Same sampling
 * code as generate() (sampling.ts), from a seeded generator. Rows with the same prompt and picture as the row before
 * (a GRPO group) share one encoding of them; then each answer token runs one position against the key/value cache
 * (vision-decode.ts). The samples are sampleAnswersFullForward's bit for bit (where cacheMatchesForward says the
 * cache can give them; elsewhere this runs sampleAnswersFullForward).
 */
export async function sampleAnswers(model: VisionLM, prompts: number[][], patches: tf.Tensor3D | null, config: AnswerSampling, rng: Rng): Promise<SampledAnswers> {
  checkPrompts(prompts);
  if (patches && patches.shape[0] !== prompts.length) throw new Error(`${patches.shape[0]} pictures for ${prompts.length} rows`);
  const promptPositions = (patches ? patches.shape[1] : 0) + prompts[0].length;
  if (!visionDecodingApplies(model) || !cacheMatchesForward(tf.getBackend(), promptPositions, config.max_completion_length)) {
    return sampleAnswersFullForward(model, prompts, patches, config, rng);
  }
  const B = prompts.length;
  const M = config.max_completion_length;
  const V = model.lm.config.vocab_size;
  const out = emptyAnswers(B, M, config.pad_id);
  const { groupOf, leaders } = await groupRows(prompts, patches);
  const session = beginVisionDecoding(model);
  try {
    const leaderPatches = patches && leaders.length < B ? tf.tidy(() => tf.gather(patches, tf.tensor1d(leaders, 'int32'))) : patches;
    let probs: Float32Array;
    try {
      probs = await readProbs(session.start(leaders.map((i) => prompts[i]), leaderPatches as tf.Tensor3D | null), config.temperature);
    } finally {
      if (leaderPatches !== patches) leaderPatches?.dispose();
    }
    // The first token of every row is drawn from its group's probabilities: the same numbers its own forward gives.
    drawTokens(out, 0, (i) => probs.subarray(groupOf[i] * V, (groupOf[i] + 1) * V), config, rng);
    if (leaders.length < B) session.select(groupOf); // each group's cache copied to its rows
    // Every row is fed every step, finished ones their last token, as the full-forward sampler feeds them PAD: each row's
    // numbers are its own, and dropping rows would cost a copy of the cache per step (more than their single position).
    for (let t = 1; t < M && out.finished.some((f) => !f); t++) {
      probs = await readProbs(session.feed(out.completions.map((c) => c[t - 1])), config.temperature);
      drawTokens(out, t, (i) => probs.subarray(i * V, (i + 1) * V), config, rng);
    }
  } finally {
    session.dispose();
  }
  return out;
}

/**
 * Whether the cache gives the full forward's bits on `backend` for prompts of `promptPositions` (image tokens included)
 * and answers of up to `maxAnswer` tokens. The forward re-run per token recomputes every earlier position's attention
 * with its row padded (masked) to the current length; the cache keeps each as first computed. On wasm tfjs's softmax
 * (XNNPACK) adds a row's exps four at a time and its last (length mod 4) apart, so padding a row past the next multiple
 * of 4 regroups its sum (measured: a row of 21 scores gives the same bits padded to 22 or 23, others from 24 on).
 * So the two agree while S0 … S0 + M − 1 stay within one block of 4: true of every picture the lab allows (S0 = grid² +
 * 4 question tokens: 8, 13, 20, 29, 40, or 4 without a picture; M ≤ 3), and elsewhere on wasm the forward is re-run.
 * cpu adds in order (padding adds exact zeros at the end); GPU backends never matched wasm's bits and keep the cache.
 */
export function cacheMatchesForward(backend: string, promptPositions: number, maxAnswer: number): boolean {
  if (backend !== 'wasm') return true;
  return Math.floor(promptPositions / 4) === Math.floor((promptPositions + maxAnswer - 1) / 4);
}

/**
 * Runs of consecutive rows with the same prompt and the same picture: `leaders` the first row of each, `groupOf` each
 * row's run. Reads the pictures back once (for the lab's batch, 256 × 16 × 48 floats).
 */
async function groupRows(prompts: number[][], patches: tf.Tensor3D | null): Promise<{ groupOf: number[]; leaders: number[] }> {
  const pixels = patches ? ((await patches.data()) as Float32Array) : null;
  const per = patches ? patches.shape[1] * patches.shape[2] : 0;
  const samePicture = (a: number, b: number) => {
    if (!pixels) return true;
    for (let k = 0; k < per; k++) if (pixels[a * per + k] !== pixels[b * per + k]) return false;
    return true;
  };
  const samePrompt = (a: number, b: number) => prompts[a].every((x, k) => x === prompts[b][k]);
  const leaders: number[] = [];
  const groupOf = prompts.map((_, i) => {
    if (i === 0 || !samePrompt(i, i - 1) || !samePicture(i, i - 1)) leaders.push(i);
    return leaders.length - 1;
  });
  return { groupOf, leaders };
}

/**
 * The reference sampler: the whole forward recomputed for each answer token, every row on its own. Rows that ended
 * are fed PAD (causal: harmless to the others). sampleAnswers gives the same samples faster; tests compare the two.
 */
export async function sampleAnswersFullForward(model: VisionLM, prompts: number[][], patches: tf.Tensor3D | null, config: AnswerSampling, rng: Rng): Promise<SampledAnswers> {
  checkPrompts(prompts);
  const B = prompts.length;
  const P0 = prompts[0].length;
  const M = config.max_completion_length;
  const V = model.lm.config.vocab_size;
  const out = emptyAnswers(B, M, config.pad_id);
  for (let t = 0; t < M && out.finished.some((f) => !f); t++) {
    const T = P0 + t;
    const flat = new Int32Array(B * T);
    prompts.forEach((p, i) => {
      flat.set(p, i * T);
      flat.set(out.completions[i].slice(0, t), i * T + P0);
    });
    const lastLogits = tf.tidy(() => {
      const { logits } = model.forward(tf.tensor2d(flat, [B, T], 'int32'), patches);
      return tf.reshape(tf.slice(logits, [0, T - 1, 0], [B, 1, V]), [B, V]) as tf.Tensor2D;
    });
    const probs = await readProbs(lastLogits, config.temperature);
    drawTokens(out, t, (i) => probs.subarray(i * V, (i + 1) * V), config, rng);
  }
  return out;
}
