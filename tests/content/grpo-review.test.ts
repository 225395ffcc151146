import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as rl from '@/lib/rl/index';
import { expectPrinted } from './printed-numbers';

// Chapter 6's review sections (issue 32): normalize_then_sum, the leave-one-out baseline of RLOO, process-supervised
// advantages, and the gradients of the two KL placements. Numbers come from the course's core (lib/rl) where it has
// the function, else from the formula as TRL v1.13.0 writes it; the chapter's digits are compared with them.
const grpo = fs.readFileSync('content/chapters/06-grpo.mdx', 'utf8');
const _ = null;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
const std = (x: number[]) => {
  const m = mean(x);
  return Math.sqrt(x.reduce((a, b) => a + (b - m) ** 2, 0) / (x.length - 1));
};
/** (x − mean) / (std + 1e-4) with the unbiased std, as TRL's nanstd. */
const standardise = (x: number[]) => x.map((v) => (v - mean(x)) / (std(x) + 1e-4));

/** TRL v1.13.0 grpo_trainer.py:2816-2825 for one group: per-function group standardisation, weighted sum, then batch standardisation. */
function normalizeThenSum(perFunc: number[][], weights: number[]) {
  const columns = weights.map((_, k) => standardise(perFunc.map((row) => row[k])));
  const summed = perFunc.map((_, i) => columns.reduce((a, col, k) => a + weights[k] * col[i], 0));
  return { columns, summed, advantages: standardise(summed) };
}

describe('chapter 6: normalize_then_sum', () => {
  it('the lab’s group under both aggregations', () => {
    const perFunc = [[1, 1], [0, 1], [0, 1], [0, 0]];
    const weights = [1, 0.2];
    const { columns, summed, advantages } = normalizeThenSum(perFunc, weights);
    const sumThenNormalize = rl.grpoAdvantages({ rewardsPerFunc: perFunc, rewardWeights: weights, numGenerations: 4 }).advantages;
    expectPrinted(
      grpo,
      'the same group gives correctness $(1.5, -0.5, -0.5, -0.5)$ and format $(0.5, 0.5, 0.5, -1.5)$ after the per-function step, a weighted sum of $(1.6, -0.4, -0.4, -0.8)$, and after the batch step (one group here) the same advantages, $(1.48, -0.37, -0.37, -0.74)$',
      [...columns[0], ...columns[1], ...summed, ...advantages],
    );
    expectPrinted(grpo, 'That is a coincidence of this group: both functions have the same spread, $0.5$.', [std([1, 0, 0, 0])]);
    expect(std([1, 1, 1, 0])).toBeCloseTo(std([1, 0, 0, 0]), 12);
    advantages.forEach((a, i) => expect(a).toBeCloseTo(sumThenNormalize[i], 3));
    // With unequal spreads the two aggregations differ: a length penalty of spread ~0.06 is stretched to unit spread.
    const uneven = [[1, 0], [0, -0.1], [0, 0], [0, -0.1]];
    const a = normalizeThenSum(uneven, [1, 1]).advantages;
    const b = rl.grpoAdvantages({ rewardsPerFunc: uneven, rewardWeights: [1, 1], numGenerations: 4 }).advantages;
    expect(Math.max(...a.map((v, i) => Math.abs(v - b[i])))).toBeGreaterThan(0.1);
  });

  it('cites the v1.13.0 lines it describes', () => {
    expect(grpo).toContain('(`trl/trainer/grpo_trainer.py:2816-2825` at v1.13.0)');
    expect(grpo).toContain('`scale_rewards` is not read on this path at all');
    expect(grpo).toContain('TRL records the `kl` metric only when `beta != 0` (`grpo_trainer.py:3360-3361`');
    expect(grpo).toContain('"Not logged so far"');
  });
});

