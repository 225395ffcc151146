/**
 * The self-improvement lab as a TRL project: expert iteration (STaR, Zelikman et al. 2022; ReST-EM, Singh et al. 2023)
 * on GSM8K. Round 0 is SFTTrainer on GSM8K's reference solutions of the short problems; every later round samples
 * num_generations answers to longer problems, keeps those the lab's filter keeps (the verifier, a majority vote, or
 * every finished answer), and runs SFTTrainer again on the kept samples mixed with the demonstrations in the lab's
 * proportion; held-out accuracy at every difficulty after the rounds. TRL has no trainer for the loop, so the loop is
 * a script of its own (self_improve.py) around SFTTrainer.
 *
 * The lab grades additions by how many digit columns they span; GSM8K's counterpart is how many reasoning steps its
 * reference solution takes (its lines before '####': the GSM8K paper's "2 to 8 steps"). So the demonstrations are the
 * short problems' human-written solutions, and the rounds teach the model the longer ones from its own samples.
 *
 * What TRL does that the scripts rely on (TRL's wheel at the pinned release):
 *   - SFTTrainer takes a model already loaded (trl/trainer/sft_trainer.py:972-987: model_init_kwargs are then
 *     ignored), so one model object is fine-tuned round after round and sampled in between.
 *   - A conversational prompt-completion row is tokenized with its own chat_template_kwargs
 *     (sft_trainer.py:1523-1527) and the loss masked to the completion (completion_mask, sft_trainer.py:1553-1561).
 *   - Sampling as GRPOTrainer samples without vLLM: temperature with top_p 1.0 and top_k 0 (grpo_config.py:527-544,
 *     grpo_trainer.py:1126-1141); transformers skips top-k at 0 (transformers/generation/utils.py:1444 at 5.17.0).
 */
import { TRL_VERSION, trlDefaults } from '@/content/trl-defaults';
import { ConfigError, ownEntry, resolve, type FieldValue } from '@/lib/train/config';
import { ACCELERATE_CONFIGS } from './accelerate';
import { batchLayout, LR_WARNING, MICRO_BATCH_CAP, type Kwarg, type Row, type Status } from './mapping';
import { float, py, shortNumber, type Py } from './py';
import { LOOP_SCRIPT, selfImproveEvalPy, selfImprovePy } from './python/self-improve';
import { selfImproveCommonPy, selfImprovePreparePy } from './python/self-improve-common';
import { requirementsTxt } from './readme';
import { selfImproveReadme } from './readme-self-improve';
import { scopeOfRun } from './scope';
import type { ExportBuilder, ExportPlan, ProjectFile } from './types';

type Settings = Readonly<Record<string, FieldValue>>;

export interface SelfImproveOutcome {
  status: Status;
  /** SFTConfig keywords of every round's fine-tuning. */
  sft?: Kwarg[];
  /** A constant of a generated script. */
  constant?: { file: string; name: string; value: Py };
  note: string;
}

export interface SelfImprovePlan extends ExportPlan {
  method: 'self_improve';
  sft: Kwarg[];
  constants: Record<string, { file: string; value: Py }>;
}

type Rule = (value: FieldValue, s: Settings) => SelfImproveOutcome;

const constant = (file: string, name: string, value: Py, note: string, status: Status = 'copied'): SelfImproveOutcome => ({ status, constant: { file, name, value }, note });
const loop = (name: string, value: Py, note: string, status: Status = 'copied') => constant(LOOP_SCRIPT, name, value, note, status);

const SFT_LR = trlDefaults.find((d) => d.config === 'SFTConfig' && d.field === 'learning_rate')!;

const FILTER_NOTE: Record<string, string> = {
  verifier: 'keeps the finished samples whose integer after "####" equals GSM8K’s answer (common.filter_samples, with common.correctness_reward as the verifier).',
  majority:
    'keeps the finished samples whose answer more than half of their problem’s samples give (self-consistency as a label, no verifier); the reference answer is only used to log kept_precision, never to keep.',
  none: 'keeps every finished sample, right or wrong.',
};

