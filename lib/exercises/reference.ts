/**
 * Every exercise's expected values, computed by the training core: the numeric face of lib/rl (the same tfjs code
 * the trainers run) and the LoRA layer of lib/models. Nothing here re-implements the math; each entry only maps an
 * exercise's plain arguments onto the core's call. Loads tfjs: it runs in the exercises' worker
 * (app/_components/exercises/reference.worker.ts), in `npm run grade` and in the tests.
 */
import * as tf from '@tensorflow/tfjs';
import * as rl from '@/lib/rl';
import { createLinear } from '@/lib/models/linear';
import { createParamStore } from '@/lib/models/params';
import { createRng } from '@/lib/random';
import { isExerciseId, type ExerciseId } from '@/content/exercises';

type Vec = number[];
type Mat = number[][];

const transpose = (m: Mat): Mat => m[0].map((_, j) => m.map((row) => row[j]));
const zeros = (rows: number, cols: number): Mat => Array.from({ length: rows }, () => new Array<number>(cols).fill(0));

/** h = W0 x + (α/r) B A x through the core's Linear, which stores W [in, out], A [in, r], B [r, out] and maps rows. */
function loraForward(W0: Mat, A: Mat, B: Mat, x: Vec, alpha: number): Vec {
  const [outDim, inDim, r] = [W0.length, W0[0].length, A.length];
  const store = createParamStore();
  try {
    const lora = { r, lora_alpha: alpha, lora_dropout: 0, use_rslora: false, target_modules: [] };
    const layer = createLinear(store, { name: 'layer', inDim, outDim, init: { kind: 'zeros' }, trainable: false, lora, loraTrainable: false }, createRng(0));
    layer.weight.assign(tf.tensor2d(transpose(W0)));
    store.get('layer.lora_A').assign(tf.tensor2d(transpose(A)));
    store.get('layer.lora_B').assign(tf.tensor2d(transpose(B)));
    return tf.tidy(() => Array.from(layer.apply(tf.tensor2d([x])).dataSync()));
  } finally {
    store.dispose();
  }
}

const REFERENCES: Record<ExerciseId, (...args: never[]) => unknown> = {
  'lora-forward': loraForward,
  // GAE with λ = 1 and V = 0 is the discounted return.
  'discounted-returns': (rewards: Vec, gamma: number) => rl.gae({ rewards, values: rewards.map(() => 0), gamma, lam: 1 }).returns,
  gae: (rewards: Vec, values: Vec, gamma: number, lam: number) =>
    rl.gae({ rewards, values: values.slice(0, rewards.length), nextValue: values[rewards.length], gamma, lam }).advantages,
  'clipped-surrogate': (newLogprobs: Vec, oldLogprobs: Vec, advantages: Vec, cliprange: number) =>
    rl.ppoPolicyLoss({ newLogprobs: [newLogprobs], oldLogprobs: [oldLogprobs], advantages: [advantages], paddingMask: [newLogprobs.map(() => 0)], cliprange }).pgLoss,
  'dpo-loss': (chosenLogps: Vec, rejectedLogps: Vec, refChosenLogps: Vec, refRejectedLogps: Vec, beta: number) =>
    rl.dpoLoss({ chosenLogps, rejectedLogps, refChosenLogps, refRejectedLogps, beta }).loss,
  'grpo-advantages': (rewards: Vec, groupSize: number) => rl.grpoAdvantages({ rewards, numGenerations: groupSize }).advantages,
  // GRPO's loss on one token with advantage 0 and β = 1 is that token's KL term.
  'k3-kl': (logps: Vec, refLogps: Vec) =>
    logps.map((lp, t) => rl.grpoLoss({ logps: [[lp]], refLogps: [[refLogps[t]]], advantages: [0], mask: [[1]], beta: 1, lossType: 'bnpo' }).loss),
  // Without oldLogps the ratio is exactly 1 (the on-policy step): each real token's loss is −A_i.
  'loss-aggregation': (advantages: Vec, mask: Mat, lossType: 'grpo' | 'dapo' | 'dr_grpo') =>
    rl.grpoLoss({ logps: zeros(mask.length, mask[0].length), advantages, mask, lossType }).loss,
  'gspo-loss': (logps: Mat, oldLogps: Mat, mask: Mat, advantages: Vec, epsilonLow: number, epsilonHigh: number) =>
    rl.grpoLoss({ logps, oldLogps, mask, advantages, lossType: 'grpo', importanceSamplingLevel: 'sequence', epsilon: epsilonLow, epsilonHigh }).loss,
};

/** The core's answer for each case of exercise `id` (each case: the arguments, in order). Throws on bad input. */
export function expectedValues(id: string, cases: unknown[][]): unknown[] {
  if (!isExerciseId(id)) throw new Error(`no exercise "${id}"`);
  const reference = REFERENCES[id] as (...args: unknown[]) => unknown;
  return cases.map((args) => reference(...args));
}