describe('chapter 6: the leave-one-out baseline and RLOO', () => {
  const loo = (r: number[]) => r.map((ri, i) => ri - (r.reduce((a, b) => a + b, 0) - ri) / (r.length - 1));

  it('RLOO is G/(G − 1) times group centring', () => {
    for (const r of [[1, 0, 0, 0], [1, 1, 0, 0], [0.3, 0.9, 0.1, 0.5, 0.7, 0.2]]) {
      const G = r.length;
      const centred = rl.grpoAdvantages({ rewards: r, numGenerations: G, scaleRewards: 'none' }).advantages;
      loo(r).forEach((a, i) => expect(a).toBeCloseTo((G / (G - 1)) * centred[i], 6));
    }
  });

  it('the worked group (1, 0, 0, 0)', () => {
    const r = [1, 0, 0, 0];
    const A = loo(r);
    const centred = rl.grpoAdvantages({ rewards: r, numGenerations: 4, scaleRewards: 'none' }).advantages;
    const scaled = rl.grpoAdvantages({ rewards: r, numGenerations: 4 }).advantages;
    expectPrinted(grpo, "The correct completion's siblings average $0$, so its RLOO advantage is $1 - 0 = 1$", [mean([0, 0, 0]), 1, 0, A[0]]);
    expectPrinted(grpo, 'each wrong one is compared with siblings averaging $1/3$, giving $-0.333$', [1, 3, A[1]]);
    expectPrinted(grpo, 'Group centring gives $(0.75, -0.25, -0.25, -0.25)$, and $4/3$ of that is $(1, -0.333, -0.333, -0.333)$', [...centred, 4, 3, ...centred.map((c) => (4 / 3) * c)]);
    expectPrinted(grpo, "GRPO's default scaling gives $(1.5, -0.5, -0.5, -0.5)$: the same direction, $1.5$ times larger here, because dividing by this group's standard deviation ($0.5$) rescales it", [...scaled, scaled[0] / A[0], std(r)]);
  });

  it('the quiz: (1, 1, 0, 0)', () => {
    const r = [1, 1, 0, 0];
    const centred = rl.grpoAdvantages({ rewards: r, numGenerations: 4, scaleRewards: 'none' }).advantages[0];
    expectPrinted(grpo, '"0.667; it is 4/3 times the centred reward of 0.5"', [loo(r)[0], 4, 3, centred]);
    expectPrinted(grpo, '"0.866; RLOO divides by the group\'s standard deviation"', [rl.grpoAdvantages({ rewards: r, numGenerations: 4 }).advantages[0]]);
  });
});

describe('chapter 6: process-supervised advantages', () => {
  it('a token’s advantage sums the standardised rewards of the steps ending at or after it', () => {
    const steps = [0.5, -1.0, 0.2];
    const advantageOfStep = (j: number) => steps.slice(j).reduce((a, b) => a + b, 0);
    expectPrinted(grpo, '"$-0.3$: the sum of the standardised rewards of the first step and every later step"', [advantageOfStep(0)]);
    expectPrinted(grpo, 'so they get $0.5 - 1.0 + 0.2 = -0.3$; the last step\'s tokens get only $0.2$', [...steps.map(Math.abs), advantageOfStep(0), advantageOfStep(2)]);
  });
});

