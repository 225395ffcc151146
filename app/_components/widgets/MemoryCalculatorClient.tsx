'use client';

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { MODEL_PRESETS, paramCount, RECOMPUTE, type Layout, type Recompute, type ZeroStage } from '@/lib/dist';
import { bytesText, gb } from './dist-format';
import { fieldsBeforeHydration } from './hydration';
import { advice, choicesFor, report, type NumericField } from './memory-options';
import { MemoryBar } from './MemoryBar';

const NUMERIC: { key: NumericField; label: React.ReactNode }[] = [
  { key: 'dp', label: <>Data-parallel size N<sub>d</sub></> },
  { key: 'tp', label: <>Tensor-parallel size N<sub>t</sub></> },
  { key: 'pp', label: <>Pipeline-parallel size N<sub>p</sub></> },
  { key: 'microBatch', label: 'Micro-batch b (sequences)' },
  { key: 'seqLen', label: 'Sequence length s (tokens)' },
  { key: 'microbatches', label: 'Micro-batches per step m' },
];
const RECOMPUTE_LABEL: Record<Recompute, string> = {
  none: 'none: store everything',
  selective: 'selective: recompute attention scores',
  full: 'full: keep only each layer’s input',
};
const fmtParams = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)}B` : `${(n / 1e6).toFixed(0)}M`);

/** Per-GPU memory of a real model under the reader's layout; all arithmetic is lib/dist (no tfjs). */
export function MemoryCalculatorClient({ initial }: { initial: Layout }) {
  const id = useId();
  const root = useRef<HTMLElement>(null);
  const [layout, setLayout] = useState(initial);
  useEffect(() => {
    const dom = fieldsBeforeHydration(root.current);
    const patch: Partial<Layout> = {};
    for (const [k, v] of dom) {
      if (k === 'model' || k === 'recompute') patch[k] = v as never;
      else if (k === 'sequenceParallel') patch.sequenceParallel = v as boolean;
      else if (typeof v === 'string' && v !== '') (patch as Record<string, number>)[k] = Number(v);
    }
    setLayout((l) => ({ ...l, ...patch }));
  }, []);
  const set = <K extends keyof Layout>(key: K, value: Layout[K]) => setLayout((l) => ({ ...l, [key]: value }));

  const r = useMemo(() => report(layout), [layout]);
  const model = MODEL_PRESETS.find((m) => m.id === layout.model) ?? MODEL_PRESETS[0];
  const select = (key: NumericField, label: React.ReactNode) => (
    <div className="dist-field" key={key}>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <select id={`${id}-${key}`} data-field={key} value={layout[key]} onChange={(e) => set(key, Number(e.target.value))}>
        {choicesFor(key, layout[key]).map((v) => (
          <option key={v} value={v}>
            {v.toLocaleString('en-US')}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <section ref={root} className="widget memory-calculator" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Try it</span> Does it fit? Memory per GPU for a real model and layout
      </h3>
      <div className="widget-controls dist-controls">
        <div className="dist-field">
          <label htmlFor={`${id}-model`}>Model</label>
          <select id={`${id}-model`} data-field="model" value={layout.model} onChange={(e) => set('model', e.target.value)}>
            {MODEL_PRESETS.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
        {select('gpuGB', 'GPU memory (GB)')}
        {NUMERIC.map((f) => select(f.key, f.label))}
        <div className="dist-field">
          <label htmlFor={`${id}-recompute`}>Activation recomputation</label>
          <select id={`${id}-recompute`} data-field="recompute" value={layout.recompute} onChange={(e) => set('recompute', e.target.value as Recompute)}>
            {RECOMPUTE.map((v) => (
              <option key={v} value={v}>
                {RECOMPUTE_LABEL[v]}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="dist-radios">
          <legend>ZeRO stage</legend>
          {([0, 1, 2, 3] as ZeroStage[]).map((s) => (
            <label key={s} className="dist-radio">
              <input type="radio" name={`${id}-zero`} data-field="zero" value={s} checked={layout.zero === s} onChange={() => set('zero', s)} />
              {s === 0 ? 'none' : s}
            </label>
          ))}
        </fieldset>
        <div className="dist-field dist-check">
          <label htmlFor={`${id}-sp`}>
            <input id={`${id}-sp`} type="checkbox" data-field="sequenceParallel" checked={layout.sequenceParallel} onChange={(e) => set('sequenceParallel', e.target.checked)} />{' '}
            Sequence parallelism (with TP)
          </label>
        </div>
      </div>
      <p className="dist-model-note">
        {model.name}: h = {model.hidden}, MLP {model.intermediate}, L = {model.layers} layers, a = {model.heads} heads ({model.kvHeads} K/V heads), vocabulary{' '}
        {model.vocab.toLocaleString('en-US')}, embeddings {model.tiedEmbeddings ? 'tied' : 'untied'}: Ψ = {fmtParams(paramCount(model))} (published {model.publishedParams};{' '}
        <a href={model.source}>config.json</a>).
      </p>
      <div aria-live="polite" className="widget-messages">
        {typeof r === 'string' ? <p className="widget-error">{r}</p> : null}
      </div>
      {typeof r === 'string' ? null : (
        <>
          <p className={`mem-verdict ${r.fits ? 'fits' : 'over'}`} data-testid="memory-verdict" aria-live="polite">
            {r.fits
              ? `Fits: ${gb(r.total)} of ${layout.gpuGB} GB per GPU (${gb(r.gpuBytes - r.total)} GB to spare for buffers and fragmentation).`
              : `Does not fit: ${gb(r.total)} GB per GPU, ${gb(r.total - r.gpuBytes)} GB more than the ${layout.gpuGB} GB GPU.`}{' '}
            {advice(layout, r)}
          </p>
          <MemoryBar r={r} />
          <ul className="widget-stats">
            <li>
              {r.gpus.toLocaleString('en-US')} GPUs (N<sub>d</sub> × N<sub>t</sub> × N<sub>p</sub>); the fullest GPU holds {fmtParams(r.paramsPerGpu)} parameters ({r.layersPerStage} layers
              {layout.pp > 1 ? ' and an embedding matrix' : ' and the embeddings'}).
            </li>
            <li>
              Activations: {bytesText(r.activationsPerLayer)} per layer and micro-batch × {r.layersPerStage} layers × {r.inFlight} micro-batch
              {r.inFlight > 1 ? 'es' : ''} in flight{layout.pp > 1 ? <> (1F1B: the first stage holds min(N<sub>p</sub>, m))</> : null}.
            </li>
            {r.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
