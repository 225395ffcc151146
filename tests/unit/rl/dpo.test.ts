import * as tf from '@tensorflow/tfjs';
import seedrandom from 'seedrandom';
import { beforeAll, describe, expect, it } from 'vitest';

import { dpoLoss as dpoLossTensor } from '@/lib/rl/dpo';
import { dpoLoss } from '@/lib/rl/index';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

type LossType = 'sigmoid' | 'robust' | 'hinge' | 'ipo';
interface Args {
  chosenLogps: number[];
  rejectedLogps: number[];
  refChosenLogps: number[];
  refRejectedLogps: number[];
  beta?: number;
  lossType?: LossType;
  labelSmoothing?: number;
  chosenLengths?: number[];
  rejectedLengths?: number[];
}

const logSig = (x: number) => (x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x)));

/** Independent float64 reference of TRL's dpo_loss (IPO on per-token averages). */
function ref(a: Args): { loss: number; chosen: number[]; rejected: number[] } {
  const beta = a.beta ?? 0.1;
  const ls = a.labelSmoothing ?? 0;
  const type = a.lossType ?? 'sigmoid';
  const lc = (i: number) => (type === 'ipo' ? a.chosenLengths![i] : 1);
  const lr = (i: number) => (type === 'ipo' ? a.rejectedLengths![i] : 1);
  const chosen = a.chosenLogps.map((v, i) => (v - a.refChosenLogps[i]) / lc(i));
  const rejected = a.rejectedLogps.map((v, i) => (v - a.refRejectedLogps[i]) / lr(i));
  const losses = chosen.map((c, i) => {
    const h = c - rejected[i];
    const z = beta * h;
    if (type === 'sigmoid') return -(1 - ls) * logSig(z) - ls * logSig(-z);
    if (type === 'robust') return (-(1 - ls) * logSig(z) + ls * logSig(-z)) / (1 - 2 * ls);
    if (type === 'hinge') return Math.max(0, 1 - z);
    return (h - 1 / (2 * beta)) ** 2;
  });
  return {
    loss: losses.reduce((x, y) => x + y, 0) / losses.length,
    chosen: chosen.map((c) => beta * c),
    rejected: rejected.map((r) => beta * r),
  };
}

function fd(f: (x: number[]) => number, x: number[], h = 1e-6): number[] {
  return x.map((_, i) => {
    const p = x.slice();
    const q = x.slice();
    p[i] += h;
    q[i] -= h;
    return (f(p) - f(q)) / (2 * h);
  });
}

function expectClose(actual: number[], expected: number[], tol = 1e-5): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]), `index ${i}: ${v} vs ${expected[i]}`).toBeLessThanOrEqual(tol * (1 + Math.abs(expected[i]))));
}

const sig = (x: number) => 1 / (1 + Math.exp(-x));

describe('dpoLoss by hand', () => {
  // Policy prefers chosen by 2 nats more than the reference does: h = (−10 + 12) − (−11 + 11) = 2.
  const one: Args = { chosenLogps: [-10], rejectedLogps: [-12], refChosenLogps: [-11], refRejectedLogps: [-11] };

  it("'sigmoid' (default, β = 0.1): −log σ(βh); rewards β·(policy − reference)", () => {
    const out = dpoLoss(one);
    expect(out.loss).toBeCloseTo(Math.log1p(Math.exp(-0.2)), 6);
    expectClose(out.chosenRewards, [0.1]);
    expectClose(out.rejectedRewards, [-0.1]);
    expectClose(out.gradChosen, [-0.1 * sig(-0.2)]);
    expectClose(out.gradRejected, [0.1 * sig(-0.2)]);
  });

  it("'sigmoid' with labelSmoothing ε (conservative DPO): −(1−ε) log σ(βh) − ε log σ(−βh)", () => {
    const out = dpoLoss({ ...one, labelSmoothing: 0.1 });
    expect(out.loss).toBeCloseTo(0.9 * Math.log1p(Math.exp(-0.2)) + 0.1 * Math.log1p(Math.exp(0.2)), 6);
    // d/dh = −β[(1−ε) σ(−βh) − ε σ(βh)]
    expectClose(out.gradChosen, [-0.1 * (0.9 * sig(-0.2) - 0.1 * sig(0.2))]);
  });

  it("'robust': (−(1−ε) log σ(βh) + ε log σ(−βh)) / (1 − 2ε)", () => {
    const out = dpoLoss({ ...one, lossType: 'robust', labelSmoothing: 0.1 });
    expect(out.loss).toBeCloseTo((0.9 * Math.log1p(Math.exp(-0.2)) - 0.1 * Math.log1p(Math.exp(0.2))) / 0.8, 6);
    expectClose(out.gradChosen, [(-0.1 * (0.9 * sig(-0.2) + 0.1 * sig(0.2))) / 0.8]);
    // With ε = 0 it is plain sigmoid DPO.
    expect(dpoLoss({ ...one, lossType: 'robust' }).loss).toBeCloseTo(dpoLoss(one).loss, 6);
  });

  it("'hinge': relu(1 − βh)", () => {
    const out = dpoLoss({ ...one, lossType: 'hinge' });
    expect(out.loss).toBeCloseTo(0.8, 6);
    expectClose(out.gradChosen, [-0.1]);
    expectClose(out.gradRejected, [0.1]);
    const flat = dpoLoss({ ...one, lossType: 'hinge', beta: 1 }); // βh = 2 > 1: no loss, no gradient
    expect(flat.loss).toBe(0);
    expectClose(flat.gradChosen, [0]);
  });

  it("'ipo': (h − 1/(2β))² with each log-ratio divided by its completion length", () => {
    const out = dpoLoss({ ...one, lossType: 'ipo', chosenLengths: [4], rejectedLengths: [2] });
    // Chosen: (−10 + 11) / 4 = 0.25; rejected: (−12 + 11) / 2 = −0.5; h = 0.75; 1/(2β) = 5.
    expect(out.loss).toBeCloseTo((0.75 - 5) ** 2, 5);
    expectClose(out.chosenRewards, [0.025]);
    expectClose(out.rejectedRewards, [-0.05]);
    expectClose(out.gradChosen, [(2 * (0.75 - 5)) / 4]);
    expectClose(out.gradRejected, [(2 * (0.75 - 5) * -1) / 2]);
  });

  it('loss is the batch mean; grads are per pair / B', () => {
    const two = dpoLoss({
      chosenLogps: [-10, -5], rejectedLogps: [-12, -5], refChosenLogps: [-11, -5], refRejectedLogps: [-11, -5], lossType: 'hinge',
    });
    expect(two.loss).toBeCloseTo((0.8 + 1) / 2, 6);
    expectClose(two.gradChosen, [-0.05, -0.05]);
  });
});

