/**
 * Chart axes, for every chart of the site (the labs' live charts and sweeps, the home page's recorded run, the DPO
 * widget): round ticks at 1, 2, 2.5 or 5 × 10^k, and step axes that end where a run ends. One helper, so every chart
 * rounds its axes the same way.
 */

const AXIS_ENDS = [1, 1.5, 2, 3, 4, 5, 6, 8, 10];
/**
 * Where a chart's step axis ends: the first of 1, 1.5, 2, 3, 4, 5, 6, 8 × 10^k at or above the last step. The axis
 * then changes a few times per run instead of at every redraw (new ticks cost a redraw of the axis and the grid), and
 * the line still fills at least two thirds of it.
 */
export function axisEnd(lastStep: number): number {
  if (!(lastStep > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(lastStep));
  return AXIS_ENDS.map((m) => m * power).find((end) => end >= lastStep)!; // power ≥ 1: every product is exact
}

export interface ValueAxis {
  /** The axis runs from ticks[0] to ticks.at(-1). */
  ticks: number[];
  /** Decimals every tick label shows: the same for all, enough to tell neighbours apart (0.1, 0.2, … not 0.105). */
  decimals: number;
}

const TICK_STEPS = [1, 2, 2.5, 5, 10];
/**
 * A value axis over [min, max]: about `count` intervals, ticks at multiples of 1, 2, 2.5 or 5 × 10^k, the range widened
 * to the ticks around it. A flat series (min = max) gets an axis around its value, so its labels still differ.
 */
export function valueAxis(min: number, max: number, count = 4): ValueAxis {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { ticks: [0, 1], decimals: 0 };
  if (max < min) [min, max] = [max, min];
  if (max === min) {
    const pad = min === 0 ? 1 : Math.abs(min) * 0.05;
    min -= pad;
    max += pad;
  }
  const rough = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = TICK_STEPS.map((m) => m * power).find((s) => s >= rough * (1 - 1e-9))!;
  // Round through the step's own decimals, so that 0.1 × 3 prints and compares as 0.3.
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9) + (step / power === 2.5 ? 1 : 0));
  const round = (v: number) => Number(v.toFixed(Math.min(20, decimals + 2)));
  const first = Math.floor(min / step + 1e-9);
  const last = Math.ceil(max / step - 1e-9);
  const ticks: number[] = [];
  for (let i = first; i <= last; i++) ticks.push(round(i * step));
  return { ticks, decimals };
}

/** The ticks of a step axis that ends at `end` (axisEnd): about four, at round steps from 0. */
export function stepTicks(end: number): number[] {
  const { ticks } = valueAxis(0, end, 4);
  return ticks.filter((t) => Number.isInteger(t) && t <= end);
}
