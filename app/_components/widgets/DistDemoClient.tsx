'use client';

import { useEffect, useId, useRef, useState } from 'react';
import type { DemoName, DemoResult } from '@/lib/dist/equivalence';
import type { FromDemoWorker, ToDemoWorker } from './dist-demo-protocol';
import { DEMO_TITLES, FLOAT32_BAR, rowsFor, sci } from './dist-demo-rows';

const DEMOS: DemoName[] = ['dp', 'tp', 'zero'];

interface State {
  status: 'idle' | 'running' | 'done' | 'failed';
  backend: string | null;
  current: DemoName | null;
  results: Partial<Record<DemoName, { result: DemoResult; ms: number; leakedTensors: number }>>;
  error: string | null;
}

/** Starts a worker on the reader's click; the worker loads tfjs and runs the three demonstrations on the tiny LM. */
export function DistDemoClient() {
  const id = useId();
  const worker = useRef<Worker | null>(null);
  const [s, setS] = useState<State>({ status: 'idle', backend: null, current: null, results: {}, error: null });
  useEffect(() => () => worker.current?.terminate(), []);

  const run = () => {
    if (!worker.current) {
      const w = new Worker(new URL('./dist-demo.worker.ts', import.meta.url), { type: 'module' });
      w.onmessage = (event: MessageEvent<FromDemoWorker>) => {
        const m = event.data;
        setS((cur) => {
          switch (m.type) {
            case 'backend':
              return { ...cur, backend: m.backend };
            case 'started':
              return { ...cur, current: m.demo };
            case 'result':
              return { ...cur, results: { ...cur.results, [m.demo]: { result: m.result, ms: m.ms, leakedTensors: m.leakedTensors } } };
            case 'done':
              return { ...cur, status: 'done', current: null };
            case 'error':
              return { ...cur, status: 'failed', current: null, error: m.message };
          }
        });
      };
      w.onerror = (e) => {
        // A dead worker answers nothing: drop it, so the next run starts a new one.
        w.terminate();
        if (worker.current === w) worker.current = null;
        setS((cur) => ({ ...cur, status: 'failed', current: null, error: `The worker crashed: ${e.message || 'unknown error'}` }));
      };
      worker.current = w;
    }
    setS((cur) => ({ ...cur, status: 'running', results: {}, error: null }));
    worker.current.postMessage({ type: 'run', demos: DEMOS } satisfies ToDemoWorker);
  };

  return (
    <section className="widget dist-demo" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Run it</span> Sharded training equals unsharded training, in your browser
      </h3>
      <p className="widget-hint">
        The course’s tiny LM (27.6k parameters, float32) on the arithmetic task, with simulated workers and devices. It runs in a Web Worker and loads
        TensorFlow.js only when you press the button.
      </p>
      <button type="button" className="dist-run" onClick={run} disabled={s.status === 'running'}>
        {s.status === 'running' ? 'Running…' : s.status === 'idle' ? 'Run the three demonstrations' : 'Run again'}
      </button>
      <div aria-live="polite" className="widget-messages" data-testid="demo-status">
        {s.error ? <p className="widget-error">{s.error}</p> : null}
        {s.status === 'running' ? <p className="widget-computing">{s.current ? `Running: ${DEMO_TITLES[s.current]}…` : 'Loading TensorFlow.js in the worker…'}</p> : null}
        {s.status === 'done' ? (
          <p>
            Done on tfjs’s <code>{s.backend}</code> backend in {Math.round(DEMOS.reduce((t, d) => t + (s.results[d]?.ms ?? 0), 0))} ms; tensors left behind:{' '}
            {DEMOS.reduce((t, d) => t + (s.results[d]?.leakedTensors ?? 0), 0)}.
          </p>
        ) : null}
      </div>
      <div className="dist-demo-wrap" tabIndex={0} role="region" aria-label="Demonstration results">
        <table className="dist-demo-table" data-testid="demo-table">
          <caption>Largest absolute difference between the sharded and the unsharded computation (float32 keeps about 7 digits)</caption>
          <thead>
            <tr>
              <th scope="col">Compared</th>
              <th scope="col">max |difference|</th>
              <th scope="col">Verdict</th>
            </tr>
          </thead>
          {DEMOS.map((demo) => {
            const got = s.results[demo];
            return (
              <tbody key={demo}>
                <tr>
                  <th colSpan={3} scope="rowgroup" className="dist-demo-group">
                    {DEMO_TITLES[demo]}
                  </th>
                </tr>
                {!got ? (
                  <tr data-row={demo} data-pending="true">
                    <td colSpan={3}>{s.current === demo ? 'running…' : 'not run yet'}</td>
                  </tr>
                ) : (
                  rowsFor(got.result).map((row) => {
                    const worst = Math.max(...row.values);
                    const equal = worst < FLOAT32_BAR;
                    const verdict =
                      row.expect === 'rounding'
                        ? { text: equal ? `equal (< ${sci(FLOAT32_BAR)})` : 'float32 rounding, magnified by Adam', cls: 'zero' }
                        : { text: `${equal ? `equal (< ${sci(FLOAT32_BAR)})` : 'different'}${row.expect === 'different' ? ', as expected' : ''}`, cls: equal === (row.expect === 'equal') ? 'pos' : 'neg' };
                    return (
                      <tr key={row.key} data-row={row.key} data-max={worst} data-expect={row.expect}>
                        <td>
                          {row.what}
                          <span className="cell-note">{row.detail}</span>
                        </td>
                        <td className="dist-num">{row.values.length > 1 ? row.values.map((v, k) => <span key={k} className="dist-step">{`step ${k + 1}: ${sci(v)}`}</span>) : sci(worst)}</td>
                        <td className={`adv ${verdict.cls}`}>{verdict.text}</td>
                      </tr>
                    );
                  })
                )}
              </tbody>
            );
          })}
        </table>
      </div>
    </section>
  );
}
