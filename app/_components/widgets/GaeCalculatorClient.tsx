'use client';

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { signed } from './advantages';
import { computeGae, MAX_STEPS, parseGae, plain, type GaeField, type GaeInputs, type GaeTable } from './gae';
import { fieldsBeforeHydration } from './hydration';
import { useNumeric, type Job } from './useNumeric';

interface Props {
  initialInputs: GaeInputs;
  initialTable: GaeTable;
}

const LISTS: { key: 'rewards' | 'values' | 'dones'; label: React.ReactNode }[] = [
  { key: 'rewards', label: <>Rewards r<sub>t</sub></> },
  { key: 'values', label: <>Values V(s<sub>t</sub>) from the critic</> },
  { key: 'dones', label: <>dones (1 = step t begins a new episode)</> },
];

const cls = (x: number) => {
  const v = signed(x);
  return { text: v.text, className: v.sign > 0 ? 'pos' : v.sign < 0 ? 'neg' : 'zero' };
};

/** Shows the build-time table until the reader edits; then recomputes live in the numeric worker. */
export function GaeCalculatorClient({ initialInputs, initialTable }: Props) {
  const id = useId();
  const [inputs, setInputs] = useState(initialInputs);
  const [edited, setEdited] = useState(false);
  const root = useRef<HTMLElement>(null);

  // Anything typed while this widget's chunk was still on its way counts as an edit.
  useEffect(() => {
    const dom = fieldsBeforeHydration(root.current);
    const text = (k: 'rewards' | 'values' | 'dones' | 'nextValue') => {
      const v = dom.get(k);
      return typeof v === 'string' ? v : initialInputs[k];
    };
    const number = (k: 'gamma' | 'lam') => {
      const v = dom.get(k);
      return typeof v === 'string' && v !== '' ? Number(v) : initialInputs[k];
    };
    const nextDone = dom.get('nextDone');
    const entered: GaeInputs = {
      rewards: text('rewards'),
      values: text('values'),
      dones: text('dones'),
      nextValue: text('nextValue'),
      nextDone: typeof nextDone === 'boolean' ? nextDone : initialInputs.nextDone,
      gamma: number('gamma'),
      lam: number('lam'),
    };
    if ((Object.keys(entered) as (keyof GaeInputs)[]).some((k) => entered[k] !== initialInputs[k])) {
      setInputs(entered);
      setEdited(true);
    }
  }, [initialInputs]);

  const parsed = useMemo(() => parseGae(inputs), [inputs]);
  const job = useMemo((): Job<GaeTable> => (parsed.ok && edited ? (face) => computeGae(face, parsed.args) : null), [parsed, edited]);
  // The last good table stays on screen while the input is invalid or the worker is still answering.
  const { value: shown, error, slow } = useNumeric(initialTable, job, 'the calculator');

  const errors: Partial<Record<GaeField, string>> = parsed.ok ? {} : parsed.errors;
  const computing = parsed.ok && slow;
  const stale = !parsed.ok || computing;

  const set = <K extends keyof GaeInputs>(key: K, value: GaeInputs[K]) => {
    setEdited(true);
    setInputs((s) => ({ ...s, [key]: value }));
  };
  const message = (key: GaeField) => (
    <div id={`${id}-${key}-msg`} aria-live="polite" className="gae-field-msg">
      {errors[key] ? <p className="widget-error">{errors[key]}</p> : null}
    </div>
  );
  const slider = (key: 'gamma' | 'lam', label: React.ReactNode) => (
    <div className="widget-slider">
      <label htmlFor={`${id}-${key}`}>
        {label}{' '}
        <output htmlFor={`${id}-${key}`} data-testid={`gae-${key}-value`}>
          {inputs[key].toFixed(2)}
        </output>
      </label>
      <input
        id={`${id}-${key}`}
        type="range"
        data-field={key}
        min={0}
        max={1}
        step={0.01}
        value={inputs[key]}
        aria-describedby={`${id}-${key}-msg`}
        onChange={(e) => set(key, Number(e.target.value))}
      />
      {message(key)}
    </div>
  );
  const gl = shown.gamma * shown.lam;

  return (
    <section ref={root} className="widget gae-calculator" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Try it</span> Generalised advantage estimation, step by step
      </h3>
      <p className="widget-hint">One trajectory of at most {MAX_STEPS} steps: one number per step, separated by commas.</p>
      <div className="gae-lists">
        {LISTS.map(({ key, label }) => (
          <div key={key} className="gae-field">
            <label htmlFor={`${id}-${key}`}>{label}</label>
            <input
              id={`${id}-${key}`}
              data-field={key}
              className="widget-text"
              type="text"
              inputMode="decimal"
              spellCheck={false}
              autoComplete="off"
              value={inputs[key]}
              aria-invalid={Boolean(errors[key])}
              aria-describedby={`${id}-${key}-msg`}
              onChange={(e) => set(key, e.target.value)}
            />
            {message(key)}
          </div>
        ))}
      </div>
      <div className="widget-controls gae-controls">
        <div className="gae-field">
          <label htmlFor={`${id}-nextValue`}>
            <code>nextValue</code>: V of the state after the last step
          </label>
          <input
            id={`${id}-nextValue`}
            data-field="nextValue"
            className="widget-text"
            type="text"
            inputMode="decimal"
            spellCheck={false}
            autoComplete="off"
            value={inputs.nextValue}
            aria-invalid={Boolean(errors.nextValue)}
            aria-describedby={`${id}-nextValue-msg`}
            onChange={(e) => set('nextValue', e.target.value)}
          />
          {message('nextValue')}
        </div>
        <div className="gae-field gae-checkbox">
          <label htmlFor={`${id}-nextDone`}>
            <input id={`${id}-nextDone`} data-field="nextDone" type="checkbox" checked={inputs.nextDone} onChange={(e) => set('nextDone', e.target.checked)} />{' '}
            <code>nextDone</code>: the episode ends after the last step (nextValue is not used)
          </label>
        </div>
        {slider('gamma', <>γ (<code>gamma</code>)</>)}
        {slider('lam', <>λ (<code>lam</code>)</>)}
      </div>
      <div aria-live="polite" className="widget-messages">
        {error ? <p className="widget-error">{error}</p> : null}
        {computing ? <p className="widget-computing">computing…</p> : null}
      </div>
      {/* The wrapper scrolls sideways on a narrow screen; focusable so that keyboard readers can scroll it too. */}
      <div className={`gae-table-wrap${stale ? ' stale' : ''}`} tabIndex={0} role="region" aria-label="GAE step-by-step table">
        <table className="gae-table" data-testid="gae-table">
          <caption>
            Step by step, γ = {shown.gamma.toFixed(2)}, λ = {shown.lam.toFixed(2)}, γλ = {plain(gl, 4)}
            {!parsed.ok ? ' (last valid input)' : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">t</th>
              <th scope="col">
                r<sub>t</sub>
              </th>
              <th scope="col">
                V(s<sub>t</sub>)
              </th>
              <th scope="col">
                done<sub>t</sub>
              </th>
              <th scope="col">
                δ<sub>t</sub>
                <span className="th-note">
                  r<sub>t</sub> + γ·V(s<sub>t+1</sub>)·(1 − done<sub>t+1</sub>) − V(s<sub>t</sub>)
                </span>
              </th>
              <th scope="col">
                A<sub>t</sub>
                <span className="th-note">
                  δ<sub>t</sub> + γλ·A<sub>t+1</sub> within an episode
                </span>
              </th>
              <th scope="col">
                R<sub>t</sub>
                <span className="th-note">
                  A<sub>t</sub> + V(s<sub>t</sub>), the critic&apos;s target
                </span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.rows.map((row) => {
              const last = row.t === shown.rows.length - 1;
              const d = cls(row.delta);
              const a = cls(row.advantage);
              return (
                <tr key={row.t} data-t={row.t} className={row.done === 1 && row.t > 0 ? 'gae-new-episode' : undefined}>
                  <th scope="row">
                    {row.t}
                    {row.done === 1 ? <span className="cell-note">new episode</span> : null}
                  </th>
                  <td data-col="reward">{plain(row.reward)}</td>
                  <td data-col="value">{plain(row.value)}</td>
                  <td data-col="done">{row.done}</td>
                  <td data-col="delta" className={`adv ${d.className}`}>
                    {d.text}
                    <span className="cell-note">
                      {row.notDoneNext === 0
                        ? last
                          ? 'nextDone: nothing bootstrapped'
                          : 'episode ends: nothing bootstrapped'
                        : last
                          ? `bootstraps from nextValue ${plain(row.nextV)}`
                          : <>uses V(s<sub>{row.t + 1}</sub>) = {plain(row.nextV)}</>}
                    </span>
                  </td>
                  <td data-col="advantage" className={`adv ${a.className}`}>
                    {a.text}
                  </td>
                  <td data-col="return">{plain(row.ret, 3)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ul className="widget-stats">
        <li>
          Read the A<sub>t</sub> column from the bottom up: each advantage is its δ plus γλ = {plain(gl, 4)} times the advantage below it,
          and the sum restarts at every new episode.
        </li>
        <li>λ = 0 makes A<sub>t</sub> = δ<sub>t</sub> (one-step TD: low variance, biased by the critic); λ = 1 makes it the discounted return minus V(s<sub>t</sub>) (Monte Carlo: unbiased, noisy).</li>
      </ul>
    </section>
  );
}
