'use client';

import { memo, useEffect, useRef, useState, type PointerEvent } from 'react';
import { axisEnd, stepTicks, valueAxis } from '@/ui/ticks';
import { formatValue } from './format';

export interface PlotLine {
  dataKey: string;
  /** In words (metricWords.ts), with the run's label when there are several runs. */
  name: string;
  /** The metric's logged name (TRL's), shown on hover over its legend entry. */
  metric: string;
  colour: string;
  dash: string | undefined;
}

// The lab's charts are drawn here as plain SVG, not with a chart library: a live chart redraws every 400 ms while a
// run trains, and recharts took 15–20 ms per redraw at the median and 40–80 ms at its tail on a 2-core machine (the
// main-thread target is no task over 50 ms: npm run bench:main-thread). A redraw here is one React render of a few
// paths whose points are computed in one pass. What a reader had stays: axes with round ticks, a grid, a legend, the
// values at a step on hover, and the data table beside the chart (MetricChart).
const PLOT_HEIGHT = 170;
const MARGIN = { top: 8, right: 12, bottom: 30 };
/** Room for the value axis's title, drawn upright along the left edge. */
const AXIS_TITLE_WIDTH = 16;
/** About the width of one digit of the axis's 11-px labels. */
const DIGIT_WIDTH = 6.5;

type Row = Record<string, number>;

/** The SVG path through a line's points (rows without its value are skipped, and the line joins across them). */
function pathOf(rows: Row[], key: string, x: (step: number) => number, y: (v: number) => number): string {
  let d = '';
  for (const row of rows) {
    const v = row[key];
    if (v === undefined || !Number.isFinite(v)) continue;
    d += `${d ? 'L' : 'M'}${x(row.step).toFixed(1)} ${y(v).toFixed(1)}`;
  }
  return d;
}

/** The index of the row whose step is nearest `step` (rows are sorted by step). */
function nearest(rows: Row[], step: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].step < step) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && step - rows[lo - 1].step < rows[lo].step - step ? lo - 1 : lo;
}

