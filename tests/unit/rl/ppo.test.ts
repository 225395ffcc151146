import * as tf from '@tensorflow/tfjs';
import seedrandom from 'seedrandom';
import { beforeAll, describe, expect, it } from 'vitest';

import { gae, ppoPolicyLoss, ppoValueLoss } from '@/lib/rl/index';
import * as ppo from '@/lib/rl/ppo';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

function expectClose(actual: number[] | number[][], expected: number[] | number[][], tol = 1e-5): void {
  const a = actual.flat();
  const e = expected.flat();
  expect(a.length).toBe(e.length);
  a.forEach((v, i) => expect(Math.abs(v - e[i]), `index ${i}: ${v} vs ${e[i]}`).toBeLessThanOrEqual(tol * (1 + Math.abs(e[i]))));
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

/** Float64 reverse recursion, written straight from the definition. */
function refGae(r: number[], v: number[], gamma: number, lam: number, dones: number[], nextValue: number, nextDone: number) {
  const T = r.length;
  const adv = new Array<number>(T).fill(0);
  let last = 0;
  for (let t = T - 1; t >= 0; t--) {
    const notDone = 1 - (t === T - 1 ? nextDone : dones[t + 1]);
    const vNext = t === T - 1 ? nextValue : v[t + 1];
    const delta = r[t] + gamma * vNext * notDone - v[t];
    last = delta + gamma * lam * notDone * last;
    adv[t] = last;
  }
  return { advantages: adv, returns: adv.map((a, t) => a + v[t]) };
}

describe('gae', () => {
  it('by hand: γ = 0.5, λ = 0.5, no dones, bootstraps from nextValue', () => {
    // δ = [1 + 0.5·2 − 1, 0 + 0.5·4 − 2] = [1, 0]; A_1 = 0, A_0 = 1 + 0.25·0 = 1.
    const out = gae({ rewards: [1, 0], values: [1, 2], gamma: 0.5, lam: 0.5, nextValue: 4 });
    expectClose(out.advantages, [1, 0]);
    expectClose(out.returns, [2, 2]);
    // nextDone cuts the bootstrap: δ_1 = −2, A_0 = 1 + 0.25·(−2) = 0.5.
    const cut = gae({ rewards: [1, 0], values: [1, 2], gamma: 0.5, lam: 0.5, nextValue: 4, nextDone: true });
    expectClose(cut.advantages, [0.5, -2]);
  });

  it('by hand: a done mid-trajectory stops bootstrapping and the sum', () => {
    // Step 1 begins a new episode: δ_0 = 1 + 0 − 1 = 0 (no V_1), A_0 = δ_0 only.
    // δ_1 = 2 + 1·V_2 − 3 = 2 + 5 − 3 = 4 (γ = 1), δ_2 = 0 + 0 − 5 = −5 (nextValue 0), A_2 = −5, A_1 = 4 + 0.5·(−5) = 1.5.
    const out = gae({ rewards: [1, 2, 0], values: [1, 3, 5], gamma: 1, lam: 0.5, dones: [0, 1, 0] });
    expectClose(out.advantages, [0, 1.5, -5]);
    expectClose(out.returns, [1, 4.5, 0]);
  });

  it('matches the float64 reverse recursion on random trajectories (dones, nextValue, nextDone)', () => {
    const rng = seedrandom('gae');
    for (let trial = 0; trial < 30; trial++) {
      const T = 1 + Math.floor(rng() * 12);
      const rewards = Array.from({ length: T }, () => 2 * rng() - 1);
      const values = Array.from({ length: T }, () => 2 * rng() - 1);
      const dones = Array.from({ length: T }, () => (rng() < 0.25 ? 1 : 0));
      const gamma = trial % 5 === 0 ? 1 : 0.8 + 0.2 * rng();
      const lam = trial % 7 === 0 ? 0 : rng();
      const nextValue = 2 * rng() - 1;
      const nextDone = rng() < 0.3 ? 1 : 0;
      const out = gae({ rewards, values, gamma, lam, dones, nextValue, nextDone });
      const want = refGae(rewards, values, gamma, lam, dones, nextValue, nextDone);
      expectClose(out.advantages, want.advantages, 1e-5);
      expectClose(out.returns, want.returns, 1e-5);
    }
  });

  it('tensor form is batched: rows are independent; TRL default (no dones, nextValue 0)', () => {
    const rewards = [[0, 0, 1], [1, 0, 0]];
    const values = [[0.1, 0.2, 0.3], [0.5, -0.5, 0]];
    const before = tf.memory().numTensors;
    const inputs = [tf.tensor2d(rewards), tf.tensor2d(values)] as const;
    const out = ppo.gae({ rewards: inputs[0], values: inputs[1], gamma: 1, lam: 0.95 });
    rewards.forEach((r, b) => {
      const want = refGae(r, values[b], 1, 0.95, [0, 0, 0], 0, 0);
      expectClose((out.advantages.arraySync() as number[][])[b], want.advantages);
    });
    tf.dispose([out.advantages, out.returns, ...inputs]);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('rejects bad input', () => {
    expect(() => gae({ rewards: [1, 2], values: [1], gamma: 1, lam: 1 })).toThrow(/values has length 1, expected 2/);
    expect(() => gae({ rewards: [], values: [], gamma: 1, lam: 1 })).toThrow(/empty/);
    expect(() => gae({ rewards: [1], values: [1], gamma: 1.5, lam: 1 })).toThrow(/gamma and lam/);
    expect(() => gae({ rewards: [1, 2], values: [1, 2], gamma: 1, lam: 1, dones: [0, 2] })).toThrow(/0 or 1/);
  });
});

describe('masked statistics (TRL masked_mean / masked_var / masked_whiten)', () => {
  it('by hand: padding is ignored, variance is unbiased, whitening uses rsqrt(var + 1e-8)', () => {
    tf.tidy(() => {
      const x = tf.tensor2d([[1, 2, 3, 100]]);
      const m = tf.tensor2d([[1, 1, 1, 0]]);
      expect(ppo.maskedMean(x, m).dataSync()[0]).toBeCloseTo(2, 6);
      expect(ppo.maskedVar(x, m).dataSync()[0]).toBeCloseTo(1, 6); // (1 + 0 + 1) / 2
      expect(ppo.maskedVar(x, m, false).dataSync()[0]).toBeCloseTo(2 / 3, 6);
      const k = 1 / Math.sqrt(1 + 1e-8);
      expectClose(ppo.maskedWhiten(x, m).arraySync(), [[-k, 0, k, 98 * k]]);
      expectClose(ppo.maskedWhiten(x, m, false).arraySync(), [[2 - k, 2, 2 + k, 2 + 98 * k]]);
      expectClose(ppo.maskedMean(x, m, 1).arraySync() as number[], [2]);
    });
  });

  it('whitened values have masked mean 0 and unbiased masked variance 1 (random, float64 check)', () => {
    const rng = seedrandom('whiten');
    const vals = Array.from({ length: 3 }, () => Array.from({ length: 5 }, () => 10 * rng() - 3));
    const mask = vals.map((r) => r.map(() => (rng() < 0.7 ? 1 : 0)));
    mask[0][0] = 1;
    mask[0][1] = 1;
    const w = tf.tidy(() => ppo.maskedWhiten(tf.tensor2d(vals), tf.tensor2d(mask)).arraySync()) as number[][];
    const kept = w.flat().filter((_, i) => mask.flat()[i]);
    const mean = kept.reduce((a, v) => a + v, 0) / kept.length;
    const v = kept.reduce((a, x) => a + (x - mean) ** 2, 0) / (kept.length - 1);
    expect(Math.abs(mean)).toBeLessThan(1e-5);
    expect(v).toBeCloseTo(1, 4);
  });
});

/** Float64 reference of TRL's PPO policy and value losses. */
function refPolicy(newLp: number[][], oldLp: number[][], A: number[][], pad: number[][], c: number) {
  let s = 0, n = 0, clip = 0;
  newLp.forEach((row, b) =>
    row.forEach((lp, t) => {
      if (pad[b][t]) return;
      const ratio = Math.exp(lp - oldLp[b][t]);
      const l1 = -A[b][t] * ratio;
      const l2 = -A[b][t] * Math.min(Math.max(ratio, 1 - c), 1 + c);
      s += Math.max(l1, l2);
      clip += l2 > l1 ? 1 : 0;
      n++;
    }),
  );
  return { pgLoss: s / n, pgClipfrac: clip / n };
}
function refValue(vpred: number[][], values: number[][], returns: number[][], valid: number[][], c: number) {
  let s = 0, n = 0, clip = 0;
  vpred.forEach((row, b) =>
    row.forEach((v, t) => {
      if (!valid[b][t]) return;
      const vc = Math.min(Math.max(v, values[b][t] - c), values[b][t] + c);
      const l1 = (v - returns[b][t]) ** 2;
      const l2 = (vc - returns[b][t]) ** 2;
      s += Math.max(l1, l2);
      clip += l2 > l1 ? 1 : 0;
      n++;
    }),
  );
  return { vfLoss: (0.5 * s) / n, vfClipfrac: clip / n };
}

describe('ppoPolicyLoss / ppoValueLoss', () => {
  it('policy by hand: clipped token counts in clipfrac and gets no gradient; padding ignored', () => {
    // Token 0: ratio 1.5, A = 1 → max(−1.5, −1.2) = −1.2 (clipped). Token 1: ratio 0.9, A = −2 → 1.8. Token 2: padding.
    const out = ppoPolicyLoss({
      newLogprobs: [[Math.log(1.5), Math.log(0.9), 50]],
      oldLogprobs: [[0, 0, 0]],
      advantages: [[1, -2, 7]],
      paddingMask: [[0, 0, 1]],
    });
    expect(out.pgLoss).toBeCloseTo((-1.2 + 1.8) / 2, 6);
    expect(out.pgClipfrac).toBeCloseTo(0.5, 6);
    expectClose(out.grad, [[0, (2 * 0.9) / 2, 0]]);
    // A wider cliprange un-clips token 0.
    expect(ppoPolicyLoss({ newLogprobs: [[Math.log(1.5)]], oldLogprobs: [[0]], advantages: [[1]], paddingMask: [[0]], cliprange: 0.6 }).pgClipfrac).toBe(0);
  });

  it('value by hand: vpred clipped to values ± c; ½ × masked mean of the larger squared error', () => {
    // Step 0: clip(1.5, 0.8, 1.2) = 1.2; (1.5 − 2)² = 0.25 < (1.2 − 2)² = 0.64 → clipped term wins, no gradient.
    // Step 1: 0.1 inside [−0.2, 0.2]: both 0.81. Step 2: invalid.
    const out = ppoValueLoss({
      vpred: [[1.5, 0.1, 9]],
      values: [[1, 0, 0]],
      returns: [[2, 1, 0]],
      validMask: [[1, 1, 0]],
    });
    expect(out.vfLoss).toBeCloseTo((0.5 * (0.64 + 0.81)) / 2, 6);
    expect(out.vfClipfrac).toBeCloseTo(0.5, 6);
    expectClose(out.grad, [[0, (0.5 * 2 * (0.1 - 1)) / 2, 0]]);
    // When the clipped prediction is closer to the return, the unclipped error wins and the gradient flows.
    const far = ppoValueLoss({ vpred: [[3]], values: [[0]], returns: [[1]], validMask: [[1]], cliprangeValue: 0.5 });
    expect(far.vfLoss).toBeCloseTo(0.5 * 4, 6);
    expect(far.vfClipfrac).toBe(0);
    expectClose(far.grad, [[2]]);
  });

  it('match float64 references and float64 finite differences on random inputs', () => {
    const rng = seedrandom('ppo');
    let done = 0;
    while (done < 25) {
      const B = 1 + Math.floor(rng() * 3);
      const T = 2 + Math.floor(rng() * 4);
      const mat = (f: () => number) => Array.from({ length: B }, () => Array.from({ length: T }, f));
      const oldLp = mat(() => -3 * rng());
      const newLp = oldLp.map((r) => r.map((v) => v + 0.8 * rng() - 0.4));
      const A = mat(() => 2 * rng() - 1);
      const pad = mat(() => (rng() < 0.3 ? 1 : 0));
      pad[0][0] = 0;
      const c = 0.1 + 0.2 * rng();
      const values = mat(() => 2 * rng() - 1);
      const vpred = values.map((r) => r.map((v) => v + 0.8 * rng() - 0.4));
      const returns = mat(() => 2 * rng() - 1);
      const valid = pad.map((r) => r.map((p) => 1 - p));
      const cv = 0.1 + 0.2 * rng();
      // Skip draws within 1e-3 of a clip edge or of a tie between the two value errors.
      const near = newLp.some((r, b) => r.some((v, t) => [1 - c, 1 + c].some((e) => Math.abs(Math.exp(v - oldLp[b][t]) - e) < 1e-3))) ||
        vpred.some((r, b) => r.some((v, t) => {
          const vc = Math.min(Math.max(v, values[b][t] - cv), values[b][t] + cv);
          return Math.abs(Math.abs(v - values[b][t]) - cv) < 1e-3 || (vc !== v && Math.abs((v - returns[b][t]) ** 2 - (vc - returns[b][t]) ** 2) < 1e-3);
        }));
      if (near) continue;
      done++;
      const p = ppoPolicyLoss({ newLogprobs: newLp, oldLogprobs: oldLp, advantages: A, paddingMask: pad, cliprange: c });
      const pr = refPolicy(newLp, oldLp, A, pad, c);
      expect(p.pgLoss).toBeCloseTo(pr.pgLoss, 5);
      expect(p.pgClipfrac).toBeCloseTo(pr.pgClipfrac, 6);
      expectClose(p.grad, fdGrad((x) => refPolicy(x, oldLp, A, pad, c).pgLoss, newLp), 1e-4);
      const v = ppoValueLoss({ vpred, values, returns, validMask: valid, cliprangeValue: cv });
      const vr = refValue(vpred, values, returns, valid, cv);
      expect(v.vfLoss).toBeCloseTo(vr.vfLoss, 5);
      expect(v.vfClipfrac).toBeCloseTo(vr.vfClipfrac, 6);
      expectClose(v.grad, fdGrad((x) => refValue(x, values, returns, valid, cv).vfLoss, vpred), 1e-4);
    }
  });

  it('tensor forms leak nothing and report approxKl = ½ masked mean of (Δ log p)²', () => {
    const t = {
      newLogprobs: tf.tensor2d([[-1, -2]]), oldLogprobs: tf.tensor2d([[-1.5, -2]]), advantages: tf.tensor2d([[1, 1]]),
      paddingMask: tf.tensor2d([[0, 0]]), vpred: tf.tensor2d([[0, 1]]), values: tf.tensor2d([[0, 0]]),
      returns: tf.tensor2d([[1, 1]]), validMask: tf.tensor2d([[1, 1]]),
    };
    const before = tf.memory().numTensors;
    const p = ppo.ppoPolicyLoss(t);
    const v = ppo.ppoValueLoss(t);
    expect(p.approxKl.dataSync()[0]).toBeCloseTo(0.5 * (0.25 / 2), 6);
    expect(tf.memory().numTensors).toBe(before + 5);
    tf.dispose([...Object.values(p), ...Object.values(v)]);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('reject bad input', () => {
    const one = [[0]];
    expect(() => ppoPolicyLoss({ newLogprobs: one, oldLogprobs: one, advantages: one, paddingMask: [[1]] })).toThrow(/masks every token/);
    expect(() => ppoPolicyLoss({ newLogprobs: one, oldLogprobs: one, advantages: one, paddingMask: [[0]], cliprange: 0 })).toThrow(/cliprange/);
    expect(() => ppoPolicyLoss({ newLogprobs: [[0, 1]], oldLogprobs: one, advantages: one, paddingMask: [[0]] })).toThrow(/oldLogprobs/);
    expect(() => ppoValueLoss({ vpred: one, values: one, returns: one, validMask: [[0]] })).toThrow(/no valid step/);
    expect(() => ppoValueLoss({ vpred: one, values: one, returns: one, validMask: [[1]], cliprangeValue: -1 })).toThrow(/cliprangeValue/);
  });
});
