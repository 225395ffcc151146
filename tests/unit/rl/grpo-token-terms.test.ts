/**
 * The per-token terms the GRPO loss is built from (lib/rl/grpo-token-terms.ts): hand-computed ratios, clip sides and
 * KL; the loss_type weights of chapter 6's 2-token / 8-token table; and Σ weight · ℓ equal to grpoLoss's own loss for
 * every loss_type and both importance-sampling levels, so the weights the token view shows are the loss's.
 */
import * as tf from '@tensorflow/tfjs';
import seedrandom from 'seedrandom';
import { beforeAll, describe, expect, it } from 'vitest';

import { grpoLoss, GRPO_LOSS_TYPES } from '@/lib/rl/grpo';
import { grpoLossWeights, grpoTokenTerms } from '@/lib/rl/grpo-token-terms';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const ln = Math.log;

describe('grpoTokenTerms by hand', () => {
  it('ratios, clip sides, k3 and ℓ per token', () => {
    tf.tidy(() => {
      // Row 0 (Â = +1): ratios 1.5 (above 1 + ε_high = 1.28: high), 0.5 (Â > 0: never low). Row 1 (Â = −1): 0.7 (low), 1.3.
      const terms = grpoTokenTerms({
        logps: tf.tensor2d([[ln(1.5), ln(0.5), 9], [ln(0.7), ln(1.3), 9]]),
        oldLogps: tf.zeros([2, 3]),
        refLogps: tf.tensor2d([[ln(1.5) + ln(2), ln(0.5), 0], [ln(0.7), ln(1.3), 0]]),
        advantages: tf.tensor2d([[1], [-1]]),
        mask: tf.tensor2d([[1, 1, 0], [1, 1, 0]]),
        level: 'token', beta: 0.1, epsilon: 0.2, epsilonHigh: 0.28,
      });
      const ratio = terms.ratio.arraySync() as number[][];
      [[1.5, 0.5, 1], [0.7, 1.3, 1]].flat().forEach((v, i) => expect(ratio.flat()[i]).toBeCloseTo(v, 5));
      expect(terms.clippedHigh.arraySync()).toEqual([[1, 0, 0], [0, 0, 0]]);
      expect(terms.clippedLow.arraySync()).toEqual([[0, 0, 0], [1, 0, 0]]);
      const k3 = 2 - ln(2) - 1; // u = π_ref / π_θ = 2 at the first token
      const kl = terms.kl!.arraySync() as number[][];
      [[k3, 0, 0], [0, 0, 0]].flat().forEach((v, i) => expect(kl.flat()[i]).toBeCloseTo(v, 5));
      // ℓ = −min(ρÂ, clip(ρ)Â) + β k3: −1.28 + 0.1 k3, −0.5 | −min(−0.7, −0.8) = 0.8, 1.3.
      const l = terms.perToken.arraySync() as number[][];
      [-1.28 + 0.1 * k3, -0.5].forEach((v, t) => expect(l[0][t]).toBeCloseTo(v, 5));
      [0.8, 1.3].forEach((v, t) => expect(l[1][t]).toBeCloseTo(v, 5));
    });
  });

  it("'sequence': one ratio per completion, exp of the mean masked log-ratio", () => {
    tf.tidy(() => {
      const terms = grpoTokenTerms({
        logps: tf.tensor2d([[0.1, -0.05, 0.01, 7]]),
        oldLogps: tf.zeros([1, 4]),
        advantages: tf.tensor2d([[1]]),
        mask: tf.tensor2d([[1, 1, 1, 0]]),
        level: 'sequence', beta: 0, epsilon: 3e-4, epsilonHigh: 4e-4,
      });
      // Chapter 6's worked sequence: exp(0.02) ≈ 1.020, far above 1 + 4e-4 with Â > 0, so the whole sequence is clipped.
      expect(terms.ratio.shape).toEqual([1, 1]);
      expect((terms.ratio.arraySync() as number[][])[0][0]).toBeCloseTo(Math.exp(0.02), 5);
      expect(terms.clippedHigh.arraySync()).toEqual([[1]]);
      expect(terms.kl).toBeUndefined();
    });
  });
});

describe('grpoLossWeights', () => {
  // Chapter 6, "A 2-token and an 8-token completion": L_max = 16.
  const mask = () => tf.tensor2d([[1, 1, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1, 1]]);
  const table = { grpo: [1 / 4, 1 / 16], bnpo: [1 / 10, 1 / 10], dr_grpo: [1 / 32, 1 / 32], dapo: [1 / 10, 1 / 10] };
  for (const [lossType, [short, long]] of Object.entries(table)) {
    it(`'${lossType}': ${short} per token of the 2-token answer, ${long} of the 8-token one, 0 on padding`, () => {
      const w = tf.tidy(() => grpoLossWeights(mask(), { lossType: lossType as keyof typeof table, maxCompletionLength: 16 }).arraySync());
      w[0].forEach((v, t) => expect(v).toBeCloseTo(t < 2 ? short : 0, 7));
      w[1].forEach((v) => expect(v).toBeCloseTo(long, 7));
    });
  }

  it('Σ weight · ℓ is grpoLoss for every loss_type, level and β (random inputs)', () => {
    const rng = seedrandom('weights');
    const r = (lo: number, hi: number) => lo + (hi - lo) * rng();
    let checked = 0;
    for (const lossType of GRPO_LOSS_TYPES) {
      for (const level of ['token', 'sequence'] as const) {
        for (const beta of [0, 0.04]) {
          tf.tidy(() => {
            const [B, T] = [3, 5];
            const grid = (f: () => number) => Array.from({ length: B }, () => Array.from({ length: T }, f));
            const maskRows = Array.from({ length: B }, (_, b) => Array.from({ length: T }, (_, t) => Number(t < 2 + b)));
            const args = {
              logps: tf.tensor2d(grid(() => r(-3, -0.1))),
              oldLogps: tf.tensor2d(grid(() => r(-3, -0.1))),
              refLogps: tf.tensor2d(grid(() => r(-3, -0.1))),
              advantages: tf.tensor1d([r(-1, 1), r(-1, 1), r(-1, 1)]),
              mask: tf.tensor2d(maskRows),
              lossType, importanceSamplingLevel: level, beta, epsilon: 0.2, epsilonHigh: 0.28, maxCompletionLength: 7,
              withTerms: true,
            };
            const { loss, terms } = grpoLoss(args);
            const w = grpoLossWeights(args.mask, { lossType, maxCompletionLength: 7 });
            const rebuilt = tf.sum(tf.mul(w, tf.mul(terms!.perToken, args.mask)));
            expect(rebuilt.dataSync()[0]).toBeCloseTo(loss.dataSync()[0], 6);
            checked += 1;
          });
        }
      }
    }
    expect(checked).toBe(GRPO_LOSS_TYPES.length * 4);
  });

  it('grpoLoss returns no terms unless asked', () => {
    tf.tidy(() => {
      const out = grpoLoss({ logps: tf.tensor2d([[-1]]), advantages: tf.tensor1d([1]), mask: tf.tensor2d([[1]]) });
      expect(out.terms).toBeUndefined();
    });
  });
});
