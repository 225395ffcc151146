import fs from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseFrontmatter } from '@/lib/content/chapters';
import * as rl from '@/lib/rl/index';
import { softOverlongPunishment } from '@/lib/tasks/rewards';
import { expectPrinted } from './printed-numbers';

// Chapter 8 prints numbers it derives; this file recomputes each one (with the course's core where it has
// the function) and checks the chapter says what the computation gives.
const FILE = path.join('content', 'chapters', '08-research-2025.mdx');
const source = fs.readFileSync(FILE, 'utf8');

const fixed = (x: number, digits: number) => x.toFixed(digits);

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('chapter 8 as written', () => {
  it('keeps the frontmatter valid, embeds the GRPO lab for its comparison, and has its measured results in place', () => {
    const { data } = parseFrontmatter(FILE, source);
    expect(data.labs).toEqual(['grpo']);
    expect(source).toMatch(/<LabEmbed lab="grpo" \/>/);
    // The figures themselves are checked against their runs in tests/unit/train/variants-learning.test.ts.
    expect(source).not.toMatch(/LAB-RESULTS/);
  });

  it('no longer says the clip caps a probability by a factor', () => {
    expect(source).not.toMatch(/caps how far/i);
    expect(source).not.toMatch(/at most a factor of/i);
    expect(source).toMatch(/does not cap the update or the probability/);
  });

  it('names all eight TRL v1.13 loss types', () => {
    for (const t of ['grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'luspo', 'vespo']) {
      expect(source).toContain(`| \`'${t}'\``);
    }
  });
});

describe('clip-higher numbers', () => {
  it('prints where a rare token loses its gradient, and which tokens never do', () => {
    const [epsHigh, dapoHigh, rare, liked] = [0.2, 0.28, 0.01, 0.9]; // the chapter's settings and tokens
    expectPrinted(source, 'reaches $0.0128$ rather than $0.012$', [rare * (1 + dapoHigh), rare * (1 + epsHigh)]);
    expectPrinted(source, 'would need a probability of $1.08$ to reach $\\rho = 1.2$', [liked * (1 + epsHigh), 1 + epsHigh]);
    expectPrinted(source, '\\approx 0.833', [1 / (1 + epsHigh)]);
    expectPrinted(source, '1/1.28 \\approx 0.781', [null, 1 + dapoHigh, 1 / (1 + dapoHigh)]);
  });

  it('matches the core: a positive-advantage token loses its gradient past 1 + epsilon_high, and only then', () => {
    // One token, advantage +1, ratio 1.25 = exp(log 1.25): clipped at epsilon_high 0.2, not at 0.28.
    const args = { logps: [[Math.log(0.0125)]], oldLogps: [[Math.log(0.01)]], advantages: [1], mask: [[1]], lossType: 'dapo' as const };
    const symmetric = rl.grpoLoss({ ...args, epsilon: 0.2 });
    const higher = rl.grpoLoss({ ...args, epsilon: 0.2, epsilonHigh: 0.28 });
    expect(symmetric.grad[0][0]).toBe(0);
    expect(higher.grad[0][0]).toBeCloseTo(-1.25, 5); // d(-rho*A)/d logp = -rho*A
  });

  it('matches the core: with ratio exactly 1 no clip setting changes the gradient, and GSPO equals GRPO', () => {
    const base = { logps: [[-1, -2, -0.5], [-0.3, -1.2, 0]], advantages: [0.7, -0.7], mask: [[1, 1, 1], [1, 1, 0]] };
    const grpo = rl.grpoLoss({ ...base, lossType: 'grpo' });
    const tiny = rl.grpoLoss({ ...base, lossType: 'grpo', epsilon: 3e-4, epsilonHigh: 4e-4 });
    const gspo = rl.grpoLoss({ ...base, lossType: 'grpo', importanceSamplingLevel: 'sequence', epsilon: 3e-4, epsilonHigh: 4e-4 });
    for (const g of [tiny.grad, gspo.grad]) {
      g.flat().forEach((v, k) => expect(v).toBeCloseTo(grpo.grad.flat()[k], 6));
    }
    // The pitfall's wider claim: on-policy, the sequence level changes no gradient under the default 'dapo' loss either.
    const dapo = rl.grpoLoss({ ...base, lossType: 'dapo' }).grad.flat();
    rl.grpoLoss({ ...base, lossType: 'dapo', importanceSamplingLevel: 'sequence' }).grad.flat().forEach((v, k) => expect(v).toBeCloseTo(dapo[k], 6));
  });
});

describe('DAPO, Dr. GRPO and VAPO numbers', () => {
  it('soft overlong punishment with L_max 20480 and L_cache 4096, as the core computes it', () => {
    const [max, cache] = [20480, 4096];
    const penalty = (length: number) => softOverlongPunishment(max, cache)([''], { answers: [''], lengths: [length] })[0];
    expectPrinted(source, '$(16{,}384 - 18{,}432)/4{,}096 = -0.5$', [max - cache, 18432, cache, penalty(18432)]);
    expectPrinted(source, '$-3{,}072 / 4{,}096 = -0.75$', [max - cache - 19456, cache, penalty(19456)]);
  });

  it('length bias: under the per-sequence mean a 1,000-token answer gets a tenth of the per-token push of a 100-token one', () => {
    const T = 1000;
    const row = (n: number) => Array.from({ length: T }, (_, t) => (t < n ? 1 : 0));
    const args = { logps: [row(100).map(() => -1), row(1000).map(() => -1)], advantages: [-1, -1], mask: [row(100), row(1000)] };
    const perSequence = rl.grpoLoss({ ...args, lossType: 'grpo' }).grad;
    expect(perSequence[0][0] / perSequence[1][0]).toBeCloseTo(10, 4); // float32 gradients
    for (const lossType of ['dapo', 'dr_grpo'] as const) {
      const g = rl.grpoLoss({ ...args, lossType }).grad;
      expect(g[0][0] / g[1][0]).toBeCloseTo(1, 5);
    }
    expect(source).toContain('with weight $1/100$, each token of the long one with $1/1{,}000$, ten times less');
  });

  it('difficulty bias with G = 8 and TRL convention', () => {
    const one = rl.grpoAdvantages({ rewards: [1, 0, 0, 0, 0, 0, 0, 0], numGenerations: 8 }).advantages;
    const none = rl.grpoAdvantages({ rewards: [1, 0, 0, 0, 0, 0, 0, 0], numGenerations: 8, scaleRewards: 'none' }).advantages;
    const half = rl.grpoAdvantages({ rewards: [1, 1, 1, 1, 0, 0, 0, 0], numGenerations: 8 }).advantages;
    expect(fixed(one[0], 2)).toBe('2.47');
    expect(fixed(none[0], 3)).toBe('0.875');
    expect(fixed(half[0], 2)).toBe('0.94');
    expect(fixed(Math.sqrt((0.875 ** 2 + 7 * 0.125 ** 2) / 7), 3)).toBe('0.354');
    expect(fixed(Math.sqrt((8 * 0.25) / 7), 3)).toBe('0.535');
    for (const s of ['$\\hat{A} \\approx 2.47$', '$0.875$', '$0.354$', '$0.535$', '$\\pm 0.94$']) expect(source).toContain(s);
  });

  it("VAPO's length-adaptive lambda and the sum of its GAE weights", () => {
    const lambda = (l: number, alpha = 0.05) => 1 - 1 / (alpha * l);
    expect(lambda(100)).toBeCloseTo(0.8, 12);
    expect(lambda(1000)).toBeCloseTo(0.98, 12);
    expect(1 / (1 - lambda(100))).toBeCloseTo(5, 9);
    expect(1 / (1 - lambda(1000))).toBeCloseTo(50, 9);
    expect(source).toContain('$\\lambda = 0.8$ and a weight sum of 5 for $l = 100$, $\\lambda = 0.98$ and 50 for $l = 1{,}000$');
  });

  it('DeepSeek-R1: 8,192 outputs in 16 minibatches leave 15 off-policy updates of 16', () => {
    const minibatches = 16; // reported by the paper; only the first update of a rollout is on-policy
    expectPrinted(source, 'rollout of 8,192 outputs was split into 16 minibatches, so 15 of every 16 updates', [null, minibatches, minibatches - 1, minibatches]);
  });
});

describe('UCPO illustration', () => {
  it('a fixed abstention reward of 0.5 gets opposite advantages on easy and hard prompts', () => {
    const easy = rl.grpoAdvantages({ rewards: [1, 1, 1, 0.5], numGenerations: 4 }).advantages;
    const hard = rl.grpoAdvantages({ rewards: [0, 0, 0, 0.5], numGenerations: 4 }).advantages;
    expect(fixed(easy[3], 1)).toBe('-1.5');
    expect(fixed(hard[3], 1)).toBe('1.5');
    expect(source).toContain('$\\hat{A} \\approx -1.5$');
    expect(source).toContain('$\\hat{A} \\approx +1.5$');
  });
});
