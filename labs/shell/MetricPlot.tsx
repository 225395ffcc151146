'use client';

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatValue } from './format';

export interface PlotLine {
  dataKey: string;
  name: string;
  colour: string;
  dash: string | undefined;
}

/** The recharts part of a MetricChart: a chunk of its own, fetched when a run starts, not with the lab's page. */
export default function MetricPlot({ rows, lines, domain, dots }: { rows: Record<string, number>[]; lines: PlotLine[]; domain?: [number, number]; dots: boolean }) {
  return (
    <ResponsiveContainer width="100%" height={170}>
      <LineChart data={rows} margin={{ top: 6, right: 10, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
        {/* interval 0: every tick of the few the axis makes is drawn, so recharts does not measure each label's text
            (a forced layout per tick, per redraw) to thin out overlapping ones. */}
        <XAxis dataKey="step" type="number" domain={['dataMin', 'dataMax']} tick={{ fontSize: 11, fill: 'var(--fg-muted)' }} allowDecimals={false} interval={0} />
        <YAxis domain={domain ?? ['auto', 'auto']} tick={{ fontSize: 11, fill: 'var(--fg-muted)' }} tickFormatter={formatValue} width={52} interval={0} />
        <Tooltip formatter={(v) => formatValue(Number(v))} labelFormatter={(s) => `step ${s}`} contentStyle={{ background: 'var(--bg)', border: '1px solid var(--border)', fontSize: 12 }} />
        {lines.length > 1 ? <Legend wrapperStyle={{ fontSize: 11 }} /> : null}
        {lines.map((l) => (
          <Line key={l.dataKey} dataKey={l.dataKey} name={l.name} stroke={l.colour} strokeDasharray={l.dash} dot={dots} isAnimationActive={false} connectNulls />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
