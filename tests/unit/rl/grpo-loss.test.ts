import * as tf from '@tensorflow/tfjs';
import seedrandom from 'seedrandom';
import { beforeAll, describe, expect, it } from 'vitest';

import { grpoLoss as grpoLossTensor } from '@/lib/rl/grpo';
import { grpoLoss } from '@/lib/rl/index';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

type LossType = 'grpo' | 'bnpo' | 'dr_grpo' | 'dapo';
type Level = 'token' | 'sequence';
interface Args {
  logps: number[][];
  oldLogps?: number[][];
  refLogps?: number[][];
  advantages: number[];
  mask: number[][];
  lossType?: LossType;
  importanceSamplingLevel?: Level;
  beta?: number;
  epsilon?: number;
  epsilonHigh?: number;
  maxCompletionLength?: number;
}

/** Independent float64 reference of TRL's GRPO loss and clip metrics, written from the formulas. */
function ref(a: Args) {
  const B = a.logps.length;
  const T = a.logps[0].length;
  const eps = a.epsilon ?? 0.2;
  const epsH = a.epsilonHigh ?? eps;
  const beta = a.beta ?? 0;
  const level = a.importanceSamplingLevel ?? 'token';
  const old = a.oldLogps ?? a.logps;
  const L: number[][] = [];
  const W: number[][] = [];
  let low = 0;
  let high = 0;
  let kl = 0;
  let tokens = 0;
  for (let b = 0; b < B; b++) {
    const m = a.mask[b];
    const len = m.reduce((x, y) => x + y, 0);
    const lr = a.logps[b].map((lp, t) => (m[t] ? lp - old[b][t] : 0));
    const seq = lr.reduce((x, y) => x + y, 0) / Math.max(len, 1);
    const A = a.advantages[b];
    L.push([]);
    W.push([]);
    for (let t = 0; t < T; t++) {
      const w = Math.exp(level === 'token' ? lr[t] : seq);
      const c = Math.min(Math.max(w, 1 - eps), 1 + epsH);
      let l = -Math.min(w * A, c * A);
      if (beta !== 0 && m[t]) {
        const d = a.refLogps![b][t] - a.logps[b][t];
        const k = Math.exp(d) - d - 1;
        l += beta * k;
        kl += k;
      }
      L[b].push(m[t] ? l : 0);
      W[b].push(w);
      if (level === 'token' && m[t]) {
        low += w < 1 - eps && A < 0 ? 1 : 0;
        high += w > 1 + epsH && A > 0 ? 1 : 0;
      }
    }
    if (level === 'sequence') {
      const w = Math.exp(seq);
      low += (w < 1 - eps && A < 0 ? 1 : 0) / B;
      high += (w > 1 + epsH && A > 0 ? 1 : 0) / B;
    }
    tokens += len;
  }
  const total = L.flat().reduce((x, y) => x + y, 0);
  const N = Math.max(tokens, 1);
  const lt = a.lossType ?? 'dapo';
  const loss =
    lt === 'grpo'
      ? L.reduce((acc, row, b) => acc + row.reduce((x, y) => x + y, 0) / Math.max(a.mask[b].reduce((x, y) => x + y, 0), 1), 0) / B
      : lt === 'dr_grpo'
        ? total / (B * (a.maxCompletionLength ?? T))
        : total / N;
  const tokenMean = (x: number) => (level === 'token' ? x / N : x);
  return { loss, low: tokenMean(low), high: tokenMean(high), kl: kl / N, W };
}

function fdGrad(f: (x: number[][]) => number, x: number[][], h = 1e-6): number[][] {
  return x.map((row, i) =>
    row.map((_, j) => {
      const p = x.map((r) => r.slice());
      const q = x.map((r) => r.slice());
      p[i][j] += h;
      q[i][j] -= h;
      return (f(p) - f(q)) / (2 * h);
    }),
  );
}

function expectClose(actual: number[] | number[][], expected: number[] | number[][], tol = 1e-5): void {
  const a = actual.flat();
  const e = expected.flat();
  expect(a.length).toBe(e.length);
  a.forEach((v, i) => expect(Math.abs(v - e[i]), `index ${i}: ${v} vs ${e[i]}`).toBeLessThanOrEqual(tol * (1 + Math.abs(e[i]))));
}

const ln = Math.log;

