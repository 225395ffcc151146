import { describe, expect, it } from 'vitest';
import { effectiveRank, singularValues } from '@/lib/lora/spectrum';

describe('singular values of a weight update', () => {
  it('match hand-computed values', () => {
    // diag(3, 2) padded to 3 × 2: singular values 3 and 2.
    expect(singularValues([3, 0, 0, 2, 0, 0], 3, 2)).toEqual([3, 2].map((v) => expect.closeTo(v, 10)));
    // [[1, 1], [1, 1]] has rank 1: singular values 2 and 0.
    const ones = singularValues([1, 1, 1, 1], 2, 2);
    expect(ones[0]).toBeCloseTo(2, 10);
    expect(ones[1]).toBeCloseTo(0, 6);
    // [[3, 0], [4, 5]]: MᵀM = [[25, 20], [20, 25]], eigenvalues 45 and 5, so σ = √45 and √5.
    const m = singularValues([3, 0, 4, 5], 2, 2);
    expect(m[0]).toBeCloseTo(Math.sqrt(45), 10);
    expect(m[1]).toBeCloseTo(Math.sqrt(5), 10);
  });

  it('see the rank of a product A·B: at most r nonzero values', () => {
    // A (6 × 2) · B (2 × 5): a rank-2 matrix in a 6 × 5 space.
    const A = [1, 2, 0, 1, 3, -1, 2, 2, -1, 0, 1, 1];
    const B = [1, 0, 2, -1, 1, 0, 1, 1, 3, -2];
    const M = Array.from({ length: 30 }, (_, k) => {
      const [i, j] = [Math.floor(k / 5), k % 5];
      return A[i * 2] * B[j] + A[i * 2 + 1] * B[5 + j];
    });
    const s = singularValues(M, 6, 5);
    expect(s.filter((x) => x > 1e-6)).toHaveLength(2);
    // The Frobenius norm is the root of the sum of squared singular values.
    expect(Math.hypot(...s)).toBeCloseTo(Math.hypot(...M), 8);
  });

  it('refuses a length that does not match the shape', () => {
    expect(() => singularValues([1, 2, 3], 2, 2)).toThrow(/3 values for a 2 × 2/);
  });
});

describe('effective rank', () => {
  it('is k for k equal singular values, less when one dominates, 0 for zero', () => {
    expect(effectiveRank([2, 2, 2, 0])).toBeCloseTo(3, 10);
    expect(effectiveRank([1])).toBeCloseTo(1, 10);
    // p = (0.9, 0.1): H = −(0.9 ln 0.9 + 0.1 ln 0.1) = 0.094824 + 0.230259 = 0.325083, exp(H) = 1.384145.
    expect(effectiveRank([9, 1])).toBeCloseTo(1.384145, 5);
    expect(effectiveRank([0, 0])).toBe(0);
  });
});
