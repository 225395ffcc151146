/**
 * The token view's data: for a few completions of the slice an optimizer step trained on, each token's terms as the
 * loss computed them on that step's forward (grpoLoss's own `terms`, lib/rl/grpo-token-terms.ts), read back after
 * the step. A few rows × the completion length: small enough to send with every step's samples.
 */
import * as tf from '@tensorflow/tfjs';
import type { GrpoLossType, ImportanceSamplingLevel } from '@/lib/rl/choices';
import { grpoLossWeights, grpoLossWeightValues, type GrpoTokenTerms, type GrpoTokenTermValues } from '@/lib/rl/grpo-token-terms';
import type { Keep } from './scope';

/** One completion's terms, one entry per completion position (padding included, with mask 0). */
export interface TokenTermsRow {
  /** Row of the generation batch, in the order the trainer's samples list completions. */
  row: number;
  /** Â_i, the completion's advantage. */
  advantage: number;
  /** 1 where the token is in the loss. */
  mask: number[];
  /** ρ_{i,t} per token; under importance_sampling_level 'sequence' one entry, GSPO's s_i. */
  ratio: number[];
  /** Per ratio entry: which clip bound held it ('low': ρ < 1 − ε with Â < 0; 'high': ρ > 1 + ε_high with Â > 0). */
  clipped: ('low' | 'high' | null)[];
  /** The weight of each token's ℓ in the loss under loss_type (0 on padding). */
  weight: number[];
  /** k3 = u − log u − 1 per token; null when β = 0 (no KL term). */
  kl: number[] | null;
  /** ℓ_{i,t} per token (0 on padding): the loss is Σ weight · ℓ over the slice. */
  loss: number[];
}

export interface StepTokenTerms {
  lossType: GrpoLossType;
  level: ImportanceSamplingLevel;
  beta: number;
  epsilon: number;
  epsilonHigh: number;
  /** Which update on this generation batch (1-based) of `updates` (steps_per_generation × num_iterations). */
  update: number;
  updates: number;
  rows: TokenTermsRow[];
}

/** How many completions a step records. */
export const TOKEN_VIEW_ROWS = 4;

/**
 * Up to `count` of the slice's rows, alternating positive and negative advantages (then zero ones), so the view can
 * show both clip sides; returned in batch order.
 */
export function pickTokenRows(rows: readonly number[], advantages: ArrayLike<number>, count = TOKEN_VIEW_ROWS): number[] {
  const pos = rows.filter((r) => advantages[r] > 0);
  const neg = rows.filter((r) => advantages[r] < 0);
  const picked: number[] = [];
  for (let k = 0; picked.length < count && (k < pos.length || k < neg.length); k++) {
    if (k < pos.length) picked.push(pos[k]);
    if (k < neg.length && picked.length < count) picked.push(neg[k]);
  }
  for (const r of rows) if (picked.length < count && advantages[r] === 0) picked.push(r);
  return picked.sort((a, b) => a - b);
}

/** The picked positions' terms: tensors kept past the tape, or, where the loss ran on arrays, the numbers themselves. */
type Kept = { [K in 'ratio' | 'low' | 'high' | 'weight' | 'loss' | 'mask']: tf.Tensor | number[][] } & { kl?: tf.Tensor; advantages: tf.Tensor | number[] };

/**
 * Inside the step's tape: gathers the chosen positions of the slice from the loss's own terms, kept past the tape.
 * `positions` index the slice's rows.
 */
export function keepTokenTerms(
  terms: GrpoTokenTerms,
  slice: { mask: tf.Tensor2D; advantages: tf.Tensor1D },
  positions: number[],
  opts: { lossType: GrpoLossType; maxCompletionLength?: number },
  keep: Keep,
): Kept {
  if (terms.values) return keptFromValues(terms.values, positions, opts);
  const idx = tf.tensor1d(positions, 'int32');
  const m = slice.mask.dtype === 'float32' ? slice.mask : tf.cast(slice.mask, 'float32');
  const pick = (t: tf.Tensor) => keep(tf.gather(t, idx));
  return {
    ratio: pick(terms.ratio),
    low: pick(tf.cast(terms.clippedLow, 'float32')),
    high: pick(tf.cast(terms.clippedHigh, 'float32')),
    weight: pick(grpoLossWeights(slice.mask, opts)),
    loss: pick(tf.mul(terms.perToken, m)),
    kl: terms.kl && pick(terms.kl),
    mask: pick(m),
    advantages: pick(slice.advantages),
  };
}

/** keepTokenTerms from the loss's arrays: the same numbers (float32, the weights as grpoLossWeights computes them), no tensors. */
function keptFromValues(v: GrpoTokenTermValues, positions: number[], opts: { lossType: GrpoLossType; maxCompletionLength?: number }): Kept {
  const weight = grpoLossWeightValues(v.mask, v.B, v.T, opts);
  const rowsOf = (x: ArrayLike<number>) => positions.map((p) => Array.from({ length: v.T }, (_, t) => x[p * v.T + t]));
  return {
    ratio: rowsOf(v.ratio),
    low: rowsOf(v.clippedLow),
    high: rowsOf(v.clippedHigh),
    weight: rowsOf(weight),
    loss: rowsOf(v.perToken.map((l, i) => Math.fround(l * v.mask[i]))),
    mask: rowsOf(v.mask),
    advantages: positions.map((p) => v.advantages[p]),
  };
}

/** After the step: the kept tensors as rows, `rows` naming each picked position's row in the generation batch. */
export async function readTokenTerms(kept: Kept, rows: number[], meta: Omit<StepTokenTerms, 'rows'>): Promise<StepTokenTerms> {
  const [ratio, low, high, weight, loss, kl, mask, advantages] = await Promise.all(
    [kept.ratio, kept.low, kept.high, kept.weight, kept.loss, kept.kl, kept.mask, kept.advantages].map((t) => (t instanceof tf.Tensor ? t.array() : Promise.resolve(t ?? null))),
  ) as [number[][], number[][], number[][], number[][], number[][], number[][] | null, number[][], number[]];
  return {
    ...meta,
    rows: rows.map((row, k) => ({
      row,
      advantage: advantages[k],
      mask: mask[k],
      ratio: ratio[k],
      clipped: ratio[k].map((_, t) => (low[k][t] ? 'low' : high[k][t] ? 'high' : null)),
      weight: weight[k],
      kl: kl ? kl[k] : null,
      loss: loss[k],
    })),
  };
}
