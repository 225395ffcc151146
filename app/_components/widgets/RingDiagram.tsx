import { useId } from 'react';
import type { RingStep } from '@/lib/dist';

const W = 420;
const H = 300;
const CELL = 26;

/** Workers on a circle with their chunks; this step's transfers as arrows to the right-hand neighbour. */
export function RingDiagram({ step, n }: { step: RingStep; n: number }) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const R = 105;
  const centre = { x: W / 2, y: H / 2 + 6 };
  const at = (i: number) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return { x: centre.x + R * Math.cos(angle), y: centre.y + R * Math.sin(angle) };
  };
  const boxW = n * CELL;
  const text = step.transfers.map((t) => `worker ${t.from + 1} sends chunk ${t.chunk + 1} (${t.value}) to worker ${t.to + 1}`).join('; ');
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${uid}-t ${uid}-d`} className="ring-diagram" data-testid="ring-diagram">
      <title id={`${uid}-t`}>{`Ring of ${n} workers, step ${step.step}`}</title>
      <desc id={`${uid}-d`}>{text || 'No transfers yet.'}</desc>
      <defs>
        <marker id={`${uid}-arrow`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" className="ring-arrowhead" />
        </marker>
      </defs>
      {step.transfers.map((t) => {
        const a = at(t.from);
        const b = at(t.to);
        const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
        // Bow the arrow outwards so that a two-worker ring shows two distinct arrows.
        const out = { x: mid.x - centre.x, y: mid.y - centre.y };
        const len = Math.hypot(out.x, out.y) || 1;
        const bow = n === 2 ? (t.from === 0 ? 60 : -60) : 28;
        const c = { x: mid.x + (out.x / len) * bow, y: mid.y + (out.y / len) * bow };
        const ctl = n === 2 ? { x: mid.x + bow, y: mid.y } : c;
        return (
          <g key={t.from} className="ring-transfer" data-chunk={t.chunk}>
            <path d={`M${a.x},${a.y} Q${ctl.x},${ctl.y} ${b.x},${b.y}`} markerEnd={`url(#${uid}-arrow)`} className="ring-arrow" />
            <text x={ctl.x} y={ctl.y} textAnchor="middle" className="ring-arrow-label">
              {`c${t.chunk + 1}: ${t.value}`}
            </text>
          </g>
        );
      })}
      {step.values.map((row, w) => {
        const p = at(w);
        return (
          <g key={w} className="ring-worker">
            <text x={p.x} y={p.y - CELL / 2 - 5} textAnchor="middle" className="ring-worker-label">
              worker {w + 1}
            </text>
            {row.map((value, c) => {
              const got = step.transfers.some((t) => t.to === w && t.chunk === c);
              const sent = step.transfers.some((t) => t.from === w && t.chunk === c);
              return (
                <g key={c}>
                  <rect x={p.x - boxW / 2 + c * CELL} y={p.y - CELL / 2} width={CELL} height={CELL} className={`ring-cell${got ? ' got' : ''}${sent ? ' sent' : ''}`} />
                  <text x={p.x - boxW / 2 + c * CELL + CELL / 2} y={p.y + 4} textAnchor="middle" className="ring-cell-text">
                    {value}
                  </text>
                </g>
              );
            })}
          </g>
        );
      })}
    </svg>
  );
}
