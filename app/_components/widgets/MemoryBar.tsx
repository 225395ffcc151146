import { useId } from 'react';
import type { MemoryReport } from '@/lib/dist';
import { gb } from './dist-format';
import { PARTS } from './memory-options';

const W = 640;
const H = 96;
const M = { l: 8, r: 8, t: 30, b: 26 };

/** Per-GPU memory as one stacked bar against the GPU's capacity (a dashed line), with the same numbers as a table. */
export function MemoryBar({ r }: { r: MemoryReport }) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const scale = Math.max(r.total, r.gpuBytes) * 1.04;
  const x = (bytes: number) => M.l + (bytes / scale) * (W - M.l - M.r);
  let at = 0;
  const segments = PARTS.map((p) => {
    const from = at;
    at += r[p.key];
    return { ...p, from, to: at };
  });
  const gpuX = x(r.gpuBytes);
  const gpuGB = +(r.gpuBytes / 1e9).toFixed(1);
  const summary = `${gb(r.total)} GB per GPU against ${gpuGB} GB: ${PARTS.map((p) => `${p.label} ${gb(r[p.key])} GB`).join(', ')}.`;
  return (
    <figure className="mem-figure">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${uid}-t ${uid}-d`} className="mem-bar" data-testid="memory-bar">
        <title id={`${uid}-t`}>Memory per GPU, stacked by kind</title>
        <desc id={`${uid}-d`}>{summary}</desc>
        {segments.map((s) => (
          <g key={s.key} data-part={s.key}>
            <rect x={x(s.from)} y={M.t} width={Math.max(0, x(s.to) - x(s.from))} height={H - M.t - M.b} className={`mem-seg mem-${s.key}`} />
            {x(s.to) - x(s.from) > 44 ? (
              <text x={(x(s.from) + x(s.to)) / 2} y={M.t + (H - M.t - M.b) / 2 + 4} textAnchor="middle" className="mem-seg-label">
                {gb(s.to - s.from)}
              </text>
            ) : null}
          </g>
        ))}
        <line x1={gpuX} x2={gpuX} y1={M.t - 10} y2={H - M.b + 6} className={`mem-gpu${r.fits ? '' : ' over'}`} />
        <text x={Math.min(gpuX, W - 70)} y={M.t - 14} textAnchor={gpuX > W - 70 ? 'start' : 'middle'} className="mem-gpu-label">
          GPU: {gpuGB} GB
        </text>
        <text x={M.l} y={H - 6} className="mem-axis-label">
          0
        </text>
        <text x={x(r.total)} y={H - 6} textAnchor="middle" className="mem-axis-label">
          {gb(r.total)} GB
        </text>
      </svg>
      <ul className="mem-legend" aria-hidden="true">
        {PARTS.map((p) => (
          <li key={p.key}>
            <span className={`mem-swatch mem-${p.key}`} /> {p.label}
          </li>
        ))}
      </ul>
      <div className="dist-table-wrap" tabIndex={0} role="region" aria-label="Memory per GPU by part">
        <table className="mem-table" data-testid="memory-table">
          <caption>Per GPU (GB = 10⁹ bytes)</caption>
          <thead>
            <tr>
              <th scope="col">Part</th>
              <th scope="col">GB</th>
            </tr>
          </thead>
          <tbody>
            {PARTS.map((p) => (
              <tr key={p.key} data-part={p.key}>
                <th scope="row">{p.label}</th>
                <td>{gb(r[p.key])}</td>
              </tr>
            ))}
            <tr data-part="total">
              <th scope="row">Total</th>
              <td>{gb(r.total)}</td>
            </tr>
          </tbody>
        </table>
      </div>
    </figure>
  );
}
