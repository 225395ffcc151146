// The numeric face: plain arrays in, plain numbers out, computed by the same tfjs code the trainers
// use (gradients by tfjs autodiff; on wasm the GRPO trainer runs array twins of the advantages and the loss, which
// tests hold to these numbers bit for bit). Chapter widgets and tests call these.
import * as tf from '@tensorflow/tfjs';

import * as dpo from './dpo';
import * as grpo from './grpo';
import * as ppo from './ppo';
import { binaryMatrix, finiteArray, matrix, shapeOf } from './validate';

export { loraScaling, loraTrainableParams } from './lora';

const rows = (t: tf.Tensor, [B, T]: [number, number]): number[][] => {
  const d = t.dataSync();
  return Array.from({ length: B }, (_, b) => Array.from(d.subarray(b * T, (b + 1) * T)));
};
const num = (t: tf.Tensor): number => t.dataSync()[0];
const list = (t: tf.Tensor): number[] => Array.from(t.dataSync());

export function grpoAdvantages(args: {
  rewards?: number[];
  rewardsPerFunc?: number[][];
  rewardWeights?: number[];
  numGenerations: number;
  scaleRewards?: grpo.ScaleRewards | boolean;
}): { advantages: number[] } {
  const fn = 'grpoAdvantages';
  if ((args.rewards === undefined) === (args.rewardsPerFunc === undefined)) {
    throw new Error(`${fn}: pass exactly one of rewards and rewardsPerFunc`);
  }
  const perFunc = args.rewards
    ? finiteArray(fn, 'rewards', args.rewards, undefined, true).map((r) => [r])
    : matrix(fn, 'rewardsPerFunc', args.rewardsPerFunc, undefined, true);
  if (perFunc.length === 0) throw new Error(`${fn}: no rewards given`);
  if (args.rewardWeights) finiteArray(fn, 'rewardWeights', args.rewardWeights, perFunc[0].length);
  const G = args.numGenerations;
  if (!Number.isInteger(G) || G < 1) throw new Error(`${fn}: numGenerations must be a positive integer, got ${G}`);
  if (perFunc.length % G !== 0) {
    throw new Error(`${fn}: ${perFunc.length} rows are not divisible by numGenerations = ${G}`);
  }
  return tf.tidy(() => {
    const out = grpo.grpoAdvantages(tf.tensor2d(perFunc), {
      numGenerations: G,
      rewardWeights: args.rewardWeights,
      scaleRewards: args.scaleRewards,
    });
    return { advantages: list(out.advantages) };
  });
}

export function grpoLoss(args: {
  logps: number[][];
  oldLogps?: number[][];
  refLogps?: number[][];
  advantages: number[];
  mask: number[][];
  lossType?: grpo.GrpoLossType;
  importanceSamplingLevel?: grpo.ImportanceSamplingLevel;
  beta?: number;
  epsilon?: number;
  epsilonHigh?: number;
  maxCompletionLength?: number;
}): { loss: number; grad: number[][] } {
  const fn = 'grpoLoss';
  const shape = shapeOf(matrix(fn, 'logps', args.logps));
  if (args.oldLogps) matrix(fn, 'oldLogps', args.oldLogps, shape);
  if (args.refLogps) matrix(fn, 'refLogps', args.refLogps, shape);
  binaryMatrix(fn, 'mask', args.mask, shape);
  finiteArray(fn, 'advantages', args.advantages, shape[0]);
  try {
    grpo.grpoConfig(args);
  } catch (e) {
    throw new Error(`${fn}: ${(e as Error).message}`);
  }
  if ((args.beta ?? 0) !== 0 && !args.refLogps) throw new Error(`${fn}: refLogps is required when beta ≠ 0`);
  return tf.tidy(() => {
    const t2 = (a?: number[][]) => (a ? tf.tensor2d(a) : undefined);
    const f = (logps: tf.Tensor) =>
      grpo.grpoLoss({
        ...args,
        logps: logps as tf.Tensor2D,
        oldLogps: t2(args.oldLogps),
        refLogps: t2(args.refLogps),
        advantages: tf.tensor1d(args.advantages),
        mask: tf.tensor2d(args.mask),
      }).loss;
    const { value, grad } = tf.valueAndGrad(f)(tf.tensor2d(args.logps));
    return { loss: num(value), grad: rows(grad, shape) };
  });
}

