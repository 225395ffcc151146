'use client';

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { ClipPanel } from './ClipPanel';
import { clipSnapshot, R_MAX, type ClipParams, type ClipSnapshot } from './clip';
import { useNumeric, type Job } from './useNumeric';
import { signed } from './advantages';
import { fieldsBeforeHydration } from './hydration';

interface Props {
  initial: ClipSnapshot;
  range: readonly [number, number];
}

type Inputs = ClipParams & { ratio: number };

/** Shows the build-time plot until a slider moves; then recomputes live in the numeric worker. */
export function ClipVisualizerClient({ initial, range }: Props) {
  const id = useId();
  const [inputs, setInputs] = useState<Inputs>({ ...initial.params, ratio: initial.ratio });
  const [edited, setEdited] = useState(false);
  const root = useRef<HTMLElement>(null);
  // This component's code loads when the reader comes to it (islands/Island.tsx): keep a slider moved before it arrived.
  useEffect(() => {
    const moved = [...fieldsBeforeHydration(root.current)].filter(([key, value]) => Number(value) !== inputs[key as keyof Inputs]);
    if (moved.length === 0) return;
    setEdited(true);
    setInputs((s) => ({ ...s, ...Object.fromEntries(moved.map(([key, value]) => [key, Number(value)])) }));
    // Once, on mount: `inputs` is still what the server rendered.
  }, []);

  const { epsilon, epsilonHigh, ratio } = inputs;
  const job = useMemo(
    (): Job<ClipSnapshot> => (edited ? (face) => clipSnapshot(face, { epsilon, epsilonHigh }, ratio) : null),
    [edited, epsilon, epsilonHigh, ratio],
  );
  // While a slider is dragged, the worker computes the latest value it can; the thumb never waits for it.
  const { value: shown, error, slow: computing } = useNumeric(initial, job, 'the plot');

  const set = (key: keyof Inputs) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setEdited(true);
    setInputs((s) => ({ ...s, [key]: Number(e.target.value) }));
  };
  const slider = (key: keyof Inputs, label: React.ReactNode, min: number, max: number) => (
    <div className="widget-slider">
      <label htmlFor={`${id}-${key}`}>
        {label}{' '}
        <output htmlFor={`${id}-${key}`} data-testid={`clip-${key}-value`}>
          {inputs[key].toFixed(2)}
        </output>
      </label>
      <input id={`${id}-${key}`} data-field={key} type="range" min={min} max={max} step={0.01} value={inputs[key]} onChange={set(key)} />
    </div>
  );

  return (
    <section ref={root} className="widget clip-visualizer" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Try it</span> The clipped objective per token
      </h3>
      <div className="widget-controls">
        {slider('epsilon', <>ε (<code>epsilon</code>)</>, range[0], range[1])}
        {slider('epsilonHigh', <>ε<sub>high</sub> (<code>epsilon_high</code>)</>, range[0], range[1])}
        {slider('ratio', <>ratio r to read off</>, 0, R_MAX)}
      </div>
      <div aria-live="polite" className="widget-messages">
        {error ? <p className="widget-error">{error}</p> : null}
        {computing ? <p className="widget-computing">computing…</p> : null}
      </div>
      <div className={`clip-panels${computing ? ' stale' : ''}`}>
        {shown.curves.map((c, k) => (
          <ClipPanel key={c.A} curve={c} params={shown.params} ratio={shown.ratio} point={shown.point[k]} />
        ))}
      </div>
      <table className="clip-readout">
        <caption>At r = {shown.ratio.toFixed(2)}</caption>
        <thead>
          <tr>
            <th scope="col">Advantage</th>
            <th scope="col">Objective</th>
            <th scope="col">∂loss/∂log r</th>
          </tr>
        </thead>
        <tbody>
          {shown.point.map((p) => (
            <tr key={p.A}>
              <th scope="row">A = {p.A > 0 ? '+1' : '−1'}</th>
              <td>{signed(p.objective).text}</td>
              <td>
                {signed(p.grad).text}
                {p.grad === 0 ? <span className="cell-note">clipped: no gradient</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
