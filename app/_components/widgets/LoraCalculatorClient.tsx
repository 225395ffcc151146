'use client';

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { BASE_PRECISIONS, findModel, LORA_MODULES, loraBudget, MAX_RANK, MODEL_PRESETS, type BasePrecision, type LoraBudget, type LoraModule } from '@/lib/lora/budget';
import { formatCount } from '@/lib/lora/format';
import { LoraBudgetView } from './LoraBudgetView';
import { BASE_LABELS, parseLora, presetOf, targetsOf, type LoraField, type LoraInputs, type TargetPreset } from './lora-calculator';

interface Props {
  initialInputs: LoraInputs;
}

const PRESET_LABELS: Record<Exclude<TargetPreset, 'custom'>, string> = {
  attention: 'attention: q, k, v, o',
  all: 'all linear layers (attention + MLP)',
};

/** What the reader changed in the server-rendered form before this chunk hydrated it (React keeps it, silently). */
function enteredBefore(root: HTMLElement | null, initial: LoraInputs): LoraInputs | null {
  if (!root) return null;
  const field = (name: string) => root.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-field="${name}"]`);
  const value = (name: string, fallback: string) => field(name)?.value ?? fallback;
  const ticked = (name: string, fallback: boolean) => (field(name) as HTMLInputElement | null)?.checked ?? fallback;
  const entered: LoraInputs = {
    model: value('model', initial.model),
    base: value('base', initial.base) as BasePrecision,
    r: value('r', initial.r),
    alpha: value('alpha', initial.alpha),
    rslora: ticked('rslora', initial.rslora),
    targets: LORA_MODULES.filter((m) => ticked(`target-${m}`, initial.targets.includes(m))),
  };
  return JSON.stringify(entered) === JSON.stringify(initial) ? null : entered;
}

/** LoRA parameter and memory calculator: every edit recomputes with lib/lora/budget (no tfjs, nothing to load). */
export function LoraCalculatorClient({ initialInputs }: Props) {
  const id = useId();
  const root = useRef<HTMLElement>(null);
  const [inputs, setInputs] = useState(initialInputs);

  useEffect(() => {
    const entered = enteredBefore(root.current, initialInputs);
    if (entered) setInputs(entered);
  }, [initialInputs]);

  const parsed = useMemo(() => parseLora(inputs), [inputs]);
  const live = useMemo((): { budget: LoraBudget; r: number } | string | null => {
    if (!parsed.ok) return null;
    try {
      return { budget: loraBudget(parsed.args), r: parsed.args.r };
    } catch (e) {
      return (e as Error).message;
    }
  }, [parsed]);
  // The last valid result stays on screen, marked stale, while the input is invalid.
  const [shown, setShown] = useState(() => ({ ...(live as { budget: LoraBudget; r: number }), model: inputs.model, base: inputs.base }));
  if (live && typeof live !== 'string' && live.budget !== shown.budget) setShown({ ...live, model: inputs.model, base: inputs.base });

  const errors: Partial<Record<LoraField, string>> = parsed.ok ? {} : parsed.errors;
  const set = <K extends keyof LoraInputs>(key: K, value: LoraInputs[K]) => setInputs((s) => ({ ...s, [key]: value }));
  const model = findModel(inputs.model);
  const preset = presetOf(inputs.targets);
  const rNumber = Number(inputs.r);
  const scalingFormula = inputs.rslora ? 'α/√r' : 'α/r';
  const message = (key: LoraField) => (
    <div id={`${id}-${key}-msg`} aria-live="polite" className="gae-field-msg">
      {errors[key] ? <p className="widget-error">{errors[key]}</p> : null}
    </div>
  );
  const toggle = (m: LoraModule, on: boolean) => set('targets', on ? [...inputs.targets, m] : inputs.targets.filter((t) => t !== m));

  return (
    <section ref={root} className="widget lora-calculator" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="widget-title">
        <span className="widget-label">Try it</span> What a LoRA adapter costs on a real model
      </h3>
      <div className="widget-controls lora-controls">
        <div>
          <label htmlFor={`${id}-model`}>Model</label>
          <select id={`${id}-model`} data-field="model" className="lora-select" value={inputs.model} onChange={(e) => set('model', e.target.value)}>
            {MODEL_PRESETS.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
          <p className="widget-hint lora-arch" data-testid="lora-arch">
            {model.layers} layers, hidden {formatCount(model.hidden)}, MLP {formatCount(model.intermediate)}, {model.heads} heads × {model.headDim} ({model.kvHeads} KV),
            vocabulary {formatCount(model.vocab)}
            {model.tiedEmbeddings ? ', tied embeddings' : ''}. Source:{' '}
            <a href={model.configUrl} rel="noopener">
              config.json
            </a>
          </p>
        </div>
        <div>
          <label htmlFor={`${id}-base`}>Frozen base weights</label>
          <select id={`${id}-base`} data-field="base" className="lora-select" value={inputs.base} onChange={(e) => set('base', e.target.value as BasePrecision)}>
            {BASE_PRECISIONS.map((p) => (
              <option key={p} value={p}>
                {BASE_LABELS[p].label}
              </option>
            ))}
          </select>
          <p className="widget-hint lora-arch">{BASE_LABELS[inputs.base].note}</p>
        </div>
        <div>
          <label htmlFor={`${id}-r`}>
            Rank <code>r</code>
          </label>
          <input id={`${id}-r`} data-field="r" className="widget-text" type="number" min={1} max={MAX_RANK} step={1} inputMode="numeric" value={inputs.r}
            aria-invalid={Boolean(errors.r)} aria-describedby={`${id}-r-msg`} onChange={(e) => set('r', e.target.value)} />
          {message('r')}
        </div>
        <div>
          <label htmlFor={`${id}-alpha`}>
            <code>lora_alpha</code> (α)
          </label>
          <input id={`${id}-alpha`} data-field="alpha" className="widget-text" type="number" min={0} step="any" inputMode="decimal" value={inputs.alpha}
            aria-invalid={Boolean(errors.alpha)} aria-describedby={`${id}-alpha-msg`} onChange={(e) => set('alpha', e.target.value)} />
          {message('alpha')}
        </div>
      </div>
      <div className="gae-checkbox lora-rslora">
        <label htmlFor={`${id}-rslora`}>
          <input id={`${id}-rslora`} data-field="rslora" type="checkbox" checked={inputs.rslora} onChange={(e) => set('rslora', e.target.checked)} />{' '}
          <code>use_rslora</code>: scale by α/√r instead of α/r
        </label>
        <p className="widget-hint" data-testid="lora-scaling-formula">
          s = {scalingFormula} = {inputs.alpha} / {inputs.rslora ? `√${inputs.r}` : inputs.r}
          {parsed.ok && live && typeof live !== 'string' ? ` = ${Number(live.budget.scaling.toFixed(4))}` : ''}
          {parsed.ok && !inputs.rslora && Number(inputs.alpha) === 2 * rNumber ? ' (α = 2r: the scale is 2 at every rank)' : ''}
        </p>
      </div>
      <fieldset className="dpo-types lora-targets" aria-describedby={`${id}-targets-msg`}>
        <legend>Target modules</legend>
        {(['attention', 'all'] as const).map((p) => (
          <label key={p} className="dpo-type">
            <input type="radio" name={`${id}-preset`} checked={preset === p} onChange={() => set('targets', targetsOf(p))} /> {PRESET_LABELS[p]}
          </label>
        ))}
        <label className="dpo-type">
          <input type="radio" name={`${id}-preset`} checked={preset === 'custom'} disabled={preset !== 'custom'} readOnly /> custom (tick below)
        </label>
        <div className="lora-modules">
          {LORA_MODULES.map((m) => (
            <label key={m} className="dpo-type">
              <input type="checkbox" data-field={`target-${m}`} checked={inputs.targets.includes(m)} onChange={(e) => toggle(m, e.target.checked)} /> <code>{m}</code>
            </label>
          ))}
        </div>
      </fieldset>
      {message('targets')}
      <div aria-live="polite" className="widget-messages">
        {typeof live === 'string' ? <p className="widget-error">{live}</p> : null}
      </div>
      <LoraBudgetView budget={shown.budget} model={findModel(shown.model)} base={shown.base} r={shown.r} stale={!parsed.ok} />
    </section>
  );
}