export function dpoLoss(args: {
  chosenLogps: number[];
  rejectedLogps: number[];
  refChosenLogps: number[];
  refRejectedLogps: number[];
  beta?: number;
  lossType?: dpo.DpoLossType;
  labelSmoothing?: number;
  chosenLengths?: number[];
  rejectedLengths?: number[];
}): { loss: number; chosenRewards: number[]; rejectedRewards: number[]; gradChosen: number[]; gradRejected: number[] } {
  const fn = 'dpoLoss';
  const B = finiteArray(fn, 'chosenLogps', args.chosenLogps).length;
  if (B === 0) throw new Error(`${fn}: empty batch`);
  for (const k of ['rejectedLogps', 'refChosenLogps', 'refRejectedLogps'] as const) finiteArray(fn, k, args[k], B);
  for (const k of ['chosenLengths', 'rejectedLengths'] as const) {
    if (args[k] === undefined) continue;
    finiteArray(fn, k, args[k], B).forEach((n, i) => {
      if (!(n > 0)) throw new Error(`${fn}: ${k}[${i}] must be > 0, got ${n}`);
    });
  }
  try {
    dpo.dpoConfig(args);
  } catch (e) {
    throw new Error(`${fn}: ${(e as Error).message}`);
  }
  if (args.lossType === 'ipo' && (!args.chosenLengths || !args.rejectedLengths)) {
    throw new Error(`${fn}: lossType 'ipo' needs chosenLengths and rejectedLengths`);
  }
  return tf.tidy(() => {
    const t1 = (a?: number[]) => (a ? tf.tensor1d(a) : undefined);
    const rest = {
      ...args,
      refChosenLogps: tf.tensor1d(args.refChosenLogps),
      refRejectedLogps: tf.tensor1d(args.refRejectedLogps),
      chosenLengths: t1(args.chosenLengths),
      rejectedLengths: t1(args.rejectedLengths),
    };
    const chosen = tf.tensor1d(args.chosenLogps);
    const rejected = tf.tensor1d(args.rejectedLogps);
    const f = (c: tf.Tensor, r: tf.Tensor) =>
      dpo.dpoLoss({ ...rest, chosenLogps: c as tf.Tensor1D, rejectedLogps: r as tf.Tensor1D }).loss;
    const { value, grads } = tf.valueAndGrads(f)([chosen, rejected]);
    const out = dpo.dpoLoss({ ...rest, chosenLogps: chosen, rejectedLogps: rejected });
    return {
      loss: num(value),
      chosenRewards: list(out.chosenRewards),
      rejectedRewards: list(out.rejectedRewards),
      gradChosen: list(grads[0]),
      gradRejected: list(grads[1]),
    };
  });
}

export function gae(args: {
  rewards: number[];
  values: number[];
  gamma: number;
  lam: number;
  dones?: number[];
  nextValue?: number;
  nextDone?: number | boolean;
}): { advantages: number[]; returns: number[] } {
  const fn = 'gae';
  const T = finiteArray(fn, 'rewards', args.rewards).length;
  if (T === 0) throw new Error(`${fn}: empty trajectory`);
  finiteArray(fn, 'values', args.values, T);
  if (args.dones) binaryMatrix(fn, 'dones', [args.dones], [1, T]);
  const nextValue = args.nextValue ?? 0;
  if (!Number.isFinite(nextValue)) throw new Error(`${fn}: nextValue must be a finite number, got ${nextValue}`);
  const nextDone = Number(args.nextDone ?? 0);
  if (nextDone !== 0 && nextDone !== 1) {
    throw new Error(`${fn}: nextDone must be 0/1 or a boolean, got ${String(args.nextDone)}`);
  }
  const { gamma, lam } = args;
  if (!(gamma >= 0 && gamma <= 1) || !(lam >= 0 && lam <= 1)) {
    throw new Error(`${fn}: gamma and lam must be in [0, 1], got gamma=${gamma}, lam=${lam}`);
  }
  return tf.tidy(() => {
    const out = ppo.gae({
      rewards: tf.tensor2d([args.rewards]),
      values: tf.tensor2d([args.values]),
      gamma,
      lam,
      dones: args.dones ? tf.tensor2d([args.dones]) : undefined,
      nextValue: tf.tensor1d([nextValue]),
      nextDone: tf.tensor1d([nextDone]),
    });
    return { advantages: list(out.advantages), returns: list(out.returns) };
  });
}

