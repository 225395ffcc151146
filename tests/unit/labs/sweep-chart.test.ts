/** The sweep chart's value axis: round ticks, and a flat sweep (every run at the same value) still reads. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SweepChart } from '@/labs/shell/SweepChart';
import type { SweepGroup } from '@/lib/train/sweep';

const axes = [{ field: 'learning_rate', values: [0.001, 0.01] }];
const group = (x: number, values: number[]): SweepGroup => ({
  values: [x],
  points: values.map((value, seed) => ({ seed, value })),
  mean: values.reduce((a, b) => a + b, 0) / values.length,
  std: 0,
});
/** The y-axis labels: the text of the tick labels at the left edge (text-anchor end). */
const yLabels = (groups: SweepGroup[]) =>
  [...renderToStaticMarkup(createElement(SweepChart, { axes, groups, metric: 'eval/accuracy' })).matchAll(/text-anchor="end"[^>]*>([^<]+)</g)].map((m) => m[1]);

describe('the sweep chart', () => {
  it('gives a flat sweep an axis around its value, with distinct round labels', () => {
    const labels = yLabels([group(0.001, [1, 1]), group(0.01, [1, 1])]);
    expect(labels).toContain('1.000');
    expect(new Set(labels).size).toBe(labels.length);
    // Evenly spaced, round values (no 1.29 or 1.58 from an arbitrary pad).
    const numbers = labels.map(Number);
    const steps = numbers.slice(1).map((v, i) => Math.abs(v - numbers[i]));
    for (const step of steps) expect(step).toBeCloseTo(steps[0], 9);
    for (const v of numbers) expect(Math.abs(v * 40 - Math.round(v * 40))).toBeLessThan(1e-9);
  });

  it('spans the values it draws with round ticks', () => {
    const numbers = yLabels([group(0.001, [0.42, 0.5]), group(0.01, [0.71, 0.9])]).map(Number);
    expect(Math.min(...numbers)).toBeLessThanOrEqual(0.42);
    expect(Math.max(...numbers)).toBeGreaterThanOrEqual(0.9);
    for (const v of numbers) expect(Math.abs(v * 20 - Math.round(v * 20))).toBeLessThan(1e-9); // multiples of 0.05 at most
  });
});
