import { describe, expect, it } from 'vitest';
import { axisEnd, formatValue } from '@/labs/shell/format';

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
