import * as tf from '@tensorflow/tfjs';
import seedrandom from 'seedrandom';
import { beforeAll, describe, expect, it } from 'vitest';

import { grpoAdvantageValues, grpoAdvantages as grpoAdvantagesTensor } from '@/lib/rl/grpo';
import { grpoAdvantages } from '@/lib/rl/index';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const s = Math.sqrt(1 / 3); // unbiased std of [1, 0, 0, 1] (and of [1, 0, 1])

/** Independent float64 reference: weighted nansum, unscorable rows left out of mean and std. */
function refAdvantages(perFunc: number[][], w: number[], G: number, scale: 'group' | 'batch' | 'none'): number[] {
  const r = perFunc.map((row) => row.reduce((a, v, f) => (Number.isNaN(v) ? a : a + v * w[f]), 0));
  const ok = perFunc.map((row) => row.some((v) => !Number.isNaN(v)));
  const stats = (idx: number[]) => {
    const xs = idx.filter((i) => ok[i]).map((i) => r[i]);
    const mean = xs.length ? xs.reduce((a, v) => a + v, 0) / xs.length : 0;
    const ss = xs.reduce((a, v) => a + (v - mean) ** 2, 0);
    return { mean, std: xs.length > 1 ? Math.sqrt(ss / (xs.length - 1)) : 0 };
  };
  const all = stats(r.map((_, i) => i));
  return r.map((ri, i) => {
    if (!ok[i]) return 0;
    const g = Math.floor(i / G);
    const group = stats(Array.from({ length: G }, (_, k) => g * G + k));
    const std = scale === 'batch' ? all.std : group.std;
    return scale === 'none' ? ri - group.mean : (ri - group.mean) / (std + 1e-4);
  });
}

function expectClose(actual: number[], expected: number[], tol = 1e-5): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((v, i) => expect(Math.abs(v - expected[i])).toBeLessThanOrEqual(tol * (1 + Math.abs(expected[i]))));
}