describe('grpoLoss by hand', () => {
  // Ratios: row 0 → 1.5 (A = +1, clipped to 1.2), 0.5 (min keeps 0.5); row 1 → 1.1 (A = −1). Pads hold junk.
  const base: Args = {
    logps: [[ln(1.5), ln(0.5), 9], [ln(1.1), -40, 9]],
    oldLogps: [[0, 0, 0], [0, 0, 0]],
    advantages: [1, -1],
    mask: [[1, 1, 0], [1, 0, 0]],
  };
  // Per-token losses: −1.2, −0.5 | 1.1; sum −0.6 over 3 tokens.

  it("'dapo' (default) and 'bnpo': token sum / token count", () => {
    expect(grpoLoss(base).loss).toBeCloseTo(-0.2, 6);
    expect(grpoLoss({ ...base, lossType: 'bnpo' }).loss).toBeCloseTo(-0.2, 6);
    expect(grpoLoss({ ...base, lossType: 'dapo' }).loss).toBeCloseTo(-0.2, 6);
  });

  it("'grpo': per-sequence mean, then batch mean", () => {
    expect(grpoLoss({ ...base, lossType: 'grpo' }).loss).toBeCloseTo((-0.85 + 1.1) / 2, 6);
  });

  it("'dr_grpo': sum / (B × maxCompletionLength), default T", () => {
    expect(grpoLoss({ ...base, lossType: 'dr_grpo', maxCompletionLength: 4 }).loss).toBeCloseTo(-0.6 / 8, 6);
    expect(grpoLoss({ ...base, lossType: 'dr_grpo' }).loss).toBeCloseTo(-0.6 / 6, 6);
  });

  it('gradient: zero where clipped, −A·ratio / N where not, zero on padding', () => {
    const { grad } = grpoLoss(base);
    expectClose(grad, [[0, -0.5 / 3, 0], [1.1 / 3, 0, 0]]);
  });

  it('asymmetric clip: epsilonHigh = 0.6 lets ratio 1.5 through', () => {
    const out = grpoLoss({ ...base, epsilonHigh: 0.6 });
    expect(out.loss).toBeCloseTo((-1.5 - 0.5 + 1.1) / 3, 6);
    expectClose(out.grad, [[-1.5 / 3, -0.5 / 3, 0], [1.1 / 3, 0, 0]]);
    // epsilon 0.05 (epsilonHigh follows it): 1.5 clips to 1.05; with A < 0 the ratio 1.1 stays (the min is pessimistic).
    expect(grpoLoss({ ...base, epsilon: 0.05 }).loss).toBeCloseTo((-1.05 - 0.5 + 1.1) / 3, 6);
  });

  it("importanceSamplingLevel 'sequence' (GSPO): ratio = exp(masked mean token log-ratio)", () => {
    const w0 = Math.sqrt(0.75); // exp((ln 1.5 + ln 0.5) / 2), inside [0.8, 1.2]
    const out = grpoLoss({ ...base, importanceSamplingLevel: 'sequence' });
    expect(out.loss).toBeCloseTo((-2 * w0 + 1.1) / 3, 6);
    // ∂/∂lp_t of −A·w0 with w0 = exp(mean): −A·w0 / len per token, times 2 tokens, over N = 3.
    expectClose(out.grad, [[(-w0 / 2) * 2 / 3, (-w0 / 2) * 2 / 3, 0], [1.1 / 3, 0, 0]]);
  });

  it('beta adds β·(exp(ref − lp) − (ref − lp) − 1) per token', () => {
    const refLogps = [[ln(1.5) + ln(2), ln(0.5), 0], [ln(1.1), 0, 0]]; // d = ln 2, 0 | 0
    const k = 1 - ln(2);
    const out = grpoLoss({ ...base, refLogps, beta: 0.1 });
    expect(out.loss).toBeCloseTo((-0.6 + 0.1 * k) / 3, 6);
    // ∂KL/∂lp = 1 − exp(d) = −1 at the first token.
    expectClose(out.grad, [[(0.1 * -1) / 3, -0.5 / 3, 0], [1.1 / 3, 0, 0]]);
    // beta 0 ignores the reference entirely.
    expect(grpoLoss({ ...base, refLogps, beta: 0 }).loss).toBeCloseTo(-0.2, 6);
  });

  it('tensor form: clip ratios TRL-style and the KL metric', () => {
    tf.tidy(() => {
      const args = {
        logps: tf.tensor2d([[ln(1.5), ln(0.5), 9], [ln(0.7), ln(1.3), 9]]),
        oldLogps: tf.zeros([2, 3]) as tf.Tensor2D,
        refLogps: tf.tensor2d([[ln(1.5) + ln(2), ln(0.5), 0], [ln(0.7), ln(1.3), 0]]),
        advantages: tf.tensor1d([1, -1]),
        mask: tf.tensor2d([[1, 1, 0], [1, 1, 0]]),
        beta: 0.1,
      };
      // Tokens: 1.5 with A > 0 → high; 0.5 with A > 0 → neither; 0.7 with A < 0 → low; 1.3 with A < 0 → neither.
      const { metrics } = grpoLossTensor(args);
      expect(metrics['clip_ratio/low_mean'].dataSync()[0]).toBeCloseTo(0.25, 6);
      expect(metrics['clip_ratio/high_mean'].dataSync()[0]).toBeCloseTo(0.25, 6);
      expect(metrics['clip_ratio/region_mean'].dataSync()[0]).toBeCloseTo(0.5, 6);
      expect(metrics.kl!.dataSync()[0]).toBeCloseTo((1 - ln(2)) / 4, 6);
      // Sequence level: the metrics are per-sequence means.
      const seq = grpoLossTensor({ ...args, importanceSamplingLevel: 'sequence', epsilon: 0.1 }).metrics;
      // Row 0: exp(mean(ln 1.5, ln 0.5)) = 0.866 < 0.9 but A > 0 → not low; row 1: exp(mean(ln .7, ln 1.3)) = 0.954.
      expect(seq['clip_ratio/low_mean'].dataSync()[0]).toBe(0);
      expect(seq['clip_ratio/high_mean'].dataSync()[0]).toBe(0);
      const e = grpoLossTensor({ ...args, entropies: tf.tensor2d([[1, 3, 100], [2, 2, 100]]) }).metrics.entropy!;
      expect(e.dataSync()[0]).toBeCloseTo(2, 6);
      expect(grpoLossTensor({ ...args, beta: 0 }).metrics.kl).toBeUndefined();
      // The mean ratio π/π_old over real tokens, (1.5 + 0.5 + 0.7 + 1.3) / 4, per token at either level; a padded
      // log-ratio of 200 (exp overflows float32) is masked before exp and never turns it into NaN.
      const padded = { ...args, logps: tf.tensor2d([[ln(1.5), ln(0.5), 200], [ln(0.7), ln(1.3), 200]]) };
      expect(grpoLossTensor(padded).metrics['policy/ratio_mean']!.dataSync()[0]).toBeCloseTo(1, 6);
      expect(grpoLossTensor({ ...padded, importanceSamplingLevel: 'sequence' }).metrics['policy/ratio_mean']!.dataSync()[0]).toBeCloseTo(1, 6);
      expect(grpoLossTensor({ ...args, oldLogps: undefined }).metrics['policy/ratio_mean']).toBeUndefined();
    });
  });
});

