'use client';

import { type RefObject, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { LogLine } from '@/lib/train/run';
import type { Settings } from '@/ui/settings';
import { drawsRun } from './chartsInView';
import { formatValue as format } from './format';
import MetricPlot, { type PlotLine } from './MetricPlot';
import { metricWords } from './metricWords';

/** `value` itself while it equals the previous one (by `same`), so that memoised children skip their render. */
function useStable<T>(value: T, same: (a: T, b: T) => boolean): T {
  const kept = useRef(value);
  if (kept.current !== value && !same(kept.current, value)) kept.current = value;
  return kept.current;
}
const sameRow = (a: Record<string, number>, b: Record<string, number>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
};
const sameRows = (a: Record<string, number>[], b: Record<string, number>[]) => a.length === b.length && a.every((row, i) => sameRow(row, b[i]));
const sameLines = (a: PlotLine[], b: PlotLine[]) =>
  a.length === b.length && a.every((l, i) => l.dataKey === b[i].dataKey && l.name === b[i].name && l.metric === b[i].metric && l.colour === b[i].colour && l.dash === b[i].dash);

/**
 * Redraws take turns, one chart per task: each is a few milliseconds, and a lab's charts then never add up to one long
 * task of the page, whatever their number.
 */
const redraws: (() => void)[] = [];
const REDRAW_MEASURE = 'arl:chart-redraw';
function queueRedraw(redraw: () => void) {
  redraws.push(redraw);
  if (redraws.length === 1) setTimeout(drawNext);
}
function drawNext() {
  const start = performance.now();
  redraws.shift()?.();
  // Each redraw is a user-timing entry for observers (devtools' Timings track; npm run bench:main-thread), not kept in
  // the page's buffer: a long run would pile them up.
  performance.measure(REDRAW_MEASURE, { start, end: performance.now() });
  performance.clearMeasures(REDRAW_MEASURE);
  if (redraws.length > 0) setTimeout(drawNext);
}

export interface ChartRun {
  label: string;
  history: LogLine[];
  /** The run's settings, for a chart whose series depend on them (ChartSpec.seriesOf). */
  settings?: Settings;
}

/** A chart's x-axis where a lab's steps go by another name: self-improvement's rounds, round 0 being step 1. */
export interface StepAxis {
  /** What the axis counts, in the axis title, the hover readout and the data table ("round"). */
  title: string;
  /** Where a line logged at `step` sits on the axis, or null to leave it off (a lab's evaluation before training). */
  at(step: number): number | null;
}

export interface ChartSpec {
  title: string;
  /** Metric names (TRL's logged names); one line each per run. */
  metrics: string[];
  kind: 'train' | 'eval';
  /** The value axis's title, a few words (a unit, or what the values count); needed with more than one metric, else
   * the metric's words (metricWords.ts). */
  axis?: string;
  /** Fixed y range, e.g. [0, 1] for accuracies. */
  domain?: [number, number];
  /**
   * Which of `metrics` a run with these settings can log (self-improvement's accuracy per difficulty stops at its
   * target_digits): only those get a line and a legend entry. Default: all of them.
   */
  seriesOf?(settings: Settings): string[];
  /** Default: the trainer's steps as logged. */
  stepAxis?: StepAxis;
  /**
   * For a chart of a later phase (the vision lab's GRPO phase, self-improvement's sampled rounds): the first step
   * that logs its metrics under these settings, and the phase's name, so that an empty chart says when its data comes
   * instead of suggesting a setting is wrong.
   */
  startsAt?(settings: Settings): { step: number; phase: string };
  /**
   * The settings whose runs the chart is about (the agent lab's memory chart: the memory task's), where not all of
   * them: shown only for those, and only their runs draw in it (chartsInView.ts). Default: every run's.
   */
  appliesTo?(settings: Settings): boolean;
  /** Steps where the run changes phase under these settings, each with a word or two, marked on the plot. */
  marks?(settings: Settings): { step: number; label: string }[];
}

/** "every second step", "every 12th step": ordinals in words up to ten, then with the right suffix. */
export function everyNth(n: number): string {
  const words = ['', '', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
  if (n < words.length) return words[n];
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

// Eight distinct hues (four of them Okabe–Ito's colour-blind-safe orange, pink, vermilion and sky blue), each
// readable on the light and the dark background.
const COLOURS = ['#2f7ed8', '#e69f00', '#19a979', '#cc79a7', '#d55e00', '#56b4e9', '#945ecf', '#8c8c3c'];
const DASHES = [undefined, '6 3', '2 2'];

/** More points than a 170-px chart can show only slow it down: beyond this, every k-th step is drawn. */
const MAX_CHART_POINTS = 600;
/** A chart redraws at most this often while a run logs (its table and the status line follow every line). */
const MIN_REDRAW_MS = 400;
/**
 * A chart out of the viewport redraws at most this often, and at once when it scrolls into view. Redrawing the charts
 * nobody sees every 400 ms kept a lab's main thread busy about half the run on a 2-core machine, CPU the training
 * worker lost (issue 50: the GRPO lab took 1.5× as long as the same loop in a bare worker, which matches Node); a
 * reader sees every chart they look at as often as before, and one off screen is never more than 3 s behind.
 */
const OFFSCREEN_REDRAW_MS = 3000;

/** Whether `element` is in (or near) the viewport; true where IntersectionObserver is missing, so such a chart always draws. */
function useInView(element: RefObject<HTMLElement | null>): boolean {
  const [inView, setInView] = useState(true);
  useEffect(() => {
    const el = element.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting)), { rootMargin: '200px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [element]);
  return inView;
}
/** The data table shows this many rows at a time (an imported run can have 40,000 steps). */
const TABLE_PAGE_ROWS = 100;

type Point = { step: number; values: [string, number][] };
// A finished, saved or imported run's history never changes (a new log line makes a new array), so what one chart
// reads from it is read once, not at every render while another run trains.
const pointsCache = new WeakMap<LogLine[], Map<string, Point[]>>();

/** The phase changes of the chart's runs (ChartSpec.marks), each step once. */
function phaseMarks(spec: ChartSpec, runs: ChartRun[]): { step: number; label: string }[] {
  if (!spec.marks) return [];
  const marks = new Map<number, string>();
  for (const run of runs) if (run.settings) for (const m of spec.marks(run.settings)) if (!marks.has(m.step)) marks.set(m.step, m.label);
  return [...marks].sort((a, b) => a[0] - b[0]).map(([step, label]) => ({ step, label }));
}

/** The longest run's length on the chart's axis (its max_steps), or undefined when a run does not say. */
function runLength(runs: ChartRun[], at: (step: number) => number | null): number | undefined {
  let longest = 0;
  for (const run of runs) {
    const steps = Number(run.settings?.max_steps);
    const end = Number.isInteger(steps) && steps > 0 ? at(steps) : null;
    if (end === null) return undefined;
    longest = Math.max(longest, end);
  }
  return longest > 0 ? longest : undefined;
}

/**
 * The later phase every run on the chart is still before, with the first step it logs on (numbered on the chart's axis),
 * or null when some run is past it (then an empty chart means the settings do not produce the metrics).
 */
function upcomingPhase(spec: ChartSpec, runs: ChartRun[]): { step: number | string; phase: string } | null {
  let first: { step: number; phase: string } | null = null;
  for (const run of runs) {
    if (!run.settings) return null;
    const starts = spec.startsAt!(run.settings);
    const reached = run.history.reduce((m, l) => (l.kind === 'train' ? Math.max(m, l.step) : m), 0);
    if (reached >= starts.step) return null;
    if (first === null || starts.step < first.step) first = starts;
  }
  if (first === null) return null;
  return { step: spec.stepAxis?.at(first.step) ?? first.step, phase: first.phase };
}

/** The chart's metrics at each logged step of one run, from its lines of the chart's kind. */
function pointsOf(history: LogLine[], spec: ChartSpec): Point[] {
  const id = `${spec.kind}|${spec.metrics.join(',')}`;
  const cached = pointsCache.get(history)?.get(id);
  if (cached) return cached;
  const points: Point[] = [];
  for (const line of history) {
    if (line.kind !== spec.kind) continue;
    const values = spec.metrics.flatMap((metric): [string, number][] => (line.metrics[metric] === undefined ? [] : [[metric, line.metrics[metric]]]));
    if (values.length > 0) points.push({ step: line.step, values });
  }
  if (!pointsCache.has(history)) pointsCache.set(history, new Map());
  pointsCache.get(history)!.set(id, points);
  return points;
}

/** Every k-th row and the last, so the line keeps its shape and its end. */
function thin<T>(rows: T[], max: number): { rows: T[]; stride: number } {
  if (rows.length <= max) return { rows, stride: 1 };
  const stride = Math.ceil(rows.length / max);
  const kept = rows.filter((_, i) => i % stride === 0);
  if (kept.at(-1) !== rows.at(-1)) kept.push(rows.at(-1)!);
  return { rows: kept, stride };
}

/** One chart: each metric of each run as a line; values on hover; the same numbers as a table on request. */
export function MetricChart({ spec, runs }: { spec: ChartSpec; runs: ChartRun[] }) {
  const [tableOpen, setTableOpen] = useState(false);
  const [page, setPage] = useState(0);
  const key = (run: number, metric: string) => `${run}:${metric}`;
  const at = spec.stepAxis ? spec.stepAxis.at : (step: number) => step;
  const stepTitle = spec.stepAxis?.title ?? 'step';
  // Each row's `step` is its place on the x-axis (a round, for a lab that counts rounds).
  const byStep = new Map<number, Record<string, number>>();
  runs.forEach((run, r) => {
    if (!drawsRun(spec, run)) return;
    for (const point of pointsOf(run.history, spec)) {
      const x = at(point.step);
      if (x === null) continue;
      const row = byStep.get(x) ?? { step: x };
      for (const [metric, value] of point.values) row[key(r, metric)] = value;
      byStep.set(x, row);
    }
  });
  const data = [...byStep.values()].sort((a, b) => a.step - b.step);
  const plotted = thin(data, MAX_CHART_POINTS);
  const pages = Math.max(1, Math.ceil(data.length / TABLE_PAGE_ROWS));
  const shownPage = Math.min(page, pages - 1);
  const tableRows = tableOpen ? data.slice(shownPage * TABLE_PAGE_ROWS, (shownPage + 1) * TABLE_PAGE_ROWS) : [];
  // One run: a colour per metric. Several: a colour per run, and a dash per metric. A series the run's settings cannot
  // fill (5-digit accuracy under a 3-digit target) gets no line and no legend entry; the others keep their colour.
  const lines = runs.flatMap((run, r) => {
    if (!drawsRun(spec, run)) return [];
    const fillable = spec.seriesOf && run.settings ? new Set(spec.seriesOf(run.settings)) : null;
    return spec.metrics.flatMap((metric, m) =>
      fillable && !fillable.has(metric)
        ? []
        : [
            {
              dataKey: key(r, metric),
              metric,
              name: runs.length > 1 ? `${metricWords(metric)} · ${run.label}` : metricWords(metric),
              colour: COLOURS[(runs.length > 1 ? r : m) % COLOURS.length],
              dash: runs.length > 1 ? DASHES[m % DASHES.length] : undefined,
            },
          ],
    );
  });
  const empty = data.length === 0;
  // Runs have logged, but none of this chart's metrics: a later phase has not begun, or the settings do not produce
  // them (KL at beta 0, say).
  const logged = empty && runs.some((run) => drawsRun(spec, run) && run.history.some((line) => line.kind === spec.kind && at(line.step) !== null));
  const laterPhase = logged && spec.startsAt ? upcomingPhase(spec, runs) : null;
  const unused = logged && laterPhase === null;
  const plotRows = useStable(plotted.rows, sameRows);
  const marks = useStable(phaseMarks(spec, runs), (a, b) => a.length === b.length && a.every((m, i) => m.step === b[i].step && m.label === b[i].label));
  const plotLines = useStable<PlotLine[]>(lines, sameLines);
  // What the plot shows catches up with the data in its turn (queueRedraw), at most every MIN_REDRAW_MS: a run logs
  // ~10 lines a second, and redrawing every chart for each would keep the main thread busy; lines that arrive
  // meanwhile join the next drawing.
  const [shown, setShown] = useState({ rows: plotRows, lines: plotLines });
  const lastDrawn = useRef(0);
  const figure = useRef<HTMLElement>(null);
  const inView = useInView(figure);
  useEffect(() => {
    if (shown.rows === plotRows && shown.lines === plotLines) return;
    let current = true;
    const draw = () =>
      queueRedraw(() => {
        if (!current) return;
        lastDrawn.current = performance.now();
        flushSync(() => setShown({ rows: plotRows, lines: plotLines }));
      });
    const timer = setTimeout(draw, Math.max(0, lastDrawn.current + (inView ? MIN_REDRAW_MS : OFFSCREEN_REDRAW_MS) - performance.now()));
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [plotRows, plotLines, shown, inView]);

  return (
    <figure ref={figure} className="metric-chart" aria-label={spec.title}>
      <figcaption>
        {spec.title}
        {plotted.stride > 1 ? <span className="metric-chart-thinned"> (every {everyNth(plotted.stride)} {stepTitle} drawn; the table has all)</span> : null}
      </figcaption>
      <div className="metric-chart-plot">
        {laterPhase ? (
          <p className="metric-chart-empty">
            From the {laterPhase.phase}, {stepTitle} {laterPhase.step}: nothing to draw before it.
          </p>
        ) : unused ? (
          <p className="metric-chart-empty">
            Not logged so far ({spec.metrics.join(', ')}): {runs.length > 1 ? 'these runs’' : 'this run’s'} settings may not produce {spec.metrics.length > 1 ? 'them' : 'it'}.
          </p>
        ) : empty ? (
          <p className="metric-chart-empty">No data yet</p>
        ) : shown.rows.length === 0 ? (
          // Drawn in its turn (queueRedraw): charts mount one per task, not all in the task their data arrives in.
          <p className="metric-chart-empty">Loading the chart…</p>
        ) : (
          <MetricPlot rows={shown.rows} lines={shown.lines} domain={spec.domain} dots={spec.kind === 'eval'} title={spec.title} valueTitle={spec.axis ?? metricWords(spec.metrics[0])} stepTitle={stepTitle} length={runLength(runs, at)} marks={marks} />
        )}
      </div>
      <details className="metric-table" onToggle={(e) => setTableOpen(e.currentTarget.open)}>
        <summary>Data table</summary>
        {pages > 1 ? (
          <p className="metric-table-pager">
            <button type="button" onClick={() => setPage(shownPage - 1)} disabled={shownPage === 0}>
              Previous
            </button>{' '}
            rows {shownPage * TABLE_PAGE_ROWS + 1}–{Math.min(data.length, (shownPage + 1) * TABLE_PAGE_ROWS)} of {data.length}{' '}
            <button type="button" onClick={() => setPage(shownPage + 1)} disabled={shownPage === pages - 1}>
              Next
            </button>
          </p>
        ) : null}
        <div className="metric-table-scroll">
          <table>
            <caption className="sr-only">
              {spec.title} by {stepTitle}
            </caption>
            <thead>
              <tr>
                <th scope="col">{stepTitle}</th>
                {lines.map((l) => (
                  <th scope="col" key={l.dataKey}>
                    {l.name} <code>{l.metric}</code>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {tableRows.map((row) => (
                <tr key={row.step}>
                  <th scope="row">{row.step}</th>
                  {lines.map((l) => (
                    <td key={l.dataKey}>{row[l.dataKey] === undefined ? '' : format(row[l.dataKey])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
