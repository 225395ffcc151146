import { useId } from 'react';
import { R_MAX, type ClipCurve, type ClipParams, type ClipPoint } from './clip';

// Plot geometry in SVG user units; the SVG scales to its container.
const W = 320;
const H = 230;
const M = { l: 34, r: 10, t: 26, b: 34 };
const X_TICKS = [0, 0.5, 1, 1.5, 2];

interface Props {
  curve: ClipCurve;
  params: ClipParams;
  ratio: number;
  point: ClipPoint;
}

const fmt = (v: number) => v.toFixed(2);
const minus = (s: string) => s.replace('-', '\u2212');

/** One advantage sign: the objective, the unclipped r·A for reference, the clip boundaries and the flat region. */
export function ClipPanel({ curve, params, ratio, point }: Props) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const pos = curve.A > 0;
  const [yMin, yMax] = pos ? [-0.25, 2.1] : [-2.1, 0.25];
  const x = (r: number) => M.l + (r / R_MAX) * (W - M.l - M.r);
  const y = (v: number) => M.t + ((yMax - v) / (yMax - yMin)) * (H - M.t - M.b);
  const yTicks = pos ? [0, 0.5, 1, 1.5, 2] : [-2, -1.5, -1, -0.5, 0];
  const low = 1 - params.epsilon;
  const high = 1 + params.epsilonHigh;
  const name = pos ? 'A = +1' : 'A = −1';
  const summary = describe(curve);

  return (
    <figure className="clip-panel" data-advantage={pos ? 'positive' : 'negative'}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${uid}-t ${uid}-d`} className="clip-plot">
        <title id={`${uid}-t`}>{`Clipped objective against the ratio r for ${name}`}</title>
        <desc id={`${uid}-d`}>{summary}</desc>
        <defs>
          <pattern id={`${uid}-hatch`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <line x1="0" y1="0" x2="0" y2="6" className="clip-hatch" />
          </pattern>
        </defs>
        {curve.flat.map(([a, b]) => (
          <g key={a} className="clip-flat" data-flat={`${fmt(a)}-${fmt(b)}`}>
            <rect x={x(a)} y={M.t} width={x(b) - x(a)} height={H - M.t - M.b} fill={`url(#${uid}-hatch)`} />
            <text x={(x(a) + x(b)) / 2} y={pos ? y(0) - 6 : y(0) + 14} textAnchor="middle" className="clip-flat-label">
              gradient 0
            </text>
          </g>
        ))}
        {yTicks.map((v) => (
          <g key={v}>
            <line x1={M.l} x2={W - M.r} y1={y(v)} y2={y(v)} className={v === 0 ? 'clip-axis' : 'clip-grid'} />
            <text x={M.l - 4} y={y(v) + 3} textAnchor="end" className="clip-tick">
              {minus(String(v))}
            </text>
          </g>
        ))}
        {X_TICKS.map((r) => (
          <text key={r} x={x(r)} y={H - M.b + 13} textAnchor="middle" className="clip-tick">
            {r}
          </text>
        ))}
        <text x={(M.l + W - M.r) / 2} y={H - 4} textAnchor="middle" className="clip-axis-label">
          ratio r = π / π_old
        </text>
        <line x1={x(0)} y1={y(0)} x2={x(R_MAX)} y2={y(R_MAX * curve.A)} className="clip-reference" />
        {(
          [
            ['low', low, `1−ε = ${fmt(low)}`],
            ['high', high, `1+ε_high = ${fmt(high)}`],
          ] as const
        ).map(([key, r, label]) => (
          <g key={key}>
            <line x1={x(r)} x2={x(r)} y1={M.t} y2={H - M.b} className="clip-boundary" data-boundary={key} />
            <text
              x={x(r)}
              y={M.t - (key === 'low' ? 14 : 4)}
              textAnchor={key === 'low' || r > 1.35 ? 'end' : 'start'}
              className="clip-boundary-label"
            >
              {label}
            </text>
          </g>
        ))}
        <polyline points={curve.objective.map((p) => `${x(p.r)},${y(p.y)}`).join(' ')} className="clip-objective" />
        <line x1={x(ratio)} x2={x(ratio)} y1={M.t} y2={H - M.b} className="clip-probe-line" />
        <circle cx={x(ratio)} cy={y(point.objective)} r="4" className="clip-probe" />
      </svg>
      <figcaption>
        <strong>{name}</strong>: {summary}
      </figcaption>
    </figure>
  );
}

/** The plot in words, from the numbers it draws (knots: r = 0, 1−ε, 1+ε_high, 2). */
function describe(curve: ClipCurve): string {
  const [, low, high] = curve.objective;
  const flat = curve.flat.map(([a, b]) => (a <= 0 ? `r < ${fmt(b)}` : b >= R_MAX ? `r > ${fmt(a)}` : `${fmt(a)} < r < ${fmt(b)}`));
  const cap =
    curve.A > 0
      ? `rises with r until r = ${fmt(high.r)}, then stays at ${minus(fmt(high.y))}`
      : `stays at ${minus(fmt(low.y))} until r = ${fmt(low.r)}, then falls with r`;
  return `the objective ${cap}. The gradient is zero for ${flat.join(' and ') || 'no r'}.`;
}
