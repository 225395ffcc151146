// LoraCalculator's inputs: what the reader set, checked, and turned into the core's arguments.
// Shared by the server (build-time default, MDX props) and the browser (live edits); no tfjs.
import {
  ALL_LINEAR_MODULES,
  ATTENTION_MODULES,
  BASE_PRECISIONS,
  findModel,
  LORA_MODULES,
  MAX_RANK,
  MODEL_PRESETS,
  type BasePrecision,
  type LoraBudgetInput,
  type LoraModule,
} from '@/lib/lora/budget';

export type TargetPreset = 'attention' | 'all' | 'custom';

export interface LoraInputs {
  model: string;
  targets: LoraModule[];
  /** As typed: validated by parseLora. */
  r: string;
  alpha: string;
  rslora: boolean;
  base: BasePrecision;
}

export const DEFAULT_LORA: LoraInputs = {
  model: 'qwen3-0.6b',
  targets: [...ATTENTION_MODULES],
  r: '16',
  alpha: '32',
  rslora: false,
  base: 'bf16',
};

export const BASE_LABELS: Record<BasePrecision, { label: string; note: string }> = {
  bf16: { label: 'bf16', note: '2 bytes per weight' },
  fp32: { label: 'fp32', note: '4 bytes per weight' },
  nf4: { label: '4-bit NF4 (QLoRA)', note: 'block linears at 4.5 bits per weight; embeddings, lm_head, norms in bf16' },
  'nf4-dq': { label: '4-bit NF4, double-quantised', note: 'block linears at ≈ 4.127 bits per weight; embeddings, lm_head, norms in bf16' },
};

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Which of the two named target sets the checkboxes match, if any. */
export function presetOf(targets: readonly LoraModule[]): TargetPreset {
  if (sameSet(targets, ATTENTION_MODULES)) return 'attention';
  if (sameSet(targets, ALL_LINEAR_MODULES)) return 'all';
  return 'custom';
}

export function targetsOf(preset: Exclude<TargetPreset, 'custom'>): LoraModule[] {
  return [...(preset === 'attention' ? ATTENTION_MODULES : ALL_LINEAR_MODULES)];
}

export type LoraField = 'r' | 'alpha' | 'targets';
export type ParsedLora = { ok: true; args: LoraBudgetInput } | { ok: false; errors: Partial<Record<LoraField, string>> };

const WHOLE = /^\s*\d+\s*$/;
const NUMBER = /^\s*(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;
const MAX_ALPHA = 4096;

export function parseLora(inputs: LoraInputs): ParsedLora {
  const errors: Partial<Record<LoraField, string>> = {};
  const r = Number(inputs.r);
  if (!WHOLE.test(inputs.r) || r < 1 || r > MAX_RANK) errors.r = `The rank r is a whole number from 1 to ${MAX_RANK}.`;
  const alpha = Number(inputs.alpha);
  if (!NUMBER.test(inputs.alpha) || !(alpha > 0) || alpha > MAX_ALPHA) errors.alpha = `lora_alpha is a number above 0 and at most ${MAX_ALPHA}.`;
  const targets = LORA_MODULES.filter((m) => inputs.targets.includes(m));
  if (targets.length === 0) errors.targets = 'Tick at least one module to adapt.';
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, args: { model: findModel(inputs.model), targets, r, base: inputs.base, loraAlpha: alpha, useRslora: inputs.rslora } };
}

/** Props from MDX, checked at build time so that a typo fails the build rather than the reader. */
export interface LoraCalculatorProps {
  model?: string;
  r?: number;
  alpha?: number;
  targets?: Exclude<TargetPreset, 'custom'>;
  base?: BasePrecision;
  rslora?: boolean;
}

export function initialInputs(props: LoraCalculatorProps): LoraInputs {
  if (props.model !== undefined && !MODEL_PRESETS.some((m) => m.id === props.model)) findModel(props.model); // throws with the list
  if (props.base !== undefined && !BASE_PRECISIONS.includes(props.base)) throw new Error(`base="${props.base}" is not one of ${BASE_PRECISIONS.join(', ')}`);
  if (props.targets !== undefined && props.targets !== 'attention' && props.targets !== 'all') throw new Error('targets must be "attention" or "all"');
  const inputs: LoraInputs = {
    model: props.model ?? DEFAULT_LORA.model,
    targets: props.targets ? targetsOf(props.targets) : DEFAULT_LORA.targets,
    r: String(props.r ?? DEFAULT_LORA.r),
    alpha: String(props.alpha ?? DEFAULT_LORA.alpha),
    rslora: props.rslora ?? DEFAULT_LORA.rslora,
    base: props.base ?? DEFAULT_LORA.base,
  };
  const parsed = parseLora(inputs);
  if (!parsed.ok) throw new Error(Object.values(parsed.errors).join(' '));
  return inputs;
}
