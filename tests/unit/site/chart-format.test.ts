import { describe, expect, it } from 'vitest';
import { formatValue } from '@/labs/shell/format';
import { axisEnd, stepTicks, valueAxis } from '@/ui/ticks';

describe('how the lab charts print values and lay out their step axis', () => {
  it('prints whole numbers from 100, two decimals from 1, three significant digits below', () => {
    expect([0, 123.4, -250.6, 1.234, -3.456, 0.012345, 0.5].map(formatValue)).toEqual(['0', '123', '-251', '1.23', '-3.46', '0.0123', '0.500']);
  });

  it('ends the step axis at the first of 1, 1.5, 2, 3, 4, 5, 6, 8 × 10^k at or above the last step', () => {
    const cases: [number, number][] = [[0, 1], [1, 1], [2, 2], [7, 8], [9, 10], [10, 10], [11, 15], [16, 20], [37, 40], [81, 100], [101, 150], [500, 500], [501, 600], [601, 800], [40_000, 40_000], [40_001, 50_000]];
    for (const [last, end] of cases) expect(axisEnd(last), `last step ${last}`).toBe(end);
  });

  it('leaves the line at least two thirds of the axis, and changes the end at most 8 times per power of ten', () => {
    const ends = new Set<number>();
    for (let last = 1; last <= 1000; last++) {
      const end = axisEnd(last);
      expect(end).toBeGreaterThanOrEqual(last);
      if (last >= 10) expect(last / end, `last step ${last}`).toBeGreaterThan(2 / 3);
      ends.add(end);
    }
    // Steps are whole numbers, so 1.5 is never an end.
    expect([...ends]).toEqual([1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 400, 500, 600, 800, 1000]);
  });
});

describe('the value axis of the lab charts', () => {
  it('puts ticks at round values around the data, with labels that differ', () => {
    expect(valueAxis(0, 1)).toEqual({ ticks: [0, 0.25, 0.5, 0.75, 1], decimals: 2 });
    expect(valueAxis(0.105, 0.42)).toEqual({ ticks: [0.1, 0.2, 0.3, 0.4, 0.5], decimals: 1 });
    expect(valueAxis(11.9, 12.6)).toEqual({ ticks: [11.8, 12, 12.2, 12.4, 12.6], decimals: 1 });
    expect(valueAxis(-3, 7)).toEqual({ ticks: [-5, -2.5, 0, 2.5, 5, 7.5], decimals: 1 });
    expect(valueAxis(0, 3840)).toEqual({ ticks: [0, 1000, 2000, 3000, 4000], decimals: 0 });
  });

  it('gives a flat series an axis around its value (an importance ratio of exactly 1 read "1.00, 1.00")', () => {
    const { ticks, decimals } = valueAxis(1, 1);
    expect(ticks[0]).toBeLessThan(1);
    expect(ticks.at(-1)).toBeGreaterThan(1);
    const labels = ticks.map((t) => t.toFixed(decimals));
    expect(new Set(labels).size).toBe(labels.length);
    expect(valueAxis(0, 0).ticks).toEqual([-1, -0.5, 0, 0.5, 1]);
  });

  it('has distinct labels and covers the data for many ranges', () => {
    for (const [min, max] of [[0.0001, 0.0009], [0.5, 0.5004], [-0.02, 0.03], [1e-7, 3e-7], [97, 103], [0, 48000]]) {
      const { ticks, decimals } = valueAxis(min, max);
      expect(ticks[0], `${min}..${max}`).toBeLessThanOrEqual(min);
      expect(ticks.at(-1), `${min}..${max}`).toBeGreaterThanOrEqual(max);
      expect(ticks.length, `${min}..${max}`).toBeGreaterThanOrEqual(3);
      expect(ticks.length, `${min}..${max}`).toBeLessThanOrEqual(8);
      const labels = ticks.map((t) => t.toFixed(decimals));
      expect(new Set(labels).size, `${labels}`).toBe(labels.length);
    }
  });

  it('puts about four whole-number ticks on the step axis, from 0 to its end', () => {
    expect(stepTicks(8)).toEqual([0, 2, 4, 6, 8]);
    expect(stepTicks(60)).toEqual([0, 20, 40, 60]);
    expect(stepTicks(150)).toEqual([0, 50, 100, 150]);
    expect(stepTicks(1)).toEqual([0, 1]);
  });
});
