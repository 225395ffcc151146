import { describe, expect, it } from 'vitest';
import { zeroBreakdown, zeroCommunication, zeroMemory } from '@/lib/dist';

const GB = 1e9;

describe('zeroMemory: model states per GPU (ZeRO, arXiv:1910.02054)', () => {
  it("reproduces the paper's worked example: 7.5B parameters on 64 GPUs → 120, 31.4, 16.6 and 1.88 GB", () => {
    const at = (stage: 0 | 1 | 2 | 3) => zeroMemory({ params: 7.5e9, dp: 64, stage }) / GB;
    expect(at(0)).toBeCloseTo(120, 10); // (2 + 2 + 12) × 7.5
    expect(at(1)).toBeCloseTo(31.40625, 10); // 4 × 7.5 + 12 × 7.5 / 64
    expect(at(2)).toBeCloseTo(16.640625, 10); // 2 × 7.5 + 14 × 7.5 / 64
    expect(at(3)).toBeCloseTo(1.875, 10); // 16 × 7.5 / 64
    expect([at(1).toFixed(1), at(2).toFixed(1), at(3).toFixed(2)]).toEqual(['31.4', '16.6', '1.88']);
  });

  it('splits each state the way each stage says, with K defaulting to 12', () => {
    // Ψ = 1000, N_d = 4: weights 2000, gradients 2000, optimiser 12000 unsharded.
    expect(zeroBreakdown({ params: 1000, dp: 4, stage: 0 })).toEqual({ weights: 2000, gradients: 2000, optimizer: 12000, total: 16000 });
    expect(zeroBreakdown({ params: 1000, dp: 4, stage: 1 })).toEqual({ weights: 2000, gradients: 2000, optimizer: 3000, total: 7000 });
    expect(zeroBreakdown({ params: 1000, dp: 4, stage: 2 })).toEqual({ weights: 2000, gradients: 500, optimizer: 3000, total: 5500 });
    expect(zeroBreakdown({ params: 1000, dp: 4, stage: 3 })).toEqual({ weights: 500, gradients: 500, optimizer: 3000, total: 4000 });
    // Another optimiser: K = 4 (e.g. fp32 master weights only).
    expect(zeroMemory({ params: 1000, dp: 4, stage: 1, k: 4 })).toBe(2000 + 2000 + 1000);
    // One GPU: every stage is plain DP.
    for (const stage of [0, 1, 2, 3] as const) expect(zeroMemory({ params: 10, dp: 1, stage })).toBe(160);
  });

  it('gives stage 3 1.5× the communication of DP and stages 1–2', () => {
    // Ψ = 800 on 8 GPUs: 2 × 800 × 7/8 = 1400 elements sent per rank; stage 3: 3 × 800 × 7/8 = 2100.
    expect(zeroCommunication({ params: 800, dp: 8, stage: 0 })).toBe(1400);
    expect(zeroCommunication({ params: 800, dp: 8, stage: 2 })).toBe(1400);
    expect(zeroCommunication({ params: 800, dp: 8, stage: 3 })).toBe(2100);
  });

  it('refuses bad input with a clear message', () => {
    expect(() => zeroMemory({ params: 1e9, dp: 0, stage: 1 })).toThrow(/dp must be an integer ≥ 1/);
    expect(() => zeroMemory({ params: 1e9, dp: 2.5, stage: 1 })).toThrow(/dp must be an integer/);
    expect(() => zeroMemory({ params: -1, dp: 2, stage: 1 })).toThrow(/params must be a number ≥ 0/);
    expect(() => zeroMemory({ params: 1e9, dp: 2, stage: 4 as 3 })).toThrow(/stage must be 0, 1, 2 or 3/);
    expect(() => zeroMemory({ params: 1e9, dp: 2, stage: 1, k: Number.NaN })).toThrow(/k must be/);
  });
});
