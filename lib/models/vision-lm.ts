/**
 * A tiny vision-language model: an image encoder (image-encoder.ts) whose P patch tokens sit in front of the
 * question, feeding the same TinyLM the other labs train (its forward's `prefix`). LLaVA's layout (Liu et al. 2023)
 * at toy scale: [image tokens][BOS question][answer]. With no picture (patches null) it is the TinyLM alone: the
 * text-only floor uses the same model and the same positions for the text.
 *
 * Generation recomputes the whole forward for each answer token (no key/value cache): answers are 1–3 tokens, and the
 * fused decoding kernel takes token ids only. A cache would save at most the 2 re-runs of a ~25-position prefix.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '@/lib/random';
import type { TinyLMConfig } from './config';
import { createImageEncoder, numPatches, type ImageEncoder, type ImageEncoderConfig } from './image-encoder';
import { sampleToken } from './sampling';
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
}

/**
 * Samples answers of at most M tokens for each row (its prompt, its picture), recomputing the whole forward each
 * token; temperature 0 is greedy. Rows that ended are fed PAD (causal: harmless to the others). Same sampling code
 * as generate() (sampling.ts), from a seeded generator.
 */
export async function sampleAnswers(
  model: VisionLM,
  prompts: number[][],
  patches: tf.Tensor3D | null,
  config: { max_completion_length: number; eos_id: number; pad_id: number; temperature: number },
  rng: Rng,
): Promise<SampledAnswers> {
  const B = prompts.length;
  const P0 = prompts[0].length;
  if (prompts.some((p) => p.length !== P0)) throw new Error('sampleAnswers: prompts must all have the same length');
  const M = config.max_completion_length;
  const V = model.lm.config.vocab_size;
  const out: SampledAnswers = {
    completions: prompts.map(() => Array<number>(M).fill(config.pad_id)),
    completionMask: prompts.map(() => Array<number>(M).fill(0)),
    lengths: prompts.map(() => 0),
    finished: prompts.map(() => false),
  };
  for (let t = 0; t < M && out.finished.some((f) => !f); t++) {
    const T = P0 + t;
    const flat = new Int32Array(B * T);
    prompts.forEach((p, i) => {
      flat.set(p, i * T);
      flat.set(out.completions[i].slice(0, t), i * T + P0);
    });
    const probsT = tf.tidy(() => {
      const { logits } = model.forward(tf.tensor2d(flat, [B, T], 'int32'), patches);
      const lastLogits = tf.reshape(tf.slice(logits, [0, T - 1, 0], [B, 1, V]), [B, V]);
      return tf.softmax(config.temperature > 0 ? tf.div(lastLogits, config.temperature) : lastLogits);
    });
    const probs = (await probsT.data()) as Float32Array;
    probsT.dispose();
    for (let i = 0; i < B; i++) {
      if (out.finished[i]) continue;
      const { token } = sampleToken(probs.subarray(i * V, (i + 1) * V), rng, { temperature: config.temperature });
      out.completions[i][t] = token;
      out.completionMask[i][t] = 1;
      out.lengths[i] = t + 1;
      if (token === config.eos_id) out.finished[i] = true;
    }
  }
  return out;
}