/** What each field of the self-improvement lab becomes (a schema field without a rule makes selfImprovePlan throw). */
export const SELF_IMPROVE_RULES: Record<string, Rule> = {
  filter: (v) => loop('FILTER', v as string, FILTER_NOTE[v as string]),
  demo_fraction: (v) =>
    loop(
      'DEMO_FRACTION',
      v as number,
      (v as number) === 1
        ? 'every fine-tuning example is a demonstration (the sft_only baseline): the rounds still sample and log their counts, as the lab’s do, but never train on the samples.'
        : `each fine-tuning batch of a later round holds round(batch × ${shortNumber(1 - (v as number))}) kept samples drawn from every round’s pool and demonstrations for the rest, as the lab mixes them (all demonstrations while the pool is empty).`,
    ),
  num_generations: (v) => loop('NUM_GENERATIONS', v as number, 'samples per problem, TRL’s name for it; each prompt is repeated this many times in a generate call.'),
  num_prompts: (v) => loop('NUM_PROMPTS', v as number, 'problems drawn (without replacement) per round from GSM8K’s train split at the round’s difficulty; fewer where the difficulty has fewer.'),
  temperature: (v) =>
    loop('TEMPERATURE', float(v as number), 'sampling temperature, with top_p 1.0 and top_k 0 as GRPOTrainer samples (not Qwen3’s own top_k 20, top_p 0.95); 0 samples greedily.'),
  demonstration_digits: (v) =>
    constant(
      'common.py',
      'DEMONSTRATION_DIFFICULTY',
      v as number,
      `lab: sums spanning at most ${String(v)} digit columns; here GSM8K problems whose reference solution takes at most ${String(v)} steps (lines before "####") are the demonstrations, drawn uniformly (the lab draws each difficulty equally often; GSM8K has few one-step problems).`,
      'changed',
    ),
  target_digits: (v) =>
    constant(
      'common.py',
      'TARGET_DIFFICULTY',
      v as number,
      `lab: ${String(v)}-column sums, the widest it has; here problems of ${String(v)} or more steps, which no demonstration shows. eval/accuracy_target is the accuracy on them.`,
      'changed',
    ),
  rounds_per_difficulty: (v) => loop('ROUNDS_PER_DIFFICULTY', v as number, 'rounds at each difficulty before the next (common.round_difficulty, the lab’s roundDifficulty).'),
  init_from: (v) => ({
    status: 'none',
    note:
      v === 'base'
        ? 'the lab trains round 0 from an untrained model; the project’s round 0 fine-tunes MODEL, a pretrained instruct model (common.py), on the demonstrations.'
        : 'the lab loads its round 0 (its model after SFT on the demonstrations, trained ahead of time); the project trains round 0 itself, fine-tuning MODEL, a pretrained instruct model (common.py), on the demonstrations.',
  }),
  demo_steps: (v) =>
    loop(
      'DEMO_STEPS',
      v as number,
      `lab: ${String(v)} steps teach a model from scratch the short sums; a pretrained model needs one pass over the demonstrations, more would overfit them, so round 0 runs one pass, at most ${String(v)} steps.`,
      'changed',
    ),
  steps_per_round: (v) => loop('STEPS_PER_ROUND', v as number, 'SFTConfig(max_steps) of every later round.'),
  learning_rate: (v) => {
    const why = `lab: ${shortNumber(v as number)}; ${shortNumber(SFT_LR.value as number)} is TRL’s SFTConfig default (${SFT_LR.file}:${SFT_LR.line} at ${TRL_VERSION}). ${LR_WARNING}`;
    return { status: 'changed', sft: [{ name: 'learning_rate', value: SFT_LR.value as number, comment: why }], note: why };
  },
  per_device_train_batch_size: (v) => {
    const one = batchLayout(v as number, MICRO_BATCH_CAP.sft, 1)!;
    const note = `${String(v)} sequences per optimizer step, as in the lab (one GPU: ${one.micro} per micro-batch × ${one.accumulation} accumulation steps).`;
    return {
      status: 'copied',
      sft: [
        { name: 'per_device_train_batch_size', value: { code: 'PER_DEVICE_BATCH' } },
        { name: 'gradient_accumulation_steps', value: { code: 'ACCUMULATION' }, comment: note },
      ],
      constant: { file: LOOP_SCRIPT, name: 'BATCH_PER_STEP', value: v as number },
      note,
    };
  },
  max_grad_norm: (v) => ({ status: 'copied', sft: [{ name: 'max_grad_norm', value: float(v as number) }], note: 'every round’s fine-tuning.' }),
  max_steps: (v) => loop('ROUNDS', v as number, 'the lab counts rounds, round 0 (the demonstrations) included.'),
  eval_steps: (v) =>
    loop(
      'EVAL_EVERY',
      v as number,
      (v as number) === 0
        ? 'no evaluation between rounds; eval.py (and the loop after its last round) measures held-out accuracy at every difficulty.'
        : `greedy held-out accuracy at every difficulty (eval.evaluate) after ${v === 1 ? 'every round' : `every ${String(v)} rounds and after the last`}, as the lab logs it.`,
    ),
  eval_samples: (v) => constant('common.py', 'EVAL_SAMPLES', v as number, 'held-out problems per difficulty: the first N of GSM8K’s test split at each.'),
  seed: (v) => ({
    status: 'copied',
    sft: [{ name: 'seed', value: v as number }],
    constant: { file: LOOP_SCRIPT, name: 'SEED', value: v as number },
    note: 'TrainingArguments.seed, and the seed of the problems drawn and the samples: the same seed, not the same run.',
  }),
};

