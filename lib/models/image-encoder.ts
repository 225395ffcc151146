/**
 * A patch-embedding image encoder, the smallest form of a vision transformer's front end (ViT, Dosovitskiy et al.
 * 2021): the picture is cut into patches, each patch's pixels go through one linear map to d_model, and a learned
 * embedding per patch position is added. Its outputs are the language model's image tokens (lib/models/vision-lm.ts):
 * in LLaVA's terms (Liu et al. 2023) the linear map is encoder and projector in one.
 *
 *   patches [B, P, patch_dim]  →  x·W + b  [B, P, D]  →  + pos [P, D]
 */
import * as tf from '@tensorflow/tfjs';
import { createRng } from '@/lib/random';
import { dense } from './ops';
import { createParamStore } from './params';

export interface ImageEncoderConfig {
  /** Pixels per patch side. */
  patch_size: number;
  /** Colour channels (3: RGB). */
  num_channels: number;
  /** Patches per side: the image is (patch_grid · patch_size)² pixels, P = patch_grid² tokens. */
  patch_grid: number;
  /** The language model's width: each patch becomes one d_model token. */
  d_model: number;
}

export const patchDim = (c: ImageEncoderConfig) => c.patch_size * c.patch_size * c.num_channels;
export const numPatches = (c: ImageEncoderConfig) => c.patch_grid * c.patch_grid;

export interface ImageEncoder {
  readonly kind: 'image-encoder';
  readonly config: ImageEncoderConfig;
  /** patches [B, P, patch_dim] (see patchify) → image tokens [B, P, d_model]. Runs in its own tidy. */
  encode(patches: tf.Tensor3D): tf.Tensor3D;
  /** 'image.proj.W' [patch_dim, D], 'image.proj.b' [D], 'image.pos' [P, D]. */
  namedWeights(): ReadonlyMap<string, tf.Variable>;
  trainableVariables(): tf.Variable[];
  paramCount(): number;
  /** An independent frozen copy with identical outputs. */
  clone(): ImageEncoder;
  dispose(): void;
}

export function imageEncoderParamCount(c: ImageEncoderConfig): number {
  return patchDim(c) * c.d_model + c.d_model + numPatches(c) * c.d_model;
}

export function createImageEncoder(config: ImageEncoderConfig, seed: number, opts: { frozen?: boolean } = {}): ImageEncoder {
  for (const [k, v] of Object.entries(config)) {
    if (!(Number.isInteger(v) && v > 0)) throw new Error(`image encoder: ${k} must be a positive integer, got ${v}`);
  }
  const trainable = !(opts.frozen ?? false);
  const rng = createRng(seed).fork('image-encoder');
  const store = createParamStore();
  const [pd, P, D] = [patchDim(config), numPatches(config), config.d_model];
  const W = store.create('image.proj.W', [pd, D], { kind: 'normal', std: 1 / Math.sqrt(pd) }, rng, trainable);
  const b = store.create('image.proj.b', [D], { kind: 'zeros' }, rng, trainable);
  const pos = store.create('image.pos', [P, D], { kind: 'normal', std: 0.1 }, rng, trainable);

  const encoder: ImageEncoder = {
    kind: 'image-encoder',
    config,
    encode(patches) {
      const [B, Pin, pdIn] = patches.shape;
      if (Pin !== P || pdIn !== pd) throw new Error(`image encoder: patches must be [B, ${P}, ${pd}], got [${patches.shape}]`);
      return tf.tidy(() => {
        const x = tf.reshape(patches, [B * P, pd]) as tf.Tensor2D; // [BP, patch_dim]
        return tf.add(tf.reshape(dense(x, W as tf.Tensor2D, b), [B, P, D]), pos) as tf.Tensor3D; // [B, P, D]
      });
    },
    namedWeights: () => store.named,
    trainableVariables: () => [...store.named.values()].filter((v) => v.trainable),
    paramCount: () => [...store.named.values()].reduce((s, v) => s + v.size, 0),
    clone() {
      const copy = createImageEncoder(config, 1, { frozen: true });
      copy.namedWeights().forEach((v, name) => v.assign(store.get(name)));
      return copy;
    },
    dispose: () => store.dispose(),
  };
  return encoder;
}