describe('grpoLoss properties', () => {
  it('missing oldLogps: ratio 1 and gradient −A·(mask weight) for every lossType', () => {
    const logps = [[-1, -2, -0.5], [-0.3, -4, -1]];
    const mask = [[1, 1, 0], [1, 1, 1]];
    const advantages = [0.7, -1.3];
    const w: Record<LossType, (b: number) => number> = {
      dapo: () => 1 / 5,
      bnpo: () => 1 / 5,
      grpo: (b) => 1 / (2 * (b === 0 ? 2 : 3)),
      dr_grpo: () => 1 / (2 * 8),
    };
    for (const lossType of ['dapo', 'bnpo', 'grpo', 'dr_grpo'] as const) {
      for (const importanceSamplingLevel of ['token', 'sequence'] as const) {
        const out = grpoLoss({ logps, mask, advantages, lossType, importanceSamplingLevel, maxCompletionLength: 8 });
        const want = mask.map((row, b) => row.map((m) => -advantages[b] * m * w[lossType](b)));
        expectClose(out.grad, want);
        expect(out.loss).toBeCloseTo(want.flat().reduce((x, y) => x + y, 0), 6); // ratio 1 ⇒ loss = Σ −A·weight
      }
    }
  });

  it('sequence-level equals token-level when each row has one token', () => {
    const rng = seedrandom('one-token');
    for (let trial = 0; trial < 5; trial++) {
      const logps = [[-1 - rng()], [-2 * rng()], [-0.5 - rng()]];
      const oldLogps = logps.map((r) => r.map((v) => v + 0.6 * rng() - 0.3));
      const args = { logps, oldLogps, advantages: [1, -0.5, 2], mask: [[1], [1], [1]], epsilon: 0.1, epsilonHigh: 0.15 };
      const tok = grpoLoss(args);
      const seq = grpoLoss({ ...args, importanceSamplingLevel: 'sequence' });
      expect(seq.loss).toBeCloseTo(tok.loss, 6);
      expectClose(seq.grad, tok.grad);
    }
  });

  it('matches the float64 reference (loss, metrics) and float64 finite differences (grad) on random inputs', () => {
    const rng = seedrandom('grpo-random');
    let checked = 0;
    while (checked < 48) {
      const B = 2 + Math.floor(rng() * 3);
      const T = 2 + Math.floor(rng() * 4);
      const logps = Array.from({ length: B }, () => Array.from({ length: T }, () => -0.1 - 3 * rng()));
      const oldLogps = logps.map((r) => r.map((v) => v + 0.9 * rng() - 0.45));
      const refLogps = logps.map((r) => r.map((v) => v + 1.2 * rng() - 0.6));
      const mask = logps.map(() => {
        const len = Math.floor(rng() * (T + 1)); // 0 … T: an empty row tests the clamp(min=1)
        return Array.from({ length: T }, (_, t) => (t < len ? 1 : 0));
      });
      if (mask.flat().every((m) => m === 0)) mask[0][0] = 1;
      const advantages = logps.map(() => 3 * rng() - 1.5);
      const lossType = (['grpo', 'bnpo', 'dr_grpo', 'dapo'] as const)[checked % 4];
      const importanceSamplingLevel = (['token', 'sequence'] as const)[Math.floor(checked / 4) % 2];
      const beta = Math.floor(checked / 8) % 2 ? 0.04 + 0.2 * rng() : 0;
      const epsilon = 0.1 + 0.2 * rng();
      const epsilonHigh = rng() < 0.5 ? epsilon : 0.1 + 0.3 * rng();
      const useOld = Math.floor(checked / 16) % 3 !== 2;
      const args: Args = {
        logps, oldLogps: useOld ? oldLogps : undefined, refLogps: beta ? refLogps : undefined, advantages, mask,
        lossType, importanceSamplingLevel, beta, epsilon, epsilonHigh, maxCompletionLength: T + 2,
      };
      // Finite differences are meaningless across a clip boundary: skip draws that land near one.
      const r = ref(args);
      const nearKink = r.W.some((row, b) =>
        row.some((w, t) => mask[b][t] && (Math.abs(w - (1 - epsilon)) < 1e-3 || Math.abs(w - (1 + epsilonHigh)) < 1e-3)),
      );
      if (nearKink) continue;
      checked++;
      const out = grpoLoss(args);
      expect(Math.abs(out.loss - r.loss)).toBeLessThan(1e-5 * (1 + Math.abs(r.loss)));
      // A missing oldLogps is the current logps held fixed while differentiating.
      const fixedOld = args.oldLogps ?? logps.map((row) => row.slice());
      const fd = fdGrad((x) => ref({ ...args, logps: x, oldLogps: fixedOld }).loss, logps);
      expectClose(out.grad, fd, 1e-4);
      tf.tidy(() => {
        const t = (a?: number[][]) => (a ? tf.tensor2d(a) : undefined);
        const { metrics } = grpoLossTensor({
          ...args, logps: tf.tensor2d(logps), oldLogps: t(args.oldLogps), refLogps: t(args.refLogps),
          advantages: tf.tensor1d(advantages), mask: tf.tensor2d(mask),
        });
        expect(metrics['clip_ratio/low_mean'].dataSync()[0]).toBeCloseTo(r.low, 5);
        expect(metrics['clip_ratio/high_mean'].dataSync()[0]).toBeCloseTo(r.high, 5);
        expect(metrics['clip_ratio/region_mean'].dataSync()[0]).toBeCloseTo(r.low + r.high, 5);
        if (beta) expect(metrics.kl!.dataSync()[0]).toBeCloseTo(r.kl, 5);
      });
    }
  });

  it('numItemsInBatch replaces the dapo denominator (gradient accumulation)', () => {
    const out = tf.tidy(() =>
      grpoLossTensor({
        logps: tf.tensor2d([[-1, -1]]), advantages: tf.tensor1d([2]), mask: tf.tensor2d([[1, 1]]), numItemsInBatch: 8,
      }).loss.dataSync()[0],
    );
    expect(out).toBeCloseTo((-2 * 2) / 8, 6);
  });

  it('trains inside optimizer.minimize and leaks no tensors', () => {
    const lp = tf.variable(tf.tensor2d([[-1, -2], [-1.5, -0.5]]));
    const fixed = {
      oldLogps: tf.tensor2d([[-1, -2], [-1.5, -0.5]]),
      refLogps: tf.tensor2d([[-1.2, -2], [-1.5, -0.4]]),
      advantages: tf.tensor1d([1, -1]),
      mask: tf.tensor2d([[1, 1], [1, 0]]),
      beta: 0.05,
    };
    const before = tf.memory().numTensors;
    const out = grpoLossTensor({ ...fixed, logps: lp as unknown as tf.Tensor2D });
    expect(tf.memory().numTensors).toBe(before + 6); // loss + kl + 3 clip ratios + the ratio mean (oldLogps given)
    tf.dispose([out.loss, ...Object.values(out.metrics)]);
    const bare = grpoLossTensor({ logps: lp as unknown as tf.Tensor2D, advantages: fixed.advantages, mask: fixed.mask });
    tf.dispose([bare.loss, ...Object.values(bare.metrics)]);
    expect(tf.memory().numTensors).toBe(before);
    const opt = tf.train.sgd(0.5);
    for (let i = 0; i < 3; i++) {
      tf.dispose(opt.minimize(() => grpoLossTensor({ ...fixed, logps: lp as unknown as tf.Tensor2D }).loss, true) ?? []);
    }
    // Positive advantage pushes row 0 up, negative pushes row 1 down.
    const v = lp.arraySync();
    expect(v[0][0]).toBeGreaterThan(-1);
    expect(v[1][0]).toBeLessThan(-1.5);
    expect(v[1][1]).toBeCloseTo(-0.5, 6); // masked token untouched
    const afterTraining = tf.memory().numTensors;
    tf.dispose(opt.minimize(() => grpoLossTensor({ ...fixed, logps: lp as unknown as tf.Tensor2D }).loss, true) ?? []);
    expect(tf.memory().numTensors).toBe(afterTraining);
  });

  it('rejects bad input with clear errors', () => {
    const ok = { logps: [[-1, -2]], advantages: [1], mask: [[1, 1]] };
    expect(() => grpoLoss({ ...ok, lossType: 'ppo' as LossType })).toThrow(/unknown lossType 'ppo'/);
    expect(() => grpoLoss({ ...ok, importanceSamplingLevel: 'seq' as Level })).toThrow(/importanceSamplingLevel/);
    expect(() => grpoLoss({ ...ok, epsilon: 0 })).toThrow(/epsilon must be/);
    expect(() => grpoLoss({ ...ok, epsilon: -0.2 })).toThrow(/epsilon must be/);
    expect(() => grpoLoss({ ...ok, epsilonHigh: 0 })).toThrow(/epsilonHigh must be/);
    expect(() => grpoLoss({ ...ok, beta: -1 })).toThrow(/beta must be/);
    expect(() => grpoLoss({ ...ok, beta: 0.1 })).toThrow(/refLogps is required/);
    expect(() => grpoLoss({ ...ok, logps: [[-1, -2], [-1]], advantages: [1, 1], mask: [[1, 1], [1, 1]] })).toThrow(/ragged/);
    expect(() => grpoLoss({ ...ok, mask: [[1, 0.5]] })).toThrow(/must be 0 or 1/);
    expect(() => grpoLoss({ ...ok, oldLogps: [[-1]] })).toThrow(/oldLogps must be \[1,2\]: row 0 has length 1, expected length 2/);
    expect(() => grpoLoss({ ...ok, advantages: [1, 2] })).toThrow(/advantages has length 2, expected 1/);
    expect(() => grpoLoss({ ...ok, lossType: 'dr_grpo', maxCompletionLength: 0 })).toThrow(/maxCompletionLength/);
  });
});