/** The width the plot has: measured, since its SVG text must not stretch with a viewBox. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

function MetricPlot({
  rows,
  lines,
  domain,
  dots,
  title,
  valueTitle,
  stepTitle = 'step',
  length,
  marks = [],
}: {
  rows: Row[];
  lines: PlotLine[];
  domain?: [number, number];
  dots: boolean;
  title: string;
  valueTitle: string;
  /** What the x-axis counts (ChartSpec.stepAxis): "step", or "round" where a lab counts rounds. */
  stepTitle?: string;
  /** Where the runs end (their max_steps on this axis): the axis ends there, not at the next round number. */
  length?: number;
  /** Steps where something changes for every run (the vision lab's switch from SFT to GRPO), drawn as dashed lines. */
  marks?: readonly { step: number; label: string }[];
}) {
  const { ref, width } = useWidth();
  const [hover, setHover] = useState<number | null>(null);

  let min = Infinity;
  let max = -Infinity;
  for (const row of rows)
    for (const line of lines) {
      const v = row[line.dataKey];
      if (v !== undefined && Number.isFinite(v)) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
  const axis = domain ? valueAxis(domain[0], domain[1]) : valueAxis(min, max);
  const [yMin, yMax] = [axis.ticks[0], axis.ticks.at(-1)!];
  const tickLabels = axis.ticks.map((t) => t.toFixed(axis.decimals));
  // As wide as the longest label needs (0.5 or 400000), so that labels never run into the axis title.
  const left = AXIS_TITLE_WIDTH + Math.max(3, ...tickLabels.map((label) => label.length)) * DIGIT_WIDTH + 8;
  const lastStep = rows.at(-1)?.step ?? 1;
  const end = length !== undefined && length >= lastStep && length > 0 ? length : axisEnd(lastStep);
  const xTicks = stepTicks(end);
  const plotWidth = Math.max(1, width - left - MARGIN.right);
  const plotHeight = PLOT_HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (step: number) => left + (step / end) * plotWidth;
  const y = (v: number) => MARGIN.top + (1 - (v - yMin) / (yMax - yMin || 1)) * plotHeight;
  const hovered = hover === null ? null : rows[Math.min(hover, rows.length - 1)];

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    if (rows.length === 0) return;
    const svgLeft = event.currentTarget.getBoundingClientRect().left;
    const step = ((event.clientX - svgLeft - left) / plotWidth) * end;
    setHover(nearest(rows, step));
  };

  return (
    <div className="metric-plot" ref={ref}>
      {width > 0 ? (
        <svg width={width} height={PLOT_HEIGHT} role="img" aria-label={`${title}: a line chart by ${stepTitle}; the numbers are in the data table`} onPointerMove={onPointerMove} onPointerLeave={() => setHover(null)}>
          <g className="plot-grid" aria-hidden="true">
            {axis.ticks.map((t) => (
              <line key={`y${t}`} x1={left} x2={left + plotWidth} y1={y(t)} y2={y(t)} />
            ))}
            {xTicks.map((t) => (
              <line key={`x${t}`} x1={x(t)} x2={x(t)} y1={MARGIN.top} y2={MARGIN.top + plotHeight} />
            ))}
          </g>
          <g className="plot-axis" aria-hidden="true">
            {axis.ticks.map((t, i) => (
              <text key={`y${t}`} x={left - 6} y={y(t)} dy="0.35em" textAnchor="end">
                {tickLabels[i]}
              </text>
            ))}
            <text className="plot-axis-title" transform="rotate(-90)" x={-(MARGIN.top + plotHeight / 2)} y={11} textAnchor="middle">
              {valueTitle}
            </text>
            {xTicks.map((t) => (
              <text key={`x${t}`} x={x(t)} y={MARGIN.top + plotHeight + 4} dy="0.71em" textAnchor="middle">
                {t}
              </text>
            ))}
            <text className="plot-axis-title" x={left + plotWidth} y={PLOT_HEIGHT - 2} textAnchor="end">
              {stepTitle}
            </text>
          </g>
          {lines.map((line) => (
            <g key={line.dataKey} className="plot-line" stroke={line.colour}>
              <path d={pathOf(rows, line.dataKey, x, y)} fill="none" strokeWidth={1.6} strokeDasharray={line.dash} strokeLinejoin="round" />
              {dots
                ? rows.map((row) =>
                    row[line.dataKey] === undefined ? null : <circle key={row.step} className="plot-dot" cx={x(row.step)} cy={y(row[line.dataKey])} r={2.5} fill={line.colour} />,
                  )
                : null}
            </g>
          ))}
          {marks
            .filter((m) => m.step > 0 && m.step < end)
            .map((m) => (
              <g key={`m${m.step}`} className="plot-mark">
                <line x1={x(m.step)} x2={x(m.step)} y1={MARGIN.top} y2={MARGIN.top + plotHeight} />
                <text x={x(m.step) + 3} y={MARGIN.top + 10}>
                  {m.label}
                </text>
              </g>
            ))}
          {hovered ? <line className="plot-cursor" x1={x(hovered.step)} x2={x(hovered.step)} y1={MARGIN.top} y2={MARGIN.top + plotHeight} aria-hidden="true" /> : null}
        </svg>
      ) : null}
      {hovered ? (
        <div className="plot-readout" style={x(hovered.step) > width / 2 ? { right: width - x(hovered.step) + 8 } : { left: x(hovered.step) + 8 }} aria-hidden="true">
          <strong>
            {stepTitle} {hovered.step}
          </strong>
          {lines.map((line) =>
            hovered[line.dataKey] === undefined ? null : (
              <span key={line.dataKey}>
                <i style={{ background: line.colour }} /> {line.name}: {formatValue(hovered[line.dataKey])}
              </span>
            ),
          )}
        </div>
      ) : null}
      {lines.length > 1 ? (
        <ul className="plot-legend" aria-label="Legend">
          {lines.map((line) => (
            <li key={line.dataKey} title={line.metric}>
              <svg width="18" height="8" aria-hidden="true">
                <line x1="0" x2="18" y1="4" y2="4" stroke={line.colour} strokeWidth={2} strokeDasharray={line.dash} />
              </svg>
              {line.name}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Memoised: MetricChart hands the same rows and lines until its next redraw. */
export default memo(MetricPlot);
