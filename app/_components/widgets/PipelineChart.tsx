import { useId } from 'react';
import type { PipelineTimeline, Schedule } from '@/lib/dist';
import { pct } from './pipeline-options';

const W = 640;
const ROW = 28;
const M = { l: 64, r: 8, t: 8, b: 26 };


/** Each stage's forward (F) and backward (B) blocks over time; gaps are the bubble. */
export function PipelineChart({ timeline, stages, schedule, chunks }: { timeline: PipelineTimeline; stages: number; schedule: Schedule; chunks: number }) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const H = M.t + stages * ROW + M.b;
  const x = (t: number) => M.l + (t / timeline.makespan) * (W - M.l - M.r);
  const ticks = Array.from({ length: Math.floor(timeline.makespan / (timeline.makespan > 60 ? 10 : 5)) + 1 }, (_, i) => i * (timeline.makespan > 60 ? 10 : 5));
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${uid}-t ${uid}-d`} className="pp-chart" data-testid="pipeline-chart">
      <title id={`${uid}-t`}>{`Pipeline timeline, ${schedule}, ${stages} stages`}</title>
      <desc id={`${uid}-d`}>
        {`Forward blocks take 1 time unit per micro-batch and stage, backward blocks 2${schedule === 'interleaved' ? `, each split into ${chunks} chunks` : ''}. Total time ${+timeline.makespan.toFixed(2)} units; the stages are idle ${pct(timeline.idleFraction)} of it.`}
      </desc>
      {Array.from({ length: stages }, (_, s) => (
        <g key={s}>
          <rect x={M.l} y={M.t + s * ROW + 2} width={W - M.l - M.r} height={ROW - 4} className="pp-idle" />
          <text x={M.l - 8} y={M.t + s * ROW + ROW / 2 + 4} textAnchor="end" className="pp-label">
            Stage {s + 1}
          </text>
        </g>
      ))}
      {timeline.ops.map((o) => {
        const w = x(o.end) - x(o.start);
        return (
          <g key={`${o.kind}${o.stage}-${o.microbatch}-${o.chunk}`} className={`pp-op pp-${o.kind} pp-chunk-${o.chunk % 2}`} data-kind={o.kind}>
            <rect x={x(o.start) + 0.5} y={M.t + o.stage * ROW + 2} width={Math.max(0.5, w - 1)} height={ROW - 4} />
            {w >= 13 ? (
              <text x={x(o.start) + w / 2} y={M.t + o.stage * ROW + ROW / 2 + 4} textAnchor="middle">
                {o.microbatch + 1}
              </text>
            ) : null}
          </g>
        );
      })}
      {ticks.map((t) => (
        <text key={t} x={x(t)} y={H - 8} textAnchor="middle" className="pp-label">
          {t}
        </text>
      ))}
    </svg>
  );
}

/** The bubble fraction against m for this p (and v): the formula, with the current m marked. */
export function BubbleCurve({ points, current }: { points: { m: number; f: number }[]; current: number }) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const w = 240;
  const h = 90;
  const m = { l: 38, r: 8, t: 10, b: 20 };
  const maxM = points[points.length - 1].m;
  const x = (v: number) => m.l + ((v - points[0].m) / Math.max(1, maxM - points[0].m)) * (w - m.l - m.r);
  const y = (f: number) => m.t + (1 - f) * (h - m.t - m.b);
  const here = points.find((p) => p.m === current);
  return (
    <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-labelledby={`${uid}-t`} className="pp-curve">
      <title id={`${uid}-t`}>{`Bubble fraction falls as micro-batches grow: from ${pct(points[0].f)} at m = ${points[0].m} to ${pct(points[points.length - 1].f)} at m = ${maxM}`}</title>
      <line x1={m.l} x2={w - m.r} y1={y(0)} y2={y(0)} className="pp-axis" />
      <line x1={m.l} x2={m.l} y1={y(0)} y2={y(1)} className="pp-axis" />
      <text x={m.l - 4} y={y(1) + 4} textAnchor="end" className="pp-label">
        100%
      </text>
      <text x={m.l - 4} y={y(0) + 4} textAnchor="end" className="pp-label">
        0
      </text>
      <text x={(w + m.l) / 2} y={h - 4} textAnchor="middle" className="pp-label">
        micro-batches m
      </text>
      <polyline points={points.map((p) => `${x(p.m)},${y(p.f)}`).join(' ')} className="pp-curve-line" />
      {here ? <circle cx={x(here.m)} cy={y(here.f)} r={4} className="pp-curve-dot" /> : null}
    </svg>
  );
}
