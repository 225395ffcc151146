'use client';

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { DpoPanel } from './DpoPanel';
import { BETA_RANGE, dpoSnapshot, LOSS_TYPES, LS_MAX, num, Z_MAX, type DpoParams, type DpoPoint, type DpoSnapshot, type LossType } from './dpo-loss';
import { fieldsBeforeHydration } from './hydration';
import { useNumeric, type Job } from './useNumeric';

interface Props {
  initial: DpoSnapshot;
  initialShow: LossType[];
}

type Inputs = DpoParams & { z: number };

const NOTES: Record<LossType, string> = {
  sigmoid: 'the DPO paper’s −log σ(βz)',
  hinge: 'SLiC: max(0, 1 − βz)',
  ipo: 'IPO: (z − 1/(2β))²',
  robust: 'robust DPO; equals sigmoid when label_smoothing = 0',
};

/** Shows the build-time plot until a slider moves; then recomputes live in the numeric worker. */
export function DpoLossExplorerClient({ initial, initialShow }: Props) {
  const id = useId();
  const [inputs, setInputs] = useState<Inputs>({ ...initial.params, z: initial.z });
  const [show, setShow] = useState<ReadonlySet<LossType>>(() => new Set(initialShow));
  const [edited, setEdited] = useState(false);
  const root = useRef<HTMLElement>(null);

  // Anything set while this widget's chunk was still on its way: a moved slider counts as an edit.
  useEffect(() => {
    const dom = fieldsBeforeHydration(root.current);
    const entered = { beta: initial.params.beta, labelSmoothing: initial.params.labelSmoothing, z: initial.z };
    for (const k of ['beta', 'labelSmoothing', 'z'] as const) {
      const v = dom.get(k);
      if (typeof v === 'string' && v !== '' && Number(v) !== entered[k]) entered[k] = Number(v);
    }
    if (entered.beta !== initial.params.beta || entered.labelSmoothing !== initial.params.labelSmoothing || entered.z !== initial.z) {
      setInputs(entered);
      setEdited(true);
    }
    const ticked = LOSS_TYPES.filter((t) => (dom.has(`show-${t}`) ? dom.get(`show-${t}`) === true : initialShow.includes(t)));
    if (ticked.length !== initialShow.length || ticked.some((t) => !initialShow.includes(t))) setShow(new Set(ticked));
  }, [initial, initialShow]);

  const { beta, labelSmoothing, z } = inputs;
  const job = useMemo(
    (): Job<DpoSnapshot> => (edited ? (face) => dpoSnapshot(face, { beta, labelSmoothing }, z) : null),
    [edited, beta, labelSmoothing, z],
  );
  // While a slider is dragged, the worker computes the latest value it can; the thumb never waits for it.
  const { value: shown, error, slow: computing } = useNumeric(initial, job, 'the plot');

  const set = (key: keyof Inputs) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setEdited(true);
    setInputs((s) => ({ ...s, [key]: Number(e.target.value) }));
  };
  const slider = (key: keyof Inputs, label: React.ReactNode, min: number, max: number, step: number, digits: number) => (
    <div className="widget-slider">
      <label htmlFor={`${id}-${key}`}>
        {label}{' '}
        <output htmlFor={`${id}-${key}`} data-testid={`dpo-${key}-value`}>
          {inputs[key].toFixed(digits).replace('-', '\u2212')}
        </output>
      </label>
      <input id={`${id}-${key}`} data-field={key} type="range" min={min} max={max} step={step} value={inputs[key]} onChange={set(key)} />
    </div>
  );
  const toggle = (t: LossType) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const on = e.target.checked;
    setShow((s) => {
      const next = new Set(s);
      if (on) next.add(t);
      else next.delete(t);
      return next;
    });
  };
  const visible = shown.curves.filter((c) => show.has(c.type));

  return (
    <section ref={root} className="widget dpo-explorer" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Try it</span> The DPO loss and its gradient against the margin
      </h3>
      <div className="widget-controls">
        {slider('beta', <>β (<code>beta</code>)</>, BETA_RANGE[0], BETA_RANGE[1], 0.01, 2)}
        {slider('labelSmoothing', <><code>label_smoothing</code> (sigmoid, robust)</>, 0, LS_MAX, 0.01, 2)}
        {slider('z', <>margin z to read off</>, -Z_MAX, Z_MAX, 0.1, 1)}
      </div>
      <fieldset className="dpo-types">
        <legend>
          <code>loss_type</code> to plot
        </legend>
        {LOSS_TYPES.map((t) => (
          <label key={t} className="dpo-type">
            <input type="checkbox" data-field={`show-${t}`} checked={show.has(t)} onChange={toggle(t)} />
            <svg width="28" height="10" aria-hidden="true" className="dpo-swatch">
              <line x1="1" y1="5" x2="27" y2="5" className={`dpo-line dpo-${t}`} />
            </svg>
            <code>&apos;{t}&apos;</code> <span className="dpo-type-note">{NOTES[t]}</span>
          </label>
        ))}
      </fieldset>
      <div aria-live="polite" className="widget-messages">
        {error ? <p className="widget-error">{error}</p> : null}
        {computing ? <p className="widget-computing">computing…</p> : null}
      </div>
      <div className={`clip-panels${computing ? ' stale' : ''}`}>
        {(['loss', 'weight'] as const).map((kind) => (
          <DpoPanel key={kind} kind={kind} curves={visible} points={shown.points} z={shown.z} beta={shown.params.beta} />
        ))}
      </div>
      <table className="clip-readout dpo-readout" data-testid="dpo-readout">
        <caption>
          At z = {shown.z.toFixed(1).replace('-', '\u2212')}, β = {shown.params.beta.toFixed(2)}: the implicit reward margin β·z ={' '}
          <span data-testid="dpo-margin">{num(shown.points[0].margin)}</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <code>loss_type</code>
            </th>
            <th scope="col">Loss</th>
            <th scope="col">−∂loss/∂z</th>
          </tr>
        </thead>
        <tbody>
          {shown.points.map((p) => (
            <tr key={p.type} data-loss-type={p.type}>
              <th scope="row">
                <code>&apos;{p.type}&apos;</code>
                {show.has(p.type) ? null : <span className="cell-note">not plotted</span>}
              </th>
              <td data-col="loss">{num(p.loss)}</td>
              <td data-col="weight">
                {num(p.weight)}
                {note(p, shown.params) ? <span className="cell-note">{note(p, shown.params)}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="widget-stats">
        <li>
          The weight is how hard one gradient step pushes the margin up. For <code>&apos;sigmoid&apos;</code> it is β·σ(−βz): at most β,
          large while the pair is ranked wrongly (z &lt; 0) and fading once it is ranked right.
        </li>
        <li>
          <code>&apos;hinge&apos;</code> stops at βz = 1, and <code>&apos;ipo&apos;</code> pulls z towards 1/(2β) from either side, so a small β
          asks for a large margin.
        </li>
      </ul>
    </section>
  );
}

/** Why a weight is zero or negative, in words. */
function note(p: DpoPoint, params: DpoParams): string | null {
  if (p.type === 'hinge' && p.weight === 0) return 'βz ≥ 1: margin reached, no gradient';
  if (p.type === 'ipo' && p.weight < 0) return 'past the target 1/(2β): pushes z back down';
  if (p.type === 'ipo' && p.weight > 0) return 'short of the target 1/(2β): pushes z up';
  if (p.type === 'sigmoid' && params.labelSmoothing > 0 && p.weight < 0) return 'label smoothing pulls z back down';
  return null;
}
