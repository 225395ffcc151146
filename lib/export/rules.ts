/**
 * How an exporter maps a lab's fields to TRL: each field has a Rule that says what its value becomes (an Outcome:
 * keywords of the project's TRL configs, LoraConfig keywords, a reward weight, a script constant, a data file, or no
 * counterpart with the reason), and mapFields turns a run's settings into the mapping table's rows and what each
 * generated file receives. The helpers here are the outcomes several exporters share (the GSM8K rules in mapping.ts,
 * the vision rules in vision.ts).
 */
import { TRL_VERSION, trlDefaults, type TrlConfig } from '@/content/trl-defaults';
import { ConfigError, ownEntry, type FieldValue, type Schema } from '@/lib/train/config';
import { code, float, py, shortNumber, type Py } from './py';

/** The TRL config classes a project's scripts build. */
export type ConfigClass = 'SFTConfig' | 'GRPOConfig' | 'DPOConfig';

/** Reward functions of the generated common.py (the lab's, in Python with TRL's signature). */
export type RewardName = 'correctness_reward' | 'at_least_reward' | 'digits_reward' | 'format_reward' | 'length_penalty' | 'soft_overlong_punishment' | 'tool_cost_reward' | 'custom_reward';

export interface Kwarg {
  name: string;
  value: Py;
  /** A comment written above the keyword (why it differs from the lab, or what it means). */
  comment?: string;
}

export type Status = 'copied' | 'changed' | 'none';

export interface Outcome {
  status: Status;
  /** Keywords of the project's main TRL config (mapping.ts CONFIG_OF) this field becomes. */
  config?: Kwarg[];
  /**
   * SFTConfig keywords of an SFT phase that is part of the lab run itself (the vision lab counts its SFT steps in
   * max_steps). The GSM8K projects' SFT stage only teaches the format, with TRL's usual values, so their rules leave it out.
   */
  sft?: Kwarg[];
  /** peft.LoraConfig keywords. */
  lora?: Kwarg[];
  reward?: { fn: RewardName; weight: number };
  /** A constant of a generated script. */
  constant?: { file: string; name: string; value: Py };
  /** A data file the export writes the field into, where it is no keyword or constant (the vision lab's scenes). */
  data?: string;
  /** Why (for 'changed' and 'none'), or what to know (for 'copied'). */
  note: string;
}

/** One line of the mapping table (the export dialog and the README). */
export interface Row {
  field: string;
  value: FieldValue;
  status: Status;
  /** What it became, in Python: `GRPOConfig(learning_rate=1e-06)`, `LoraConfig(r=16)`, `reward_weights[0]`, or '—'. */
  target: string;
  note: string;
}

export type Settings = Readonly<Record<string, FieldValue>>;
/** What one lab field becomes, given its value and the run's other settings. */
export type Rule = (value: FieldValue, s: Settings) => Outcome;

/** TRL's default from content/trl-defaults.ts, with its file:line for the comment. */
function trlDefault(config: TrlConfig, field: string): { value: number; where: string } {
  const d = trlDefaults.find((x) => x.config === config && x.field === field);
  if (!d || typeof d.value !== 'number') throw new Error(`content/trl-defaults.ts has no numeric ${config}.${field}`);
  return { value: d.value, where: `${d.file}:${d.line} at ${TRL_VERSION}` };
}

/** Why a learning rate is replaced, for a pretrained model of `size` parameters ("~0.6B"), quoted wherever one is. */
export const lrWarning = (size: string) =>
  `The lab’s rate suits a 27k-parameter model; a pretrained ${size} model needs rates hundreds of times smaller (TRL’s GRPO default is 1e-6), and larger ones can undo what pretraining taught it.`;

/** LoRA trains ~10× higher than full fine-tuning (TRL's docs/source/lora_without_regret.md: 2e-4 in its SFT example). */
const LORA_SFT_LR = { value: 2e-4, where: 'docs/source/lora_without_regret.md:47 at v1.9.0 (the docs are not in the release’s wheel)' };