function target(o: SelfImproveOutcome): string {
  const parts: string[] = [];
  if (o.sft?.length) parts.push(`SFTConfig(${o.sft.map((k) => `${k.name}=${py(k.value)}`).join(', ')})`);
  if (o.constant) parts.push(`${o.constant.file}: ${o.constant.name} = ${py(o.constant.value)}`);
  return parts.length ? parts.join('; ') : 'no counterpart';
}

/** The mapping of one run; `fields` are the schema's, `settings` complete and valid for it. */
export function selfImprovePlan(fields: readonly string[], settings: Settings): SelfImprovePlan {
  const rows: Row[] = [];
  const sft: Kwarg[] = [];
  const constants: SelfImprovePlan['constants'] = {};
  for (const field of fields) {
    const rule = ownEntry(SELF_IMPROVE_RULES, field);
    // A new lab field must say what it becomes here (tests/unit/export/self-improve.test.ts checks every schema field).
    if (!rule) throw new Error(`lib/export/self-improve.ts has no rule for the self_improve field ${field}`);
    if (!Object.hasOwn(settings, field)) throw new ConfigError([`${field} is missing from the self_improve settings`]);
    const o = rule(settings[field], settings);
    rows.push({ field, value: settings[field], status: o.status, target: target(o), note: o.note });
    sft.push(...(o.sft ?? []));
    if (o.constant) constants[o.constant.name] = { file: o.constant.file, value: o.constant.value };
  }
  const extra = Object.keys(settings).find((k) => !fields.includes(k));
  if (extra !== undefined) throw new ConfigError([`unknown field "${extra}" for self_improve`]);
  // The lab's trainer refuses the same (lib/train/self-improve-trainer.ts): the target is what no demonstration shows.
  if ((settings.demonstration_digits as number) >= (settings.target_digits as number)) {
    throw new ConfigError([`demonstration_digits (${String(settings.demonstration_digits)}) must be below target_digits (${String(settings.target_digits)})`]);
  }
  const warnings: string[] = [];
  if (settings.filter === 'majority') {
    warnings.push('No verifier: this run keeps the answers most of a problem’s samples agree on, and trains on them even where the majority is wrong. rounds.jsonl logs kept_precision and kept_wrong (measured with GSM8K’s answers, which never decide what is kept): watch how many wrong answers the model learns.');
  }
  if (settings.filter === 'none') warnings.push('No filter: every finished sample is kept, wrong answers included. This is the lab’s control for what filtering adds; do not expect accuracy to rise.');
  if (settings.demo_fraction === 1) warnings.push('The sft_only baseline: every round fine-tunes on the demonstrations alone. The rounds still sample (rounds.jsonl logs sample_accuracy), but nothing sampled is trained on.');
  return { method: 'self_improve', rows, sft, constants, warnings };
}

/** Every file of the self-improvement project, in a fixed order; the same settings give the same bytes. */
export const buildSelfImproveProject: ExportBuilder = (lab, settings, preset, customReward) => {
  if (customReward) throw new ConfigError(['the self-improvement export takes no reward function: what it keeps is decided by the lab’s filter (verifier, majority or none)']);
  const chosen = ownEntry(lab.presets, preset);
  if (!chosen) throw new ConfigError([`unknown preset "${preset.slice(0, 40)}" for ${lab.trainer} (known: ${Object.keys(lab.presets).join(', ')})`]);
  const plan = selfImprovePlan(Object.keys(lab.schema), settings);
  const base = resolve(lab.schema, { ...chosen.overrides }) as Record<string, FieldValue>;
  const changed = Object.keys(settings)
    .filter((k) => settings[k] !== base[k])
    .map((k) => `${k}=${String(settings[k])}`);
  const name = `trl-${lab.trainer}-${preset.replace(/[^a-z0-9_-]/gi, '_')}`;
  const files: ProjectFile[] = [
    { path: 'README.md', text: selfImproveReadme(plan, { name, title: lab.summary, preset, changed, scope: scopeOfRun(lab, settings) }) },
    { path: 'requirements.txt', text: requirementsTxt() },
    { path: 'common.py', text: selfImproveCommonPy(plan, preset) },
    { path: 'prepare_data.py', text: selfImprovePreparePy() },
    { path: LOOP_SCRIPT, text: selfImprovePy(plan) },
    { path: 'eval.py', text: selfImproveEvalPy() },
    ...ACCELERATE_CONFIGS.map((c) => ({ path: c.path, text: c.text })),
    { path: 'lab-run.json', text: `${JSON.stringify({ exported_from: 'Agentic RL Lab', trl: TRL_VERSION, trainer: lab.trainer, preset, settings }, null, 2)}\n` },
  ];
  return { name, plan, files };
};
