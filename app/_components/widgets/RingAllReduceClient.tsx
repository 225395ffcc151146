'use client';

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { ringAllReduceBytes, ringAllReduceSteps } from '@/lib/dist';
import { bytesText } from './dist-format';
import { fieldsBeforeHydration } from './hydration';
import { RingDiagram } from './RingDiagram';
import { BUFFERS, startValues, WORKER_CHOICES } from './ring-options';

/** The ring all-reduce one step at a time: which chunk each worker sends, the running sums, the bytes per link. */
export function RingAllReduceClient({ initialWorkers }: { initialWorkers: number }) {
  const id = useId();
  const root = useRef<HTMLElement>(null);
  const [n, setN] = useState(initialWorkers);
  const [k, setK] = useState(0);
  const [buffer, setBuffer] = useState(BUFFERS[2].bytes);
  useEffect(() => {
    const dom = fieldsBeforeHydration(root.current);
    if (dom.has('workers')) setN(Number(dom.get('workers')));
    if (dom.has('buffer')) setBuffer(Number(dom.get('buffer')));
  }, []);
  const steps = useMemo(() => ringAllReduceSteps(startValues(n)), [n]);
  const step = steps[Math.min(k, steps.length - 1)];
  const last = steps.length - 1;
  const chunk = buffer / n;
  const phaseText =
    step.phase === 'start'
      ? 'Start: each worker holds its own gradient, split into one chunk per worker.'
      : step.phase === 'reduce-scatter'
        ? `Reduce-scatter, step ${step.step} of ${n - 1}: each worker sends one chunk to its right neighbour, which adds it to its own.`
        : `All-gather, step ${step.step - (n - 1)} of ${n - 1}: each worker passes on a finished sum, which overwrites the neighbour's chunk.`;

  return (
    <section ref={root} className="widget ring-allreduce" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Step through</span> Ring all-reduce
      </h3>
      <div className="widget-controls dist-controls">
        <div className="dist-field">
          <label htmlFor={`${id}-n`}>Workers N</label>
          <select
            id={`${id}-n`}
            data-field="workers"
            value={n}
            onChange={(e) => {
              setN(Number(e.target.value));
              setK(0);
            }}
          >
            {WORKER_CHOICES.map((w) => (
              <option key={w} value={w}>
                {w}
              </option>
            ))}
          </select>
        </div>
        <div className="dist-field">
          <label htmlFor={`${id}-buffer`}>Buffer each worker all-reduces</label>
          <select id={`${id}-buffer`} data-field="buffer" value={buffer} onChange={(e) => setBuffer(Number(e.target.value))}>
            {BUFFERS.map((b) => (
              <option key={b.bytes} value={b.bytes}>
                {b.label}
              </option>
            ))}
          </select>
        </div>
        <div className="ring-buttons" role="group" aria-label="Step">
          <button type="button" onClick={() => setK(0)} disabled={k === 0}>
            Start
          </button>
          <button type="button" onClick={() => setK((x) => Math.max(0, x - 1))} disabled={k === 0}>
            Back
          </button>
          <button type="button" onClick={() => setK((x) => Math.min(last, x + 1))} disabled={k >= last}>
            Next step
          </button>
        </div>
      </div>
      <p className="ring-phase" aria-live="polite" data-testid="ring-phase">
        {phaseText}
      </p>
      <RingDiagram step={step} n={n} />
      <div className="dist-table-wrap" tabIndex={0} role="region" aria-label="Chunk values per worker">
        <table className="ring-table" data-testid="ring-table">
          <caption>
            Chunk values held by each worker after step {step.step} of {last}
          </caption>
          <thead>
            <tr>
              <th scope="col">Worker</th>
              {Array.from({ length: n }, (_, c) => (
                <th key={c} scope="col">
                  chunk {c + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {step.values.map((row, w) => (
              <tr key={w}>
                <th scope="row">{w + 1}</th>
                {row.map((value, c) => {
                  const got = step.transfers.some((t) => t.to === w && t.chunk === c);
                  return (
                    <td key={c} className={got ? 'ring-got' : undefined}>
                      {value}
                      {got ? <span className="sr-only"> (just received)</span> : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="widget-stats" data-testid="ring-bytes">
        <li>
          Each step every link carries one chunk: {bytesText(chunk)} ({bytesText(buffer)} ÷ {n}).
        </li>
        <li>
          Sent by each worker so far: {step.chunksSent} chunk{step.chunksSent === 1 ? '' : 's'} = {bytesText(step.chunksSent * chunk)}; at the end 2(N − 1)/N × size ={' '}
          <strong>{bytesText(ringAllReduceBytes({ workers: n, bytes: buffer }))}</strong>.
        </li>
        <li>Gathering everything on one worker instead would make it receive (N − 1) × size = {bytesText((n - 1) * buffer)} over its one link.</li>
      </ul>
    </section>
  );
}
