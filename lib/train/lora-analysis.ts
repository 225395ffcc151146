/**
 * What the LoRA lab shows about a fine-tuned model: the singular values of each layer's weight update ΔW (LoRA's
 * s·A·B, or W − W₀ for full fine-tuning), a merge check, and the adapter exported on its own.
 */
import * as tf from '@tensorflow/tfjs';
import { saveTinyLM } from '@/lib/models/checkpoint';
import { ARCH_FIELDS, loraScaling } from '@/lib/models/config';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { encodeWeightsFile } from '@/lib/models/weights-file';
import { effectiveRank, singularValues } from '@/lib/lora/spectrum';
import type { ActionResult } from './trainer';

/** The linear layers whose updates the lab analyses (the output head is left out, as PEFT's "all-linear" does). */
const LAYER = /^blocks\.\d+\.(qkv|out|fc1|fc2)$/;

export interface LayerSpectrum {
  /** e.g. "blocks.0.qkv". */
  name: string;
  /** [in, out] of the layer. */
  shape: [number, number];
  /** Singular values of ΔW, largest first (at most 16 shown). */
  singular: number[];
  effectiveRank: number;
}

export interface UpdateSpectrum {
  kind: 'lora' | 'full';
  step: number;
  layers: LayerSpectrum[];
}

/** The base weights before fine-tuning, read once (full fine-tuning's ΔW is measured against them). */
export async function snapshotLinearWeights(model: TinyLM): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  for (const [name, v] of model.namedWeights()) if (name.endsWith('.W') && LAYER.test(name.slice(0, -2))) out.set(name, (await v.data()) as Float32Array);
  return out;
}

/** Singular values of every analysed layer's update: LoRA's s·A·B, or W − W₀ against `initial`. */
export async function updateSpectrum(model: TinyLM, initial: Map<string, Float32Array>, step: number): Promise<UpdateSpectrum> {
  const weights = model.namedWeights();
  const lora = model.config.lora;
  const layers: LayerSpectrum[] = [];
  for (const name of initial.keys()) {
    const layer = name.slice(0, -2);
    const W = weights.get(name)!;
    const [inDim, outDim] = W.shape as [number, number];
    let delta: Float32Array;
    const A = weights.get(`${layer}.lora_A`);
    const B = weights.get(`${layer}.lora_B`);
    if (lora && A && B) {
      const product = tf.tidy(() => tf.mul(tf.matMul(A as tf.Tensor2D, B as tf.Tensor2D), loraScaling(lora)));
      delta = (await product.data()) as Float32Array;
      product.dispose();
    } else if (lora) {
      continue; // a layer LoRA does not adapt does not change
    } else {
      const now = (await W.data()) as Float32Array;
      const before = initial.get(name)!;
      delta = now.map((x, i) => x - before[i]);
    }
    const singular = singularValues(delta, inDim, outDim);
    layers.push({ name: layer, shape: [inDim, outDim], singular: singular.slice(0, 16), effectiveRank: effectiveRank(singular) });
  }
  return { kind: lora ? 'lora' : 'full', step, layers };
}

/**
 * Merges the adapters into W, compares the logits with the unmerged model's, unmerges again, and measures how far W
 * itself moved over the round trip (float32 rounding of (W + s·A·B) − s·A·B).
 */
export async function mergeCheck(model: TinyLM, input: tf.Tensor2D): Promise<ActionResult> {
  if (!model.config.lora) return { summary: 'Full fine-tuning trained W itself: there is no adapter to merge.' };
  const read = async (t: tf.Tensor) => (await t.data()) as Float32Array;
  const logits = async () => {
    const out = tf.tidy(() => model.forward(input).logits);
    const values = await read(out);
    out.dispose();
    return values;
  };
  const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
  const adapted = [...model.namedWeights()].filter(([name]) => name.endsWith('.W') && model.namedWeights().has(`${name.slice(0, -2)}.lora_A`));
  const before = await Promise.all(adapted.map(([, w]) => read(w)));
  const unmerged = await logits();
  model.mergeLora();
  let merged: Float32Array;
  try {
    merged = await logits();
  } finally {
    model.unmergeLora();
  }
  const after = await Promise.all(adapted.map(([, w]) => read(w)));
  const drift = Math.max(...before.map((w, i) => maxDiff(w, after[i])));
  const [B, T] = input.shape;
  const logitDiff = maxDiff(unmerged, merged);
  return {
    summary:
      `Merged W ← W + s·A·B in ${adapted.length} layers. The largest difference between merged and unmerged logits ` +
      `(${B} × ${T} × ${model.config.vocab_size} of them) is ${logitDiff === 0 ? '0: this model’s unmerged forward pass already adds s·A·B to W before its one matmul, so merging only stores that sum' : `${logitDiff.toExponential(1)}, float32 rounding`}. ` +
      `After unmerging, W is back to within ${drift.toExponential(1)} of what it was (the rounding of (W + s·A·B) − s·A·B). ` +
      'Merging changes the cost of a forward pass, not its result.',
  };
}

/** The adapter alone (lora_A and lora_B of every adapted layer) as a weights file, beside the full checkpoint's size. */
export async function exportAdapter(model: TinyLM): Promise<ActionResult> {
  const lora = model.config.lora;
  if (!lora) return { summary: `Full fine-tuning has no adapter: the whole checkpoint (${((await saveTinyLM(model)).length / 1024).toFixed(1)} KB) is the fine-tuned model.` };
  const tensors = [];
  for (const [name, v] of model.namedWeights()) {
    if (name.endsWith('.lora_A') || name.endsWith('.lora_B')) tensors.push({ name, shape: [...v.shape], values: (await v.data()) as Float32Array });
  }
  const base = Object.fromEntries(ARCH_FIELDS.map((f) => [f, model.config[f]]));
  const bytes = encodeWeightsFile({ kind: 'tiny-lm-lora-adapter', config: { lora: { ...lora }, base }, state: {}, tensors });
  const full = (await saveTinyLM(model)).length;
  const params = tensors.reduce((s, t) => s + t.values.length, 0);
  return {
    summary: `The adapter holds ${params.toLocaleString('en-US')} parameters in ${(bytes.length / 1024).toFixed(1)} KB; the full checkpoint is ${(full / 1024).toFixed(1)} KB (${((100 * bytes.length) / full).toFixed(0)}%).`,
    file: { name: `lora-r${lora.r}${lora.use_rslora ? '-rslora' : ''}-adapter.arlw`, bytes },
  };
}