describe('chapter 6: the gradients of the two KL placements', () => {
  // One position, a softmax policy over four tokens: exact expectations, gradients by central differences.
  const softmax = (z: number[]) => {
    const e = z.map((v) => Math.exp(v - Math.max(...z)));
    const s = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / s);
  };
  const logits = [0.3, -0.5, 1.1, 0.0];
  const ref = softmax([0.0, 0.2, 0.6, -0.4]);
  const kl = (p: number[], q: number[]) => p.reduce((a, pi, i) => a + pi * Math.log(pi / q[i]), 0);
  const numGrad = (f: (z: number[]) => number) =>
    logits.map((_, k) => {
      const h = 1e-5;
      const up = logits.map((v, i) => (i === k ? v + h : v));
      const down = logits.map((v, i) => (i === k ? v - h : v));
      return (f(up) - f(down)) / (2 * h);
    });
  // ∇_z log π(a) for a softmax: e_a − π.
  const score = (a: number, p: number[]) => p.map((pi, k) => (k === a ? 1 : 0) - pi);
  const expectation = (g: (a: number, p: number[]) => number[]) => {
    const p = softmax(logits);
    return p.reduce((acc, pa, a) => acc.map((v, k) => v + pa * g(a, p)[k]), [0, 0, 0, 0]);
  };

  it('the core’s k3 loss has gradient (1 − u) ∇ log π per token', () => {
    const lp = Math.log(0.5);
    const refLp = Math.log(0.4);
    const { grad } = rl.grpoLoss({ logps: [[lp]], refLogps: [[refLp]], advantages: [0], mask: [[1]], beta: 1, lossType: 'dapo' });
    expect(grad[0][0]).toBeCloseTo(1 - Math.exp(refLp - lp), 5);
  });

  it('k3 alone follows KL(π_ref ‖ π); ratio × k3 follows KL(π ‖ π_ref)', () => {
    const plain = expectation((a, p) => score(a, p).map((s) => (1 - ref[a] / p[a]) * s));
    const weighted = expectation((a, p) => score(a, p).map((s) => Math.log(p[a] / ref[a]) * s));
    const forward = numGrad((z) => kl(ref, softmax(z)));
    const reverse = numGrad((z) => kl(softmax(z), ref));
    plain.forEach((v, k) => expect(v).toBeCloseTo(forward[k], 6));
    weighted.forEach((v, k) => expect(v).toBeCloseTo(reverse[k], 6));
  });

  it('the product rule: ∂/∂ log π of ρ · k3 at ρ = 1 is the k1 log-ratio', () => {
    const lp = Math.log(0.5);
    const refLp = Math.log(0.4);
    const f = (l: number) => Math.exp(l - lp) * (Math.exp(refLp - l) - (refLp - l) - 1);
    const h = 1e-6;
    expect((f(lp + h) - f(lp - h)) / (2 * h)).toBeCloseTo(lp - refLp, 6);
  });

  it('k1 in the reward, summed over later tokens, is the gradient of the sequence KL; per-token terms miss part of it', () => {
    // Two binary tokens; π(y1) from logit a, π(y2 | y1) from logit b + c·y1. The reference is fixed.
    const theta = [0.4, -0.3, 0.9];
    const sig = (v: number) => 1 / (1 + Math.exp(-v));
    const refP1 = 0.6;
    const refP2 = [0.3, 0.7];
    const prob = (t: number[], y1: number, y2: number) => {
      const p1 = sig(t[0]);
      const p2 = sig(t[1] + t[2] * y1);
      return { p: (y1 ? p1 : 1 - p1) * (y2 ? p2 : 1 - p2), p1, p2 };
    };
    const k1 = (t: number[], y1: number, y2: number) => {
      const { p1, p2 } = prob(t, y1, y2);
      const first = Math.log((y1 ? p1 : 1 - p1) / (y1 ? refP1 : 1 - refP1));
      const second = Math.log((y2 ? p2 : 1 - p2) / (y2 ? refP2[y1] : 1 - refP2[y1]));
      return [first, second];
    };
    const seqKl = (t: number[]) => {
      let s = 0;
      for (const y1 of [0, 1]) for (const y2 of [0, 1]) s += prob(t, y1, y2).p * k1(t, y1, y2).reduce((a, b) => a + b, 0);
      return s;
    };
    const grads = (t: number[], y1: number, y2: number) => {
      const { p1, p2 } = prob(t, y1, y2);
      const g1 = [y1 - p1, 0, 0];
      const g2 = [0, y2 - p2, (y2 - p2) * y1];
      return [g1, g2];
    };
    const h = 1e-6;
    const exact = theta.map((_, k) => (seqKl(theta.map((v, i) => (i === k ? v + h : v))) - seqKl(theta.map((v, i) => (i === k ? v - h : v)))) / (2 * h));
    const rewardShaped = [0, 0, 0];
    const perToken = [0, 0, 0];
    for (const y1 of [0, 1]) {
      for (const y2 of [0, 1]) {
        const { p } = prob(theta, y1, y2);
        const [kl1, kl2] = k1(theta, y1, y2);
        const [g1, g2] = grads(theta, y1, y2);
        for (let k = 0; k < 3; k++) {
          rewardShaped[k] += p * (g1[k] * (kl1 + kl2) + g2[k] * kl2);
          perToken[k] += p * (g1[k] * kl1 + g2[k] * kl2);
        }
      }
    }
    rewardShaped.forEach((v, k) => expect(v).toBeCloseTo(exact[k], 6));
    expect(Math.abs(perToken[0] - exact[0])).toBeGreaterThan(1e-3);
  });
});