describe('grpoAdvantages', () => {
  const rewards = [1, 0, 0, 1, 2, 2, 2, 2];

  it("'group' (the default, and true): (r − group mean) / (unbiased group std + 1e-4)", () => {
    const want = [0.5, -0.5, -0.5, 0.5].map((d) => d / (s + 1e-4)).concat([0, 0, 0, 0]);
    expectClose(grpoAdvantages({ rewards, numGenerations: 4 }).advantages, want);
    expectClose(grpoAdvantages({ rewards, numGenerations: 4, scaleRewards: 'group' }).advantages, want);
    expectClose(grpoAdvantages({ rewards, numGenerations: 4, scaleRewards: true }).advantages, want);
  });

  it("'batch': keeps the group mean, divides by the std of the whole batch", () => {
    const batchStd = Math.sqrt(5.5 / 7); // mean 1.25, Σ(r − mean)² = 5.5
    const want = [0.5, -0.5, -0.5, 0.5].map((d) => d / (batchStd + 1e-4)).concat([0, 0, 0, 0]);
    expectClose(grpoAdvantages({ rewards, numGenerations: 4, scaleRewards: 'batch' }).advantages, want);
  });

  it("'none' (and false): centred only", () => {
    const want = [0.5, -0.5, -0.5, 0.5, 0, 0, 0, 0];
    expectClose(grpoAdvantages({ rewards, numGenerations: 4, scaleRewards: 'none' }).advantages, want);
    expectClose(grpoAdvantages({ rewards, numGenerations: 4, scaleRewards: false }).advantages, want);
  });

  it('sums several reward functions with rewardWeights', () => {
    // Weighted sums: 1·1 + 2·0 = 1, 0 + 2·0.5 = 1, 1 + 2·1 = 3, 0 + 0 = 0 → group of 4, mean 1.25.
    const rewardsPerFunc = [[1, 0], [0, 0.5], [1, 1], [0, 0]];
    const r = [1, 1, 3, 0];
    const sd = Math.sqrt(r.reduce((a, v) => a + (v - 1.25) ** 2, 0) / 3);
    const got = grpoAdvantages({ rewardsPerFunc, rewardWeights: [1, 2], numGenerations: 4 }).advantages;
    expectClose(got, r.map((v) => (v - 1.25) / (sd + 1e-4)));
    // Default weights are all 1: sums 1, 0.5, 2, 0.
    const unweighted = grpoAdvantages({ rewardsPerFunc, numGenerations: 4, scaleRewards: 'none' }).advantages;
    expectClose(unweighted, [1 - 0.875, 0.5 - 0.875, 2 - 0.875, -0.875]);
  });

  it('NaN in only one function is skipped (nansum); a row with every reward NaN is unscorable', () => {
    const rewardsPerFunc = [[1, NaN], [NaN, NaN], [0, NaN], [NaN, 2]];
    // Rows 0, 2, 3 score 1, 0, 0.5·2 = 1 → mean 2/3, std √(1/3); row 1 is out of the baseline, advantage 0.
    const got = grpoAdvantages({ rewardsPerFunc, rewardWeights: [1, 0.5], numGenerations: 4 }).advantages;
    expectClose(got, [1 / 3, 0, -2 / 3, 1 / 3].map((d) => d / (s + 1e-4)));
    // Same with 'batch' and 'none'.
    expectClose(grpoAdvantages({ rewardsPerFunc, rewardWeights: [1, 0.5], numGenerations: 4, scaleRewards: 'none' }).advantages, [
      1 / 3, 0, -2 / 3, 1 / 3,
    ]);
    // A single-function NaN row via `rewards`.
    expectClose(grpoAdvantages({ rewards: [1, NaN, 0, 1], numGenerations: 4 }).advantages, [1 / 3, 0, -2 / 3, 1 / 3].map((d) => d / (s + 1e-4)));
  });

  it('a group with one or no scorable row, or G = 1, gets advantage 0', () => {
    expectClose(grpoAdvantages({ rewards: [NaN, 5, 1, 2], numGenerations: 2 }).advantages, [0, 0, -0.5 / (Math.SQRT1_2 + 1e-4), 0.5 / (Math.SQRT1_2 + 1e-4)]);
    expectClose(grpoAdvantages({ rewards: [NaN, NaN], numGenerations: 2 }).advantages, [0, 0]);
    expectClose(grpoAdvantages({ rewards: [3, 7], numGenerations: 1 }).advantages, [0, 0]);
  });

  it('matches the float64 reference on random inputs with NaNs, for every scaleRewards', () => {
    const rng = seedrandom('adv');
    for (let trial = 0; trial < 20; trial++) {
      const G = 2 + Math.floor(rng() * 4);
      const N = G * (1 + Math.floor(rng() * 3));
      const F = 1 + Math.floor(rng() * 3);
      const perFunc = Array.from({ length: N }, () => Array.from({ length: F }, () => (rng() < 0.25 ? NaN : 4 * rng() - 1)));
      const w = Array.from({ length: F }, () => 2 * rng() - 0.5);
      for (const scale of ['group', 'batch', 'none'] as const) {
        const got = grpoAdvantages({ rewardsPerFunc: perFunc, rewardWeights: w, numGenerations: G, scaleRewards: scale });
        expectClose(got.advantages, refAdvantages(perFunc, w, G, scale), 2e-4);
      }
    }
  });

  it('tensor form: metrics, and no leaks', () => {
    const x = tf.tensor2d([[1], [0], [0], [1], [2], [2], [2], [2]]);
    const before = tf.memory().numTensors;
    const out = grpoAdvantagesTensor(x, { numGenerations: 4 });
    expect(out.reward.dataSync()[0]).toBeCloseTo(1.25, 6);
    expect(out.rewardStd.dataSync()[0]).toBeCloseTo(s / 2, 6); // mean over rows of [s×4, 0×4]
    expect(out.fracRewardZeroStd.dataSync()[0]).toBeCloseTo(0.5, 6);
    expect(Array.from(out.scorable.dataSync())).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(tf.memory().numTensors).toBe(before + 6);
    tf.dispose(Object.values(out));
    expect(tf.memory().numTensors).toBe(before);
  });

  it('rejects bad input with clear errors', () => {
    expect(() => grpoAdvantages({ rewards: [1, 2, 3], numGenerations: 2 })).toThrow(/not divisible by numGenerations/);
    expect(() => grpoAdvantages({ rewards: [1, 2], numGenerations: 0 })).toThrow(/positive integer/);
    expect(() => grpoAdvantages({ rewardsPerFunc: [[1, 2], [3]], numGenerations: 2 })).toThrow(/ragged/);
    expect(() => grpoAdvantages({ rewardsPerFunc: [[1, 2], [3, 4]], rewardWeights: [1], numGenerations: 2 })).toThrow(
      /rewardWeights has length 1, expected 2/,
    );
    expect(() => grpoAdvantages({ numGenerations: 2 })).toThrow(/exactly one of/);
    expect(() => grpoAdvantages({ rewards: [1, 2], rewardsPerFunc: [[1], [2]], numGenerations: 2 })).toThrow(/exactly one of/);
    expect(() => grpoAdvantages({ rewards: [1, Infinity], numGenerations: 2 })).toThrow(/finite number or NaN/);
    expect(() =>
      grpoAdvantages({ rewards: [1, 2], numGenerations: 2, scaleRewards: 'global' as unknown as 'group' }),
    ).toThrow(/scaleRewards must be one of/);
  });
});

describe('groups whose rewards are all equal', () => {
  it('get advantage exactly 0 and count in frac_reward_zero_std, despite float32 round-off', () => {
    // Eight 0.2s: their float32 mean is not exactly 0.2, so a naive std is ~1e-8, not 0.
    const rewards = [...Array(8).fill(0.2), 1, 0, 1, 0, 1, 0, 1, 0];
    const { advantages } = grpoAdvantages({ rewards, numGenerations: 8 });
    expect(advantages.slice(0, 8)).toEqual(Array(8).fill(0));
    expect(Math.abs(advantages[8])).toBeGreaterThan(0.9);
    const out = tf.tidy(() => grpoAdvantagesTensor(tf.tensor2d(rewards.map((r) => [r])), { numGenerations: 8 }).fracRewardZeroStd.dataSync()[0]);
    expect(out).toBe(0.5);
  });
});