/** The largest divisor of `total` that is ≤ cap: the micro-batch, so that micro × accumulation = total exactly. */
export function microBatch(total: number, cap: number): number {
  for (let d = Math.min(total, cap); d > 1; d--) if (total % d === 0) return d;
  return 1;
}

/**
 * A learning rate for the real model: TRL's default for `config` (LoRA's usual rate for LoRA SFT), the lab's rate
 * named in the comment. `labModel` and `realModel` say what the two rates suit ("a ~30k-parameter model", "~0.6B");
 * with the lab's default rate given, a run that scaled it is told what the same multiple would be here.
 */
export function learningRate(config: ConfigClass, lab: number, about: { labModel: string; realModel: string; labDefault?: number; lora?: boolean }): Outcome {
  const lora = config === 'SFTConfig' && about.lora === true;
  const real = lora ? LORA_SFT_LR : trlDefault(config, 'learning_rate');
  const ratio = about.labDefault === undefined ? 1 : lab / about.labDefault;
  const multiple =
    Math.abs(ratio - 1) > 1e-9
      ? ` The run used ${shortNumber(+ratio.toPrecision(3))}× the lab’s default (${shortNumber(about.labDefault!)}); the same multiple here would be ${shortNumber(+(real.value * ratio).toPrecision(3))}.`
      : '';
  const why = `lab: ${shortNumber(lab)}, right for ${about.labModel}; ${shortNumber(real.value)} is ${lora ? 'LoRA’s usual rate' : 'TRL’s default'} (${real.where}). ${lrWarning(about.realModel)}${multiple}`;
  return {
    status: lab === real.value ? 'copied' : 'changed',
    config: [{ name: 'learning_rate', value: real.value, comment: why }],
    note: why,
  };
}

/** The field becomes one keyword of the project's TRL config, with the lab's value. */
export const copied = (name: string, value: Py, note = ''): Outcome => ({ status: 'copied', config: [{ name, value }], note });
/** Nothing in TRL corresponds to the field; the note says why. */
export const none = (note: string): Outcome => ({ status: 'none', note });
/** The outcome's keywords go to the run's own SFT phase (SFTConfig) instead of the project's main config. */
export const inSftPhase = (o: Outcome): Outcome => ({ ...o, config: undefined, sft: o.config });
/** The outcome's keywords go to both phases of a run that has an SFT phase of its own (the vision lab). */
export const inBothPhases = (o: Outcome): Outcome => ({ ...o, sft: o.config });

/**
 * The lab's examples per optimizer step spread over `processes` processes: each process's micro-batch and its
 * accumulation steps, so that micro × processes × accumulation = total. The exported common.batch_layout computes the
 * same at run time from WORLD_SIZE; null where `total` does not split evenly (the script stops and says so).
 */
export function batchLayout(total: number, cap: number, processes: number): { micro: number; accumulation: number } | null {
  if (!Number.isInteger(processes) || processes < 1 || total % processes !== 0) return null;
  const share = total / processes;
  const micro = microBatch(share, cap);
  return { micro, accumulation: share / micro };
}

/**
 * The run's batch: the same number of examples per optimizer step on any number of GPUs. The script reads how many
 * processes accelerate started and splits the batch itself (common.batch_layout): a fixed accumulation would multiply
 * the batch by the number of GPUs, and for GRPO also change how many optimizer steps each generation feeds. `constant`
 * names the script constant that holds the batch; `note` says it in words, given the layout on one GPU.
 */
export function batchOutcome(total: number, cap: number, constant: { file: string; name: string }, note: (oneGpu: { micro: number; accumulation: number }) => string): Outcome {
  const why = note(batchLayout(total, cap, 1)!);
  return {
    status: 'copied',
    config: [
      { name: 'per_device_train_batch_size', value: code('PER_DEVICE_BATCH') },
      { name: 'gradient_accumulation_steps', value: code('ACCUMULATION'), comment: why },
    ],
    constant: { ...constant, value: total },
    note: why,
  };
}