describe('dpoLoss properties', () => {
  it('matches the float64 reference and float64 finite differences on random inputs, every lossType', () => {
    const rng = seedrandom('dpo');
    for (let trial = 0; trial < 40; trial++) {
      const B = 1 + Math.floor(rng() * 4);
      const arr = (scale: number, shift: number) => Array.from({ length: B }, () => shift - scale * rng());
      const lossType = (['sigmoid', 'robust', 'hinge', 'ipo'] as const)[trial % 4];
      const args: Args = {
        chosenLogps: arr(20, -1), rejectedLogps: arr(20, -1), refChosenLogps: arr(20, -1), refRejectedLogps: arr(20, -1),
        beta: 0.05 + 0.5 * rng(), lossType, labelSmoothing: lossType === 'hinge' || lossType === 'ipo' ? 0 : 0.4 * rng(),
        chosenLengths: Array.from({ length: B }, () => 1 + Math.floor(rng() * 20)),
        rejectedLengths: Array.from({ length: B }, () => 1 + Math.floor(rng() * 20)),
      };
      const r = ref(args);
      if (lossType === 'hinge' && r.chosen.some((c, i) => Math.abs(1 - (c - r.rejected[i])) < 1e-3)) continue;
      const out = dpoLoss(args);
      expect(Math.abs(out.loss - r.loss)).toBeLessThan(1e-5 * (1 + Math.abs(r.loss)));
      expectClose(out.chosenRewards, r.chosen);
      expectClose(out.rejectedRewards, r.rejected);
      expectClose(out.gradChosen, fd((x) => ref({ ...args, chosenLogps: x }).loss, args.chosenLogps), 1e-4);
      expectClose(out.gradRejected, fd((x) => ref({ ...args, rejectedLogps: x }).loss, args.rejectedLogps), 1e-4);
    }
  });

  it('tensor form: TRL metrics and no leaks', () => {
    const args = {
      chosenLogps: tf.tensor1d([-10, -5]),
      rejectedLogps: tf.tensor1d([-12, -4]),
      refChosenLogps: tf.tensor1d([-11, -5]),
      refRejectedLogps: tf.tensor1d([-11, -5]),
    };
    const before = tf.memory().numTensors;
    const out = dpoLossTensor(args);
    // Rewards: chosen [0.1, 0], rejected [−0.1, 0.1].
    expect(out.metrics['rewards/accuracies'].dataSync()[0]).toBeCloseTo(0.5, 6);
    expect(out.metrics['rewards/margins'].dataSync()[0]).toBeCloseTo((0.2 - 0.1) / 2, 6);
    expect(out.metrics['rewards/chosen'].dataSync()[0]).toBeCloseTo(0.05, 6);
    expect(out.metrics['rewards/rejected'].dataSync()[0]).toBeCloseTo(0, 6);
    tf.dispose([out.loss, out.losses, out.chosenRewards, out.rejectedRewards, ...Object.values(out.metrics)]);
    expect(tf.memory().numTensors).toBe(before);
    const g = tf.grads((c: tf.Tensor) => dpoLossTensor({ ...args, chosenLogps: c as tf.Tensor1D }).loss)([args.chosenLogps]);
    tf.dispose(g);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('rejects bad input with clear errors', () => {
    const ok = { chosenLogps: [-1], rejectedLogps: [-2], refChosenLogps: [-1], refRejectedLogps: [-2] };
    expect(() => dpoLoss({ ...ok, lossType: 'kto' as LossType })).toThrow(/unknown lossType 'kto'/);
    expect(() => dpoLoss({ ...ok, beta: 0 })).toThrow(/beta must be/);
    expect(() => dpoLoss({ ...ok, lossType: 'robust', labelSmoothing: 0.5 })).toThrow(/labelSmoothing/);
    expect(() => dpoLoss({ ...ok, labelSmoothing: -0.1 })).toThrow(/labelSmoothing/);
    expect(() => dpoLoss({ ...ok, lossType: 'ipo' })).toThrow(/chosenLengths and rejectedLengths/);
    expect(() => dpoLoss({ ...ok, lossType: 'ipo', chosenLengths: [0], rejectedLengths: [1] })).toThrow(/chosenLengths\[0\] must be > 0/);
    expect(() => dpoLoss({ ...ok, rejectedLogps: [-1, -2] })).toThrow(/rejectedLogps has length 2, expected 1/);
    expect(() => dpoLoss({ ...ok, chosenLogps: [] as number[], rejectedLogps: [], refChosenLogps: [], refRejectedLogps: [] })).toThrow(/empty/);
  });
});