describe('grpoAdvantageValues (what the trainer runs, on plain arrays)', () => {
  /** Rewards as the tasks give them: whole numbers, thirds, tenths, large and tiny values, ties, NaN for unscored. */
  function randomCase(rng: () => number) {
    const G = 1 + Math.floor(rng() * 8);
    const N = G * (1 + Math.floor(rng() * 12));
    const F = 1 + Math.floor(rng() * 3);
    const pick = () => {
      const u = rng();
      if (u < 0.1) return NaN;
      if (u < 0.35) return Math.floor(rng() * 3);
      if (u < 0.5) return Math.floor(rng() * 10) / 3;
      if (u < 0.6) return (rng() - 0.5) * 1e4;
      if (u < 0.7) return (rng() - 0.5) * 1e-5;
      return rng() * 2 - 1;
    };
    const allSame = rng() < 0.15 ? pick() : null; // whole groups of one value: the zero-std snap
    const rewardsPerFunc = Array.from({ length: N }, () => Array.from({ length: F }, () => allSame ?? pick()));
    const rewardWeights = rng() < 0.5 ? undefined : Array.from({ length: F }, () => Math.round((rng() * 4 - 1) * 10) / 10);
    return { rewardsPerFunc, rewardWeights, G };
  }

  const bits = (x: ArrayLike<number>) => Array.from(new Uint32Array(Float32Array.from(x).buffer));
  const scalarBits = (x: number) => bits([x])[0];

  /** Runs `cases` random cases through both forms on `backend`; returns how many outputs differed in any bit. */
  async function compareOn(backend: 'cpu' | 'wasm', cases: number, expectSame: boolean): Promise<number> {
    expect(await tf.setBackend(backend)).toBe(true);
    const rng = seedrandom(`advantages-${backend}`);
    let differing = 0;
    for (let c = 0; c < cases; c++) {
      const { rewardsPerFunc, rewardWeights, G } = randomCase(rng);
      for (const scaleRewards of ['group', 'batch', 'none'] as const) {
        const opts = { numGenerations: G, rewardWeights, scaleRewards };
        const got = grpoAdvantageValues(rewardsPerFunc, opts);
        const want = tf.tidy(() => {
          const t = grpoAdvantagesTensor(tf.tensor2d(rewardsPerFunc), opts);
          return { advantages: t.advantages.dataSync(), rewards: t.rewards.dataSync(), scorable: t.scorable.dataSync(), reward: t.reward.dataSync()[0], rewardStd: t.rewardStd.dataSync()[0], frac: t.fracRewardZeroStd.dataSync()[0] };
        });
        const label = `${backend} case ${c} ${scaleRewards}`;
        const pairs: [number[], number[]][] = [
          [bits(got.advantages), bits(want.advantages)],
          [bits(got.rewards), bits(want.rewards)],
          [bits(got.scorable), bits(want.scorable)],
          [[got.reward, got.rewardStd, got.fracRewardZeroStd].map(scalarBits), [want.reward, want.rewardStd, want.frac].map(scalarBits)],
        ];
        for (const [a, b] of pairs) {
          if (expectSame) expect(a, label).toEqual(b);
          else if (a.some((x, i) => x !== b[i])) differing++;
        }
      }
    }
    return differing;
  }

  it('gives the tensor form’s numbers on wasm bit for bit; tfjs-cpu, which sums in float64, differs in the last bits', async () => {
    await import('@tensorflow/tfjs-backend-wasm');
    try {
      expect(await compareOn('wasm', 150, true)).toBe(0);
      // Why the trainer keeps the tensor form off wasm: here the two forms disagree on some outputs.
      expect(await compareOn('cpu', 150, false)).toBeGreaterThan(0);
    } finally {
      await tf.setBackend('cpu');
    }
  });

  it('snaps groups of equal rewards to 0 and rejects bad input as the tensor form does', () => {
    const rewards = [...Array(8).fill([0.2]), [1], [0], [1], [0], [1], [0], [1], [0]];
    const out = grpoAdvantageValues(rewards, { numGenerations: 8 });
    expect(Array.from(out.advantages.slice(0, 8))).toEqual(Array(8).fill(0));
    expect(out.fracRewardZeroStd).toBe(0.5);
    expect(() => grpoAdvantageValues([[1], [2], [3]], { numGenerations: 2 })).toThrow(/not divisible by numGenerations/);
    expect(() => grpoAdvantageValues([[1], [2]], { numGenerations: 0 })).toThrow(/positive integer/);
    expect(() => grpoAdvantageValues([[1, 2], [3]], { numGenerations: 2 })).toThrow(/ragged/);
    expect(() => grpoAdvantageValues([[1, 2], [3, 4]], { numGenerations: 2, rewardWeights: [1] })).toThrow(/rewardWeights has 1 entries for 2/);
    expect(() => grpoAdvantageValues([[1], [2]], { numGenerations: 2, scaleRewards: 'global' as unknown as 'group' })).toThrow(/scaleRewards must be one of/);
  });
});
