/** A metric value as charts and tables print it: whole numbers from 100, two decimals from 1, else 3 significant digits. */
export const formatValue = (v: number) => (Math.abs(v) >= 100 || v === 0 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3));

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
