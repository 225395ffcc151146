'use client';

import { useMemo } from 'react';
import { type BaseTickContentProps, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { axisEnd, formatValue } from './format';

export interface PlotLine {
  dataKey: string;
  name: string;
  colour: string;
  dash: string | undefined;
}

// What a redraw costs (a redraw is one task of the page; the target is under 50 ms: npm run bench:main-thread). recharts
// 3 keeps a chart in a store: its components copy their props into it, and the axes report the ticks they drew. So:
// - every prop that is an object or a function is made once, here: a literal `tick={{...}}` would be a new setting
//   at each redraw, dispatched to the store, and every part of the chart would recompute for it;
// - the step axis ends at a round number at or above the last step (axisEnd), not at the last step: its ticks then
//   change a few times per run, not at every redraw (new ticks redraw the axis and the grid and go to the store);
// - tick labels are plain SVG text: recharts' own measures each label's width (a layout of the page) to wrap it.
const MARGIN = { top: 6, right: 10, bottom: 0, left: 0 };
const AUTO_DOMAIN = ['auto', 'auto'];
const TOOLTIP_STYLE = { background: 'var(--bg)', border: '1px solid var(--border)', fontSize: 12 };
const LEGEND_STYLE = { fontSize: 11 };
const tooltipValue = (v: unknown) => formatValue(Number(v));
const tooltipLabel = (step: unknown) => `step ${step}`;

const tickOf = (label: (value: number) => string) =>
  function Tick({ x, y, payload, textAnchor, verticalAnchor }: BaseTickContentProps) {
    // dy as recharts' Text places a label: its top at y (below an x axis), or its middle (beside a y axis).
    const dy = verticalAnchor === 'start' ? '0.71em' : verticalAnchor === 'middle' ? '0.355em' : 0;
    return (
      <text x={x} y={y} dy={dy} textAnchor={textAnchor} fontSize={11} fill="var(--fg-muted)" className="recharts-cartesian-axis-tick-value">
        {label(Number(payload.value))}
      </text>
    );
  };
const STEP_TICK = tickOf(String);
const VALUE_TICK = tickOf(formatValue);

/** The recharts part of a MetricChart: a chunk of its own, fetched when a run starts, not with the lab's page. */
export default function MetricPlot({ rows, lines, domain, dots }: { rows: Record<string, number>[]; lines: PlotLine[]; domain?: [number, number]; dots: boolean }) {
  const end = axisEnd(rows.at(-1)?.step ?? 1);
  const xDomain = useMemo(() => [0, end], [end]);
  return (
    <ResponsiveContainer width="100%" height={170}>
      <LineChart data={rows} margin={MARGIN}>
        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
        {/* interval 0: every tick of the few the axis makes is drawn, so recharts does not measure each label's text
            (a forced layout per tick, per redraw) to thin out overlapping ones. */}
        <XAxis dataKey="step" type="number" domain={xDomain} tick={STEP_TICK} allowDecimals={false} interval={0} />
        <YAxis domain={domain ?? AUTO_DOMAIN} tick={VALUE_TICK} width={52} interval={0} />
        <Tooltip formatter={tooltipValue} labelFormatter={tooltipLabel} contentStyle={TOOLTIP_STYLE} />
        {lines.length > 1 ? <Legend wrapperStyle={LEGEND_STYLE} /> : null}
        {lines.map((l) => (
          <Line key={l.dataKey} dataKey={l.dataKey} name={l.name} stroke={l.colour} strokeDasharray={l.dash} dot={dots} isAnimationActive={false} connectNulls />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
