/**
 * The home page's chart of a recorded run (content/home-run.json), as numbers and SVG path data: held-out accuracy at
 * each evaluation and the training reward at each step, on shared axes. Pure, so a test can check that every point
 * drawn is a number of the recorded file. No tfjs, no charting library: the page prints it as SVG.
 */
import type { HomeRun } from '@/content/recorded-runs';
import { valueAxis } from '@/ui/ticks';

export const CHART = { width: 640, height: 300, left: 52, right: 16, top: 16, bottom: 46 } as const;

export interface Series {
  name: string;
  /** The CLI's metric name. */
  metric: string;
  /** [step, value] as recorded. */
  values: [number, number][];
  /** The same, in SVG coordinates. */
  points: [number, number][];
  path: string;
}

export interface RunChartModel {
  accuracy: Series;
  reward: Series;
  maxStep: number;
  yMax: number;
  xTicks: { value: number; x: number }[];
  yTicks: { value: number; y: number }[];
  /** One sentence for screen readers and the caption, from the same numbers. */
  description: string;
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

export function runChartModel(run: HomeRun): RunChartModel {
  const { width, height, left, right, top, bottom } = CHART;
  const series = (kind: 'train' | 'eval', metric: string): [number, number][] =>
    run.history.filter((l) => l.kind === kind && typeof l.metrics[metric] === 'number').map((l) => [l.step, l.metrics[metric] as number]);
  const accuracy = series('eval', 'eval/accuracy');
  const reward = series('train', 'reward');
  const maxStep = Number(run.config.max_steps);
  const peak = Math.max(...accuracy.map(([, v]) => v), ...reward.map(([, v]) => v));
  const yAxis = valueAxis(0, peak, 4).ticks;
  const yMax = yAxis.at(-1)!;
  const x = (step: number) => left + (step / maxStep) * (width - left - right);
  const y = (value: number) => top + (1 - value / yMax) * (height - top - bottom);
  const draw = (name: string, metric: string, values: [number, number][]): Series => {
    const points = values.map(([s, v]): [number, number] => [Number(x(s).toFixed(1)), Number(y(v).toFixed(1))]);
    return { name, metric, values, points, path: points.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${px} ${py}`).join(' ') };
  };
  // The step axis ends at the run's last step: only the ticks inside it.
  const xTicks = valueAxis(0, maxStep, 6).ticks.filter((t) => t <= maxStep).map((value) => ({ value, x: x(value) }));
  const yTicks = yAxis.map((value) => ({ value, y: y(value) }));
  const [first, last] = [accuracy[0], accuracy[accuracy.length - 1]];
  const best = accuracy.reduce((a, b) => (b[1] > a[1] ? b : a));
  const description =
    `Held-out accuracy went from ${pct(first[1])} before training to ${pct(best[1])} at step ${best[0]}, ` +
    `and ended at ${pct(last[1])} after step ${last[0]}; the mean training reward per step ranged from ` +
    `${Math.min(...reward.map(([, v]) => v)).toFixed(2)} to ${Math.max(...reward.map(([, v]) => v)).toFixed(2)}.`;
  return {
    accuracy: draw('held-out accuracy', 'eval/accuracy', accuracy),
    reward: draw('training reward (mean per step)', 'reward', reward),
    maxStep,
    yMax,
    xTicks,
    yTicks,
    description,
  };
}
