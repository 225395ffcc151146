import { describe, expect, it } from 'vitest';
import { ringAllReduceBytes, ringAllReduceSteps } from '@/lib/dist';

describe('ringAllReduceBytes: 2(N − 1)/N × size per worker', () => {
  it('matches hand-computed values', () => {
    expect(ringAllReduceBytes({ workers: 1, bytes: 1000 })).toBe(0);
    expect(ringAllReduceBytes({ workers: 2, bytes: 1000 })).toBe(1000); // 2 × 1/2
    expect(ringAllReduceBytes({ workers: 4, bytes: 1000 })).toBe(1500); // 2 × 3/4
    expect(ringAllReduceBytes({ workers: 8, bytes: 16e9 })).toBe(28e9); // 2 × 7/8 × 16 GB
    // Tends to 2 × size, whatever the ring's length.
    expect(ringAllReduceBytes({ workers: 1000, bytes: 1 })).toBeCloseTo(1.998, 12);
  });

  it('refuses bad input', () => {
    expect(() => ringAllReduceBytes({ workers: 0, bytes: 1 })).toThrow(/workers must be an integer ≥ 1/);
    expect(() => ringAllReduceBytes({ workers: 2, bytes: -5 })).toThrow(/bytes must be a number ≥ 0/);
  });
});

describe('ringAllReduceSteps: the algorithm on real numbers', () => {
  it('leaves every worker with the sum after 2(N − 1) steps, each worker sending one chunk per step', () => {
    const start = [
      [1, 2, 3],
      [10, 20, 30],
      [100, 200, 300],
    ];
    const steps = ringAllReduceSteps(start);
    expect(steps).toHaveLength(1 + 2 * 2);
    expect(steps.map((s) => s.phase)).toEqual(['start', 'reduce-scatter', 'reduce-scatter', 'all-gather', 'all-gather']);
    for (const s of steps.slice(1)) {
      expect(s.transfers).toHaveLength(3);
      expect(new Set(s.transfers.map((t) => t.from)).size).toBe(3); // every link busy every step
      for (const t of s.transfers) expect(t.to).toBe((t.from + 1) % 3);
    }
    // Step 1: worker 0 sends chunk 0 (value 1) to worker 1, which now holds 10 + 1 = 11 there.
    expect(steps[1].transfers[0]).toEqual({ from: 0, to: 1, chunk: 0, value: 1 });
    expect(steps[1].values[1][0]).toBe(11);
    // After reduce-scatter worker i holds the full sum of chunk (i + 1) mod N.
    expect(steps[2].values[0][1]).toBe(222);
    expect(steps[2].values[1][2]).toBe(333);
    expect(steps[2].values[2][0]).toBe(111);
    expect(steps[4].values).toEqual([
      [111, 222, 333],
      [111, 222, 333],
      [111, 222, 333],
    ]);
    expect(steps[4].chunksSent).toBe(4); // 2(N − 1) chunks of size/N each: 2(N − 1)/N × size
    expect(start[0]).toEqual([1, 2, 3]); // the input is not modified
  });

  it('works for other ring sizes', () => {
    for (const n of [2, 4, 5]) {
      const start = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, c) => (i + 1) * (c + 2)));
      const sums = Array.from({ length: n }, (_, c) => start.reduce((s, row) => s + row[c], 0));
      const last = ringAllReduceSteps(start).at(-1)!;
      expect(last.values).toEqual(Array.from({ length: n }, () => sums));
    }
  });

  it('refuses malformed buffers', () => {
    expect(() => ringAllReduceSteps([[1]])).toThrow(/at least 2 workers/);
    expect(() => ringAllReduceSteps([[1, 2], [3]])).toThrow(/exactly 2 chunks/);
    expect(() => ringAllReduceSteps([[1, Number.NaN], [3, 4]])).toThrow(/finite/);
  });
});