/**
 * How mapFields writes a value in the table's "in TRL" column. The GSM8K table has always written JSON literals
 * (`use_peft=true`, `learning_rate=0.000001`), the vision table Python ones (`True`, `1e-6`); each keeps its own so that
 * an export's bytes do not change with this shared code.
 */
export type Literal = (value: Py) => string;
export const jsonLiteral: Literal = (v) => (typeof v === 'object' && v !== null && 'code' in v ? (v as { code: string }).code : JSON.stringify(v));
export const pythonLiteral: Literal = py;

function target(configClass: ConfigClass, o: Outcome, literal: Literal): string {
  const parts: string[] = [];
  const kw = (k: Kwarg) => `${k.name}=${literal(k.value)}`;
  if (o.sft?.length) parts.push(`SFTConfig(${o.sft.map(kw).join(', ')})`);
  if (o.config?.length) parts.push(`${configClass}(${o.config.map(kw).join(', ')})`);
  if (o.lora?.length) parts.push(`LoraConfig(${o.lora.map(kw).join(', ')})`);
  if (o.reward) parts.push(`${o.reward.fn} × ${o.reward.weight} in reward_weights`);
  if (o.constant) parts.push(`${o.constant.file}: ${o.constant.name} = ${literal(o.constant.value)}`);
  if (o.data) parts.push(o.data);
  return parts.length ? parts.join('; ') : o.status === 'none' ? 'no counterpart' : '—';
}

/** Every field's outcome gathered: the table's rows, and what each generated file receives. */
export interface FieldMapping {
  rows: Row[];
  /** Keywords of the project's TRL config, in the order of the rows. */
  config: Kwarg[];
  /** SFTConfig keywords of the run's own SFT phase (Outcome.sft). */
  sft: Kwarg[];
  lora: Kwarg[];
  /** Reward functions with a weight above 0, in the order of the rows. */
  rewards: { fn: RewardName; weight: number }[];
  constants: Record<string, { file: string; value: Py }>;
}

/**
 * Maps a run's settings (complete and valid for `schema`) field by field with `rules`. `lab` names the trainer in
 * errors; `configClass` is what the table calls the project's main config. A field TRL types as float is written as
 * one (temperature=1.0, not 1) wherever the keyword has the field's name.
 */
export function mapFields(
  lab: string,
  schema: Schema,
  rules: Readonly<Record<string, Rule>>,
  settings: Settings,
  configClass: ConfigClass,
  literal: Literal = jsonLiteral,
): FieldMapping {
  const fields = Object.keys(schema);
  const out: FieldMapping = { rows: [], config: [], sft: [], lora: [], rewards: [], constants: {} };
  for (const field of fields) {
    const rule = ownEntry(rules, field);
    // A new lab field must say what it becomes in TRL (tests/unit/export check every schema field).
    if (!rule) throw new Error(`lib/export has no rule for the ${lab} field ${field}`);
    if (!Object.hasOwn(settings, field)) throw new ConfigError([`${field} is missing from the ${lab} settings`]);
    const o = rule(settings[field], settings);
    const schemaField = schema[field];
    const floats = (k: Kwarg): Kwarg => (k.name === field && schemaField.kind === 'number' && !schemaField.integer && typeof k.value === 'number' ? { ...k, value: float(k.value) } : k);
    out.rows.push({ field, value: settings[field], status: o.status, target: target(configClass, o, literal), note: o.note });
    out.config.push(...(o.config ?? []).map(floats));
    out.sft.push(...(o.sft ?? []).map(floats));
    out.lora.push(...(o.lora ?? []));
    if (o.reward && o.reward.weight > 0) out.rewards.push(o.reward);
    if (o.constant) out.constants[o.constant.name] = { file: o.constant.file, value: o.constant.value };
  }
  const extra = Object.keys(settings).find((k) => !fields.includes(k));
  if (extra !== undefined) throw new ConfigError([`unknown field "${extra}" for ${lab}`]);
  return out;
}