export function ppoPolicyLoss(args: {
  newLogprobs: number[][];
  oldLogprobs: number[][];
  advantages: number[][];
  paddingMask: number[][];
  cliprange?: number;
}): { pgLoss: number; pgClipfrac: number; grad: number[][] } {
  const fn = 'ppoPolicyLoss';
  const shape = shapeOf(matrix(fn, 'newLogprobs', args.newLogprobs));
  matrix(fn, 'oldLogprobs', args.oldLogprobs, shape);
  matrix(fn, 'advantages', args.advantages, shape);
  const pad = binaryMatrix(fn, 'paddingMask', args.paddingMask, shape);
  if (pad.every((r) => r.every((v) => v === 1))) throw new Error(`${fn}: paddingMask masks every token`);
  const c = args.cliprange ?? 0.2;
  if (!(c > 0) || !Number.isFinite(c)) throw new Error(`${fn}: cliprange must be a finite number > 0, got ${c}`);
  return tf.tidy(() => {
    const rest = {
      oldLogprobs: tf.tensor2d(args.oldLogprobs),
      advantages: tf.tensor2d(args.advantages),
      paddingMask: tf.tensor2d(args.paddingMask),
      cliprange: c,
    };
    const x = tf.tensor2d(args.newLogprobs);
    const f = (lp: tf.Tensor) => ppo.ppoPolicyLoss({ ...rest, newLogprobs: lp as tf.Tensor2D }).pgLoss;
    const grad = tf.grad(f)(x);
    const out = ppo.ppoPolicyLoss({ ...rest, newLogprobs: x });
    return { pgLoss: num(out.pgLoss), pgClipfrac: num(out.pgClipfrac), grad: rows(grad, shape) };
  });
}

export function ppoValueLoss(args: {
  vpred: number[][];
  values: number[][];
  returns: number[][];
  validMask: number[][];
  cliprangeValue?: number;
}): { vfLoss: number; vfClipfrac: number; grad: number[][] } {
  const fn = 'ppoValueLoss';
  const shape = shapeOf(matrix(fn, 'vpred', args.vpred));
  matrix(fn, 'values', args.values, shape);
  matrix(fn, 'returns', args.returns, shape);
  const valid = binaryMatrix(fn, 'validMask', args.validMask, shape);
  if (valid.every((r) => r.every((v) => v === 0))) throw new Error(`${fn}: validMask has no valid step`);
  const c = args.cliprangeValue ?? 0.2;
  if (!(c > 0) || !Number.isFinite(c)) throw new Error(`${fn}: cliprangeValue must be a finite number > 0, got ${c}`);
  return tf.tidy(() => {
    const rest = {
      values: tf.tensor2d(args.values),
      returns: tf.tensor2d(args.returns),
      validMask: tf.tensor2d(args.validMask),
      cliprangeValue: c,
    };
    const x = tf.tensor2d(args.vpred);
    const f = (v: tf.Tensor) => ppo.ppoValueLoss({ ...rest, vpred: v as tf.Tensor2D }).vfLoss;
    const grad = tf.grad(f)(x);
    const out = ppo.ppoValueLoss({ ...rest, vpred: x });
    return { vfLoss: num(out.vfLoss), vfClipfrac: num(out.vfClipfrac), grad: rows(grad, shape) };
  });
}
