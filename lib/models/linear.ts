import * as tf from '@tensorflow/tfjs';
import type { Rng } from '@/lib/random';
import { loraScaling, type LoraConfig } from './config';
import { dense, matMul2d } from './ops';
import type { Init, ParamStore } from './params';

/**
 * A dense layer y = x·W + b, optionally with a LoRA adapter (Hu et al. 2021):
 *   y = x·(W + s·A·B) + b,   A [in, r] small random, B [r, out] zero (so the adapted layer starts equal to W),
 *   s = lora_alpha / r, or lora_alpha / √r with use_rslora.
 * Weights are named `${name}.W`, `${name}.b`, `${name}.lora_A`, `${name}.lora_B`.
 */
export interface Linear {
  readonly name: string;
  readonly inDim: number;
  readonly outDim: number;
  readonly hasLora: boolean;
  /** The base weight W [in, out] (without an unmerged adapter: see effectiveWeight) and the bias b [out]. */
  readonly weight: tf.Variable;
  readonly bias: tf.Variable;
  /** x [N, in] → [N, out]. `training` enables lora_dropout; `rng` seeds it. */
  apply(x: tf.Tensor2D, opts?: { activation?: 'linear' | 'relu'; training?: boolean; rng?: Rng }): tf.Tensor2D;
  /** The weight the layer computes with: W, or W + s·A·B when an unmerged adapter is present. Caller disposes. */
  effectiveWeight(): tf.Tensor2D;
  /** W ← W + s·A·B; the adapter is then bypassed (inference / export). */
  merge(): void;
  /** W ← W − s·A·B; undoes merge(). */
  unmerge(): void;
  readonly merged: boolean;
  /** Declares, without arithmetic, whether W already includes the adapter (used by clone and checkpoint load). */
  setMerged(merged: boolean): void;
}

export interface LinearSpec {
  name: string;
  inDim: number;
  outDim: number;
  init: Init;
  /** Whether W and b train (false when LoRA is on or the model is frozen). */
  trainable: boolean;
  lora?: LoraConfig | null;
  /** Whether the adapter trains (false in a frozen copy). */
  loraTrainable?: boolean;
}

/** `loraRng` draws the adapter's init, so adding adapters never changes the base weights a seed gives. */
export function createLinear(store: ParamStore, spec: LinearSpec, rng: Rng, loraRng: Rng = rng): Linear {
  const { name, inDim, outDim, lora } = spec;
  const W = store.create(`${name}.W`, [inDim, outDim], spec.init, rng, spec.trainable);
  const b = store.create(`${name}.b`, [outDim], { kind: 'zeros' }, rng, spec.trainable);
  const adapterTrainable = spec.loraTrainable ?? true;
  // PEFT's kaiming-uniform(a=√5) on A is U(−1/√in, 1/√in); B = 0 makes ΔW = 0 at start.
  const A = lora
    ? store.create(`${name}.lora_A`, [inDim, lora.r], { kind: 'uniform', limit: 1 / Math.sqrt(inDim) }, loraRng, adapterTrainable)
    : null;
  const B = lora ? store.create(`${name}.lora_B`, [lora.r, outDim], { kind: 'zeros' }, loraRng, adapterTrainable) : null;
  const s = lora ? loraScaling(lora) : 0;
  let merged = false;

  const delta = (): tf.Tensor2D => matMul2d(tf.mul(A!, s) as tf.Tensor2D, B! as tf.Tensor2D); // s·A·B  [in, out]

  return {
    name,
    inDim,
    outDim,
    hasLora: lora != null,
    weight: W,
    bias: b,
    get merged() {
      return merged;
    },
    setMerged(m) {
      if (m && !lora) throw new Error(`${name}: no LoRA adapter, cannot be merged`);
      merged = m;
    },
    effectiveWeight: () => (lora && !merged ? tf.tidy(() => tf.add(W, delta())) : W.clone()) as tf.Tensor2D,
    apply(x, opts = {}) {
      const activation = opts.activation ?? 'linear';
      if (!lora || merged) return dense(x, W as tf.Tensor2D, b, activation);
      if (opts.training && lora.lora_dropout > 0) {
        // Dropout acts on the adapter's input only, so the merged-weight shortcut below does not apply.
        const base = dense(x, W as tf.Tensor2D, b);
        const xd = tf.dropout(x, lora.lora_dropout, undefined, opts.rng?.tfSeed()) as tf.Tensor2D;
        const y = tf.add(base, matMul2d(matMul2d(xd, tf.mul(A!, s) as tf.Tensor2D), B! as tf.Tensor2D)) as tf.Tensor2D;
        return activation === 'relu' ? tf.relu(y) : y;
      }
      // One weight-sized update then one fused matmul: fewer, larger ops than two extra activation-sized matmuls.
      return dense(x, tf.add(W, delta()) as tf.Tensor2D, b, activation);
    },
    merge() {
      if (!lora) throw new Error(`${name}: no LoRA adapter to merge`);
      if (merged) return;
      tf.tidy(() => W.assign(tf.add(W, delta())));
      merged = true;
    },
    unmerge() {
      if (!lora) throw new Error(`${name}: no LoRA adapter to unmerge`);
      if (!merged) return;
      tf.tidy(() => W.assign(tf.sub(W, delta())));
      merged = false;
    },
  };
}
