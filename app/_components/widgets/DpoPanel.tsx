import { useId } from 'react';
import { valueAxis } from '@/ui/ticks';
import { hingeKink, ipoTarget, num, Z_MAX, type DpoCurve, type DpoPoint, type LossType } from './dpo-loss';

// Plot geometry in SVG user units; the SVG scales to its container.
const W = 320;
const H = 230;
const M = { l: 42, r: 10, t: 22, b: 34 };
const X_TICKS = [-10, -5, 0, 5, 10];

export type PanelKind = 'loss' | 'weight';

interface Props {
  kind: PanelKind;
  curves: DpoCurve[];
  points: DpoPoint[];
  z: number;
  beta: number;
}

const TITLES: Record<PanelKind, string> = {
  loss: 'DPO loss against the margin z',
  weight: 'Gradient weight −∂loss/∂z against the margin z',
};

const minus = (s: string) => s.replace('-', '\u2212');

/** One panel: the loss, or its gradient weight, of each ticked loss type, with a probe at the chosen z. */
export function DpoPanel({ kind, curves, points, z, beta }: Props) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const series = curves.map((c) => ({ type: c.type, pts: kind === 'loss' ? c.loss : c.weight }));
  const probes = points.filter((p) => curves.some((c) => c.type === p.type)).map((p) => ({ type: p.type, y: kind === 'loss' ? p.loss : p.weight }));
  const ys = [0, ...series.flatMap((s) => s.pts.map((p) => p.y)), ...probes.map((p) => p.y)];
  let lo = Math.min(...ys);
  let hi = Math.max(...ys);
  if (hi - lo < 1e-6) hi = lo + 1;
  const pad = (hi - lo) * 0.04;
  const { ticks } = valueAxis(lo - (lo < 0 ? pad : 0), hi + pad, 5);
  lo = Math.min(lo, ticks[0]);
  hi = Math.max(hi + pad, ticks[ticks.length - 1]);
  const x = (v: number) => M.l + ((v + Z_MAX) / (2 * Z_MAX)) * (W - M.l - M.r);
  const y = (v: number) => M.t + ((hi - v) / (hi - lo)) * (H - M.t - M.b);
  const shown = new Set<LossType>(curves.map((c) => c.type));
  const marks = [
    shown.has('hinge') && hingeKink(beta) !== null ? { key: 'hinge', at: hingeKink(beta)!, label: `hinge kink z = 1/β = ${(1 / beta).toFixed(2)}` } : null,
    shown.has('ipo') && ipoTarget(beta) !== null ? { key: 'ipo', at: ipoTarget(beta)!, label: `IPO target z = 1/(2β) = ${(1 / (2 * beta)).toFixed(2)}` } : null,
  ].filter((m) => m !== null);
  const summary = describe(kind, series);

  return (
    <figure className="dpo-panel" data-panel={kind}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${uid}-t ${uid}-d`} className="clip-plot dpo-plot">
        <title id={`${uid}-t`}>{TITLES[kind]}</title>
        <desc id={`${uid}-d`}>{summary}</desc>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={M.l} x2={W - M.r} y1={y(v)} y2={y(v)} className={v === 0 ? 'clip-axis' : 'clip-grid'} />
            <text x={M.l - 4} y={y(v) + 3} textAnchor="end" className="clip-tick">
              {minus(String(v))}
            </text>
          </g>
        ))}
        <line x1={x(0)} x2={x(0)} y1={M.t} y2={H - M.b} className="clip-grid" />
        {X_TICKS.map((v) => (
          <text key={v} x={x(v)} y={H - M.b + 13} textAnchor="middle" className="clip-tick">
            {minus(String(v))}
          </text>
        ))}
        <text x={(M.l + W - M.r) / 2} y={H - 4} textAnchor="middle" className="clip-axis-label">
          margin z = log-ratio(chosen) − log-ratio(rejected)
        </text>
        {marks.map((m, i) => (
          <g key={m.key} data-mark={m.key}>
            <line x1={x(m.at)} x2={x(m.at)} y1={M.t} y2={H - M.b} className="dpo-mark" />
            <text x={x(m.at) - 3} y={M.t + 10 + 11 * i} textAnchor="end" className="dpo-mark-label">
              {m.label}
            </text>
          </g>
        ))}
        {curves.map((c) => (
          <path key={c.type} data-loss-type={c.type} d={kind === 'loss' ? lossPath(c, x, y) : linePath(c.weight, x, y)} className={`dpo-line dpo-${c.type}`} />
        ))}
        <line x1={x(z)} x2={x(z)} y1={M.t} y2={H - M.b} className="clip-probe-line" data-probe="z" />
        {probes.map((p) => (
          <circle key={p.type} cx={x(z)} cy={y(p.y)} r="3.5" className={`dpo-probe dpo-${p.type}`} />
        ))}
        {series.length === 0 ? (
          <text x={(M.l + W - M.r) / 2} y={(M.t + H - M.b) / 2} textAnchor="middle" className="dpo-empty">
            Tick a loss type to plot it.
          </text>
        ) : null}
      </svg>
      <figcaption>
        <strong>{kind === 'loss' ? 'Loss' : 'Gradient weight −∂loss/∂z'}</strong>: {summary}
      </figcaption>
    </figure>
  );
}

type Scale = (v: number) => number;
const pt = (x: Scale, y: Scale, z: number, v: number) => `${x(z).toFixed(2)},${y(v).toFixed(2)}`;

function linePath(pts: { z: number; y: number }[], x: Scale, y: Scale): string {
  return pts.map((p, i) => `${i ? 'L' : 'M'}${pt(x, y, p.z, p.y)}`).join(' ');
}

/** Straight segments for hinge; for the smooth types, cubic Hermite segments matching value and slope at each knot. */
function lossPath(c: DpoCurve, x: Scale, y: Scale): string {
  if (!c.smooth) return linePath(c.loss, x, y);
  const [first, ...rest] = c.loss;
  let d = `M${pt(x, y, first.z, first.y)}`;
  let a = first;
  for (const b of rest) {
    const h = (b.z - a.z) / 3;
    d += ` C${pt(x, y, a.z + h, a.y + a.dy * h)} ${pt(x, y, b.z - h, b.y - b.dy * h)} ${pt(x, y, b.z, b.y)}`;
    a = b;
  }
  return d;
}

/** The plot in words, from the numbers it draws. */
function describe(kind: PanelKind, series: { type: LossType; pts: { z: number; y: number }[] }[]): string {
  if (series.length === 0) return 'no loss type ticked.';
  // Linear between samples: exact for hinge (sampled at its knots); the other grids hold −10, 0 and 10 themselves.
  const at = (pts: { z: number; y: number }[], z: number) => {
    const i = pts.findIndex((p) => p.z >= z);
    if (i < 0) return pts[pts.length - 1].y;
    if (i === 0) return pts[0].y;
    const [a, b] = [pts[i - 1], pts[i]];
    return a.y + ((z - a.z) / (b.z - a.z)) * (b.y - a.y);
  };
  return series
    .map(({ type, pts }) => `${type}: ${num(at(pts, -Z_MAX))} at z = −10, ${num(at(pts, 0))} at z = 0, ${num(at(pts, Z_MAX))} at z = 10`)
    .join('; ')
    .concat(kind === 'weight' ? '. A positive weight pushes the margin up; zero means no gradient.' : '.');
}
