'use client';

import type { FieldValue } from '@/lib/train/config';
import type { SweepAxis, SweepGroup } from '@/lib/train/sweep';
import { valueAxis } from '@/ui/ticks';

const COLOURS = ['#0b5cad', '#b86e00', '#1f7a3a', '#b3261e', '#6b3fa0', '#00838f'];
const W = 560;
const H = 220;
const PAD = { left: 56, right: 16, top: 12, bottom: 40 };

/**
 * A sweep's final metric against the first swept field's values (evenly spaced: values such as learning rates are
 * read as categories), each seed a point and the mean over seeds a line; with a second field, one coloured series per
 * value. Plain SVG: no chart library for a few dozen points.
 */
export function SweepChart({ axes, groups, metric }: { axes: SweepAxis[]; groups: SweepGroup[]; metric: string }) {
  const xs = axes[0].values;
  const seriesValues: (FieldValue | null)[] = axes[1] ? axes[1].values : [null];
  const values = groups.flatMap((g) => g.points.map((p) => p.value)).filter(Number.isFinite);
  if (values.length === 0) return null;
  // The live charts' value axis: round ticks with one number of decimals, and a flat sweep (every run at 1.0) gets an
  // axis around its value whose labels still differ (0.95, 1.00, 1.05), not 1.00/1.29/1.58 from an arbitrary pad.
  const { ticks, decimals } = valueAxis(Math.min(...values), Math.max(...values));
  const [lo, hi] = [ticks[0], ticks.at(-1)!];
  const x = (i: number) => PAD.left + (xs.length === 1 ? 0.5 : i / (xs.length - 1)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  const groupAt = (xi: number, s: FieldValue | null) => groups.find((g) => g.values[0] === xs[xi] && (s === null || g.values[1] === s));
  const label = `${metric} at the end of each run against ${axes[0].field}${axes[1] ? `, one line per ${axes[1].field}` : ''}: each seed a point, the mean over seeds a line`;

  return (
    <figure className="sweep-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} stroke="var(--border)" strokeDasharray="3 3" />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize="11" fill="var(--fg-muted)">
              {t.toFixed(decimals)}
            </text>
          </g>
        ))}
        {xs.map((v, i) => (
          <text key={String(v)} x={x(i)} y={H - PAD.bottom + 16} textAnchor="middle" fontSize="11" fill="var(--fg-muted)">
            {String(v)}
          </text>
        ))}
        <text x={(PAD.left + W - PAD.right) / 2} y={H - 6} textAnchor="middle" fontSize="12" fill="var(--fg)">
          {axes[0].field}
        </text>
        {seriesValues.map((s, si) => {
          const colour = COLOURS[si % COLOURS.length];
          const means = xs.map((_, i) => groupAt(i, s)).map((g, i) => (g && Number.isFinite(g.mean) ? `${x(i)},${y(g.mean)}` : null)).filter((p): p is string => p !== null);
          return (
            <g key={String(s)}>
              <polyline points={means.join(' ')} fill="none" stroke={colour} strokeWidth="2" />
              {xs.map((_, i) =>
                (groupAt(i, s)?.points ?? [])
                  .filter((p) => Number.isFinite(p.value))
                  .map((p) => <circle key={`${i}-${p.seed}`} cx={x(i) + (si - (seriesValues.length - 1) / 2) * 6} cy={y(p.value)} r="3.5" fill={colour} fillOpacity="0.55" />),
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="setting-help">
        {label}.
        {axes[1]
          ? ` ${axes[1].field}: ${seriesValues.map((s, i) => `${String(s)} (${['blue', 'orange', 'green', 'red', 'purple', 'teal'][i % COLOURS.length]})`).join(', ')}.`
          : ''}
      </figcaption>
    </figure>
  );
}
