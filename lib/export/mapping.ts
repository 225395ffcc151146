/**
 * Every field of every exportable lab config, mapped to what it becomes in a real TRL run: a keyword of the method's
 * TRL config (copied, or changed to a value right for a 0.6B model, with the reason), a peft.LoraConfig field, a
 * reward weight, a constant of the generated scripts, or "no counterpart" with the reason. A schema field without a rule
 * makes exportPlan throw and tests/unit/export fail; tests check every kwarg against the field lists extracted from
 * TRL's source (trl-fields.json).
 *
 * The rules are written with rules.ts's machinery, which the vision project's rules (vision.ts) share.
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import { agentSchema } from '@/lib/train/agent-config';
import { ConfigError, type FieldValue, type Schema } from '@/lib/train/config';
import { dpoSchema } from '@/lib/train/dpo-config';
import { grpoSchema } from '@/lib/train/grpo-config';
import { sftSchema } from '@/lib/train/sft-config';
import { portedEquivalent, type CustomRewardExport } from './custom-reward';
import { usesEnvironment } from './scope';
import { code, float, shortNumber, type Py } from './py';
import { batchLayout, batchOutcome, copied, learningRate, lrWarning, mapFields, none, type ConfigClass, type Kwarg, type Outcome, type RewardName, type Row, type Rule, type Settings } from './rules';

// The machinery's names, where the GSM8K exporter's users and tests have always found them.
export { batchLayout, copied, microBatch, none, type ConfigClass, type Kwarg, type Outcome, type RewardName, type Row, type Rule, type Settings, type Status } from './rules';

export type ExportMethod = 'sft' | 'grpo' | 'dpo' | 'agent';
export const EXPORT_METHODS: readonly ExportMethod[] = ['sft', 'grpo', 'dpo', 'agent'];

/** The lab schemas the GSM8K rules below are written for (each trainer's own config file, not the registry above lib/export). */
const SCHEMAS: Record<ExportMethod, Schema> = { sft: sftSchema, grpo: grpoSchema, dpo: dpoSchema, agent: agentSchema };

/** The TRL config each project's lab run builds: for vision, its GRPO phase (its SFT phase's keywords are Outcome.sft). */
export const CONFIG_OF: Record<ExportMethod | 'vision', ConfigClass> = { sft: 'SFTConfig', grpo: 'GRPOConfig', dpo: 'DPOConfig', agent: 'GRPOConfig', vision: 'GRPOConfig' };

// ---- Values for the real model, each with its source ------------------------------------------------------------

/** Why a learning rate is replaced, quoted wherever one is. */
export const LR_WARNING = lrWarning('~0.6B');

/** Completion budgets for GSM8K: solutions run ~100–300 tokens; tool calls and results count too (grpo_trainer.py:2202). */
export const REAL_MAX_COMPLETION = { grpo: 512, agent: 768 } as const;
/** SFTConfig/DPOConfig max_length: TRL's default 1024 holds any GSM8K prompt with its solution. */
export const REAL_MAX_LENGTH = 1024;
/** Per-GPU micro-batch caps that fit a 0.6B model at these lengths on a 24 GB GPU (see the README's hardware table). */
export const MICRO_BATCH_CAP = { sft: 8, grpo: 8, dpo: 4, agent: 8 } as const;
/** GSM8K needs several calculations per problem; the lab's products need one. */
const REAL_TOOL_ITERATIONS = 8;

/** The GSM8K projects' rate: their lab's model is the ~30k-parameter TinyLM, the real one Qwen3-0.6B. */
const gsm8kRate = (method: ExportMethod, lab: number, labDefault: number, lora = false) =>
  learningRate(CONFIG_OF[method], lab, { labModel: 'a ~30k-parameter model', realModel: '~0.6B', labDefault, lora });

/** The script that trains each method's own config (where the run's batch constant goes). */
const TRAIN_SCRIPT: Record<ExportMethod, string> = { sft: 'train_sft.py', grpo: 'train_grpo.py', dpo: 'train_dpo.py', agent: 'train_agent.py' };

function batch(method: ExportMethod, total: number, unit: string): Outcome {
  return batchOutcome(
    total,
    MICRO_BATCH_CAP[method],
    { file: TRAIN_SCRIPT[method], name: 'BATCH_PER_STEP' },
    (one) => `${total} ${unit} per optimizer step, as in the lab, on any number of GPUs: batch_layout (common.py) splits them over the processes (one GPU: ${one.micro} per micro-batch × ${one.accumulation} accumulation steps).`,
  );
}

function evalSteps(value: FieldValue, what: string): Outcome {
  const n = value as number;
  if (n === 0) return { status: 'copied', config: [{ name: 'eval_strategy', value: 'no' }], note: 'no evaluation during training, as in the lab; eval.py measures accuracy afterwards.' };
  return {
    status: 'copied',
    config: [
      { name: 'eval_strategy', value: 'steps' },
      { name: 'eval_steps', value: n },
    ],
    note: `TRL evaluates ${what} on the held-out prompts every ${n} steps; held-out accuracy itself comes from eval.py.`,
  };
}

const evalSamples = (value: FieldValue): Outcome => ({
  status: 'copied',
  constant: { file: 'common.py', name: 'EVAL_SAMPLES', value: value as number },
  note: 'the first N problems of GSM8K’s test split: the eval set during training (eval.py scores the whole split).',
});

const maxSteps = (value: FieldValue): Outcome => copied('max_steps', value as number, 'copied; a full run on GSM8K usually trains longer (raise it once the short run looks healthy).');
const seed = (value: FieldValue): Outcome => copied('seed', value as number, 'TrainingArguments.seed: the same seed, not the same run (different model, data and kernels).');
const maxGradNorm = (value: FieldValue): Outcome => copied('max_grad_norm', value as number);

// ---- SFT ---------------------------------------------------------------------------------------------------------

const QWEN_TARGETS: Record<string, Py> = {
  'all-linear': 'all-linear',
  attention: ['q_proj', 'k_proj', 'v_proj', 'o_proj'],
  mlp: ['gate_proj', 'up_proj', 'down_proj'],
};

/** A LoRA field: a LoraConfig keyword while use_peft is on, unused otherwise. */
const loraField =
  (name: string, map: (v: FieldValue) => Py = (v) => v as Py, note = ''): Rule =>
  (value, s) =>
    s.use_peft ? { status: 'copied', lora: [{ name, value: map(value) }], note } : none('use_peft is off: full fine-tuning, no LoraConfig.');

export const SFT_RULES = {
  learning_rate: (v, s) => gsm8kRate('sft', v as number, 3e-3, s.use_peft === true),
  per_device_train_batch_size: (v) => batch('sft', v as number, 'sequences'),
  max_steps: maxSteps,
  max_grad_norm: maxGradNorm,
  eval_steps: (v) => evalSteps(v, 'the loss'),
  eval_samples: evalSamples,
  use_peft: (v) =>
    v ? { status: 'copied', note: 'SFTTrainer(peft_config=LoraConfig(...)): only the adapters train.' } : { status: 'copied', note: 'full fine-tuning: peft_config=None.' },
  r: loraField('r'),
  lora_alpha: loraField('lora_alpha'),
  lora_dropout: loraField('lora_dropout', (v) => float(v as number)),
  use_rslora: loraField('use_rslora'),
  target_modules: loraField('target_modules', (v) => QWEN_TARGETS[v as string], 'Qwen3’s module names: q/k/v/o_proj (attention), gate/up/down_proj (MLP).'),
  dataset: (v) => none(`the lab’s ${String(v)} task has no counterpart: the project trains on GSM8K, whose solutions end with "#### <number>" as the lab’s do.`),
  replay_fraction: (v) =>
    none(
      (v as number) > 0
        ? `the project trains on GSM8K alone; to replay an old task, mix its data in with datasets.interleave_datasets(probabilities=[${shortNumber(1 - (v as number))}, ${shortNumber(v as number)}]).`
        : 'no replay in the lab run; the project trains on GSM8K alone.',
    ),
  init_from: (v) => none(`the lab starts from its ${String(v)} checkpoint; the project starts from MODEL, a pretrained instruct model (common.py).`),
  seed,
} satisfies Record<string, Rule>;

// ---- GRPO (and the agent's GRPO fields) --------------------------------------------------------------------------

function grpoRules(method: 'grpo' | 'agent', labLr: number) {
  return {
    learning_rate: (v: FieldValue) => gsm8kRate(method, v as number, labLr),
    per_device_train_batch_size: (v: FieldValue) => batch(method, v as number, 'completions'),
    num_generations: (v: FieldValue) => copied('num_generations', v as number),
    max_completion_length: (v: FieldValue) => {
      const real = REAL_MAX_COMPLETION[method];
      const why = `lab: ${String(v)} tokens (its longest answer${method === 'agent' ? ' with one call' : ''}); GSM8K solutions run to a few hundred tokens${method === 'agent' ? ', and tool calls and their results count towards the limit' : ''}.`;
      return { status: 'changed', config: [{ name: 'max_completion_length', value: real, comment: why }], note: why } satisfies Outcome;
    },
    temperature: (v: FieldValue) => copied('temperature', v as number),
    beta: (v: FieldValue): Outcome => {
      const note = (v as number) > 0 ? 'β > 0 loads a reference model (more memory).' : '';
      return {
        status: 'copied',
        config: [
          { name: 'beta', value: v as number },
          {
            name: 'use_bias_correction_kl',
            value: false,
            comment: `The lab’s KL term is k3 alone, with no importance-ratio weight. TRL now multiplies it by the ratio by default (use_bias_correction_kl=True: trl/trainer/grpo_config.py:967, grpo_trainer.py:3197 at ${TRL_VERSION}; earlier releases defaulted to False), which changes the KL gradient whenever beta > 0, even on-policy: so the lab’s choice is passed.`,
          },
        ],
        note,
      };
    },
    epsilon: (v: FieldValue) => copied('epsilon', v as number),
    epsilon_high: (v: FieldValue) => copied('epsilon_high', v as number),
    loss_type: (v: FieldValue) => copied('loss_type', v as string),
    scale_rewards: (v: FieldValue) => copied('scale_rewards', v as string),
    importance_sampling_level: (v: FieldValue) => copied('importance_sampling_level', v as string),
    num_iterations: (v: FieldValue) => copied('num_iterations', v as number),
    steps_per_generation: (v: FieldValue, s: Settings) => {
      const one = batchLayout(s.per_device_train_batch_size as number, MICRO_BATCH_CAP[method], 1)!;
      const note = `the lab counts optimizer steps per generation batch (${String(v)}); TRL generates every steps_per_generation micro-steps of each process, so ${String(v)} × ACCUMULATION (${String(v)} × ${one.accumulation} = ${(v as number) * one.accumulation} on one GPU): one generation feeds ${String(v)} optimizer step${v === 1 ? '' : 's'} on any number of GPUs.`;
      return { status: 'copied', config: [{ name: 'steps_per_generation', value: code(`${String(v)} * ACCUMULATION`), comment: note }], note } satisfies Outcome;
    },
    reward_weight_correctness: (v: FieldValue, s: Settings): Outcome => {
      if ((v as number) === 0) return none('weight 0 in the run: correctness is not rewarded.');
      const fn: RewardName = s.correctness_reward === 'at_least' ? 'at_least_reward' : s.correctness_reward === 'digits' ? 'digits_reward' : 'correctness_reward';
      return { status: 'copied', reward: { fn, weight: v as number }, note: fn === 'correctness_reward' ? '' : `the weight of the flawed verifier ${fn} (see correctness_reward).` } satisfies Outcome;
    },
    reward_weight_format: (v: FieldValue): Outcome =>
      (v as number) === 0 ? none('weight 0 in the run: the format is not rewarded.') : { status: 'copied', reward: { fn: 'format_reward', weight: v as number }, note: 'the lab’s format check; any whitespace may precede "####" (GSM8K puts the answer on its own line).' },
    max_grad_norm: maxGradNorm,
    max_steps: maxSteps,
    eval_steps: (v: FieldValue) => evalSteps(v, 'the rewards'),
    eval_samples: evalSamples,
    seed,
  };
}

const grpoOnly = grpoRules('grpo', 3e-4);
export const GRPO_RULES = {
  ...grpoOnly,
  mask_truncated_completions: (v) => copied('mask_truncated_completions', v as boolean, 'the lab also scores a truncated completion’s format 0; TRL does not tell reward functions about truncation, this flag drops such completions from the loss.'),
  reward_weight_overlong: (v, s) => {
    if ((v as number) === 0) return none('weight 0 in the run: the soft overlong punishment is not used.');
    return { status: 'copied', reward: { fn: 'soft_overlong_punishment', weight: v as number }, note: `TRL’s own get_soft_overlong_punishment (trl/rewards/other_rewards.py:83 at ${TRL_VERSION}), with the cache rescaled below.` };
  },
  soft_punish_cache: (v, s) => {
    const real = softPunishCache(v as number, s.max_completion_length as number);
    const why = `lab: ${String(v)} of ${String(s.max_completion_length)} tokens; the same share of ${REAL_MAX_COMPLETION.grpo} is ${real}.`;
    if ((s.reward_weight_overlong as number) === 0) return none('weight 0 in the run: the soft overlong punishment is not used.');
    return { status: 'changed', constant: { file: 'train_grpo.py', name: 'SOFT_PUNISH_CACHE', value: real }, note: why };
  },
  dynamic_sampling: (v) =>
    none(v ? 'DAPO’s dynamic sampling is not in TRL’s GRPOTrainer: the run used it, the project cannot. Groups whose completions all score the same give no gradient (watch frac_reward_zero_std).' : 'off in the run; not in TRL’s GRPOTrainer either.'),
  dynamic_sampling_max_rounds: () => none('belongs to dynamic sampling, which TRL’s GRPOTrainer does not have.'),
  reward_weight_length: (v) =>
    (v as number) === 0 ? none('weight 0 in the run: the length penalty is not used.') : { status: 'copied', reward: { fn: 'length_penalty', weight: v as number }, note: 'the lab’s length penalty, against the reference solution’s length.' },
  correctness_reward: (v) => {
    if (v === 'exact') return { status: 'copied', note: 'correctness_reward: exact match of the integer after "####", as in the lab.' };
    return {
      status: 'copied',
      note: `DELIBERATELY FLAWED: the run rewards with the ${v === 'at_least' ? '">=" bug (at_least_reward)' : 'digits-anywhere bug (digits_reward)'}, and so does the project, loudly labelled; the true correctness_reward is logged beside it at weight 0, so you can watch the two diverge.`,
    };
  },
} satisfies Record<string, Rule>;

/** The soft overlong cache, rescaled from the lab's completion budget to the real one (at least 1 token). */
export function softPunishCache(lab: number, labMax: number): number {
  return Math.max(1, Math.round((lab / labMax) * REAL_MAX_COMPLETION.grpo));
}

// ---- Agent -------------------------------------------------------------------------------------------------------

const agentGrpo = grpoRules('agent', 3e-4);

// Whether the run's episodes need AgentEnvironment: scope.ts decides it, for the statement the lab shows before export.
export { usesEnvironment };
export const AGENT_RULES = {
  ...agentGrpo,
  use_tools: (v, s) =>
    v
      ? {
          status: 'copied',
          constant: { file: 'common.py', name: 'USE_TOOLS', value: true },
          note:
            s.task === 'memory'
              ? 'the run’s tool was a memory store ([b=52] … [b]); the project keeps the calculator, which GSM8K needs and train_sft.py teaches, and adds the memory tool as AgentEnvironment’s remember and recall (see task).'
              : usesEnvironment(s)
                ? 'the calculator is a method of AgentEnvironment (common.py), which GRPOTrainer(environment_factory=...) offers the model as a tool, beside the lab’s other episode rules.'
                : 'GRPOTrainer(tools=[calculator]): the calculator is a Python function the model calls.',
        }
      : { status: 'copied', constant: { file: 'common.py', name: 'USE_TOOLS', value: false }, note: 'no tools, as in the run (the ceiling without a calculator).' },
  max_tool_calling_iterations: (v, s) => {
    if (!s.use_tools) return none('no tools in the run.');
    const why = `lab: ${String(v)} (one call solves a product); a GSM8K solution needs several calculations.`;
    return { status: 'changed', config: [{ name: 'max_tool_calling_iterations', value: REAL_TOOL_ITERATIONS, comment: why }], note: why };
  },
  reward_weight_tool_cost: (v) =>
    (v as number) === 0
      ? none('weight 0 in the run: calls are free, as TRL’s tools are.')
      : { status: 'copied', reward: { fn: 'tool_cost_reward', weight: v as number }, note: 'tool_cost_reward is −(number of calls); its weight is the price of a call.' },
  task: (v, s) => {
    if (v !== 'memory') return none(`the lab’s ${v === 'two_step' ? 'two-step problems (two calls, the second using the first’s result)' : 'products (one call each)'} have no counterpart: the project trains on GSM8K word problems, which take several calculations each.`);
    const window = `The lab’s 12-token sliding window has no counterpart: TRL’s tool loop keeps the whole conversation in the model’s context, and only a rollout_func, which takes over generation (trl/trainer/grpo_trainer.py:258-265 at ${TRL_VERSION}), could drop old turns.`;
    if (!s.use_tools) return none(`the lab’s memory facts with the memory tool off (every read "=?"): the project trains on GSM8K word problems without tools. ${window}`);
    return {
      status: 'changed',
      constant: { file: 'common.py', name: 'MEMORY_TOOL', value: true },
      note: `the lab’s memory tool is AgentEnvironment’s remember(key, value) and recall(key) (common.py), given to the model through GRPOTrainer(environment_factory=...) (grpo_trainer.py:266-282 at ${TRL_VERSION}): one store per rollout, emptied by reset; a write gets no reply, a read the value last stored or "?" for a key never stored, as in the lab. Changed: the problems are GSM8K’s, not the lab’s facts, distractors and question. ${window} Nothing forces the model to use the memory, so expect it to use it little.`,
    };
  },
  answer_attempts: (v) =>
    (v as number) === 1
      ? none('one answer per episode, as GRPOTrainer scores it.')
      : {
          status: 'changed',
          constant: { file: 'common.py', name: 'ANSWER_ATTEMPTS', value: v as number },
          note: `the lab’s reflection, in AgentEnvironment (common.py; GRPOTrainer(environment_factory=...), trl/trainer/grpo_trainer.py:266-282 at ${TRL_VERSION}): the model answers with submit_answer; a wrong answer with tries left gets "?", never the right value, and the model tries again in TRL’s tool loop; a right answer or the last try ends the tries, with the same reply either way (no verdict). The rewards score the last try: scored_as_in_lab reads it from the environment, which TRL passes to every reward function (grpo_trainer.py:1654-1655). Changed: the lab’s policy answers by ending its turn, and the environment replies after its EOS; TRL continues a rollout only after a tool call (_tool_call_loop, grpo_trainer.py:1985-2222), so here an answer is a tool call, which counts towards max_tool_calling_iterations but costs nothing (tool_cost counts calculator calls, as the lab does). reset appends how to answer to the question (grpo_trainer.py:2407-2420); train_sft.py does not demonstrate submit_answer, and eval.py scores one try.`,
        },
  tool_after_verdict: (v) =>
    v === false
      ? none('the calculator answers from the first try, as TRL’s tools do.')
      : {
          status: 'changed',
          constant: { file: 'common.py', name: 'TOOL_AFTER_VERDICT', value: true },
          note: `AgentEnvironment’s calculator (common.py; GRPOTrainer(environment_factory=...), trl/trainer/grpo_trainer.py:266-282 at ${TRL_VERSION}) refuses every call until submit_answer has been told "?", so a first answer is from memory, as in the lab. Changed: the lab’s calculator stays silent before the verdict; TRL answers every tool call, so a refused call gets {"error": ...} (grpo_trainer.py:2027-2029) and counts as a call for tool_cost_reward. The lab’s own checkpoint for this rule (agent_reflect_feedback_sft, whose second tries sometimes call) has no counterpart: train_sft.py demonstrates neither submit_answer nor a call after "?".`,
        },
  tool_failure_rate: (v, s) =>
    (v as number) === 0
      ? { status: 'copied', constant: { file: 'common.py', name: 'TOOL_FAILURE_RATE', value: 0 }, note: 'the calculator never fails, as in the run.' }
      : s.use_tools
        ? {
            status: 'changed',
            constant: { file: 'common.py', name: 'TOOL_FAILURE_RATE', value: v as number },
            note: `in training, AgentEnvironment’s calculator (common.py; GRPOTrainer(environment_factory=...), trl/trainer/grpo_trainer.py:266-282 at ${TRL_VERSION}) fails at this rate by the lab’s seeded rule (call_fails: a hash of a salt and the episode’s calls so far, as lib/tasks/agent.ts randomCallFailures draws them), so a retry draws again; TRL answers the model with {"error": ...} (grpo_trainer.py:2027-2029). Changed: the lab’s salt names the generation batch, which TRL does not tell an environment, so each instance counts its own episodes; and eval.py’s calculator fails with random.random() at the same rate, where the lab evaluates with a fixed salt.`,
          }
        : {
            status: 'copied',
            constant: { file: 'common.py', name: 'TOOL_FAILURE_RATE', value: v as number },
            note: 'the calculator raises at random with this probability, in training and in eval.py as in the lab; TRL answers the model with {"error": ...} (grpo_trainer.py:2027-2029).',
          },
  train_on_tool_results: (v) =>
    none(
      v
        ? `the run trains on the calculator’s tokens (the masking bug); TRL’s GRPOTrainer always masks tool results out of the loss (tool_mask, grpo_trainer.py:2519 at ${TRL_VERSION}), so the bug cannot be reproduced there.`
        : `TRL masks tool results out of the loss by itself (tool_mask, grpo_trainer.py:2519 at ${TRL_VERSION}), as the run did.`,
    ),
  init_from: (v) =>
    v === 'base'
      ? { status: 'copied', constant: { file: 'train_agent.py', name: 'START_FROM', value: code('MODEL') }, note: 'the run skipped SFT: train_agent.py starts from MODEL (skip train_sft.py).' }
      : { status: 'copied', constant: { file: 'train_agent.py', name: 'START_FROM', value: 'outputs/sft' }, note: 'the run started from tool-use SFT: train_sft.py first, then train_agent.py from its output.' },
} satisfies Record<string, Rule>;

// ---- DPO ---------------------------------------------------------------------------------------------------------

export const DPO_RULES = {
  learning_rate: (v) => gsm8kRate('dpo', v as number, 5e-5),
  per_device_train_batch_size: (v) => batch('dpo', v as number, 'pairs'),
  beta: (v) => copied('beta', v as number),
  loss_type: (v) => copied('loss_type', [v as string], `TRL ${TRL_VERSION} takes a list of loss types (combined with loss_weights).`),
  label_smoothing: (v) => copied('label_smoothing', v as number),
  max_grad_norm: maxGradNorm,
  num_prompts: (v) => ({ status: 'copied', constant: { file: 'make_pairs.py', name: 'NUM_PROMPTS', value: v as number }, note: 'training prompts sampled to build pairs, as in the lab.' }),
  samples_per_prompt: (v) => ({ status: 'copied', constant: { file: 'make_pairs.py', name: 'SAMPLES_PER_PROMPT', value: v as number }, note: 'completions sampled per prompt from the SFT model; a pair needs one right and one wrong.' }),
  sampling_temperature: (v) => ({ status: 'copied', constant: { file: 'make_pairs.py', name: 'SAMPLING_TEMPERATURE', value: v as number }, note: 'rejected completions are the SFT model’s real mistakes.' }),
  max_steps: maxSteps,
  eval_steps: (v) => evalSteps(v, 'the DPO loss and reward accuracies'),
  eval_samples: evalSamples,
  seed,
} satisfies Record<string, Rule>;

const RULES: Record<ExportMethod, Record<string, Rule>> = { sft: SFT_RULES, grpo: GRPO_RULES, dpo: DPO_RULES, agent: AGENT_RULES };

export interface Plan {
  method: ExportMethod;
  rows: Row[];
  /** Keywords of the method's TRL config, in the order of the rows. */
  config: Kwarg[];
  lora: Kwarg[] | null;
  /** Reward functions and their weights (GRPO and agent), in the order TRL receives them. */
  rewards: { fn: RewardName; weight: number }[];
  constants: Record<string, { file: string; value: Py }>;
  /** Loud remarks for the README and the dialog: flawed verifiers, things the project cannot reproduce. */
  warnings: string[];
}

/**
 * The whole mapping of one run's settings (which must be complete and valid for the method's schema), and the reader's
 * own reward function if the run used one (custom-reward.ts: custom_reward.js and custom_reward.py).
 */
export function exportPlan(method: ExportMethod, settings: Settings, customReward?: CustomRewardExport): Plan {
  const { rows, config, lora, rewards, constants } = mapFields(method, SCHEMAS[method], RULES[method], settings, CONFIG_OF[method]);
  const warnings: string[] = [];
  if (customReward) {
    if (method !== 'grpo' && method !== 'agent') throw new ConfigError([`${method} takes no reward function: only grpo and agent do`]);
    if (!(customReward.weight > 0)) throw new ConfigError([`the reward function's weight must be above 0, got ${customReward.weight}`]);
    const ported = portedEquivalent(customReward.source);
    rewards.push({ fn: 'custom_reward', weight: customReward.weight });
    rows.push({
      field: 'your reward function',
      value: `JavaScript, weight ${customReward.weight}`,
      status: ported ? 'copied' : 'changed',
      target: `custom_reward (custom_reward.py) × ${customReward.weight} in reward_weights`,
      note: ported
        ? `your code is the editor’s ${ported.example} example: custom_reward.py calls common.py’s ${ported.fn}, the same rule in Python.`
        : 'TRL runs Python: custom_reward.py is a stub to port (it says how ctx maps to TRL’s arguments); custom_reward.js keeps your code.',
    });
    if (!ported) warnings.push('Your reward function is JavaScript and TRL runs Python: custom_reward.py is a stub that stops training at the first batch until you port your code into it (custom_reward.js keeps it, and the stub says how the arguments map).');
  }

  const flawed = rewards.find((r) => r.fn === 'at_least_reward' || r.fn === 'digits_reward');
  if (flawed) {
    warnings.push(
      `DELIBERATELY FLAWED VERIFIER: this run rewards with ${flawed.fn}, the lab’s reward-hacking demonstration, and so does train_${method}.py. The model will learn to exploit it. correctness_reward is logged beside it at weight 0: watch rewards/correctness_reward/mean fall while the reward climbs.`,
    );
    rewards.push({ fn: 'correctness_reward', weight: 0 });
  }
  if (settings.dynamic_sampling === true) warnings.push('The run used DAPO’s dynamic sampling, which TRL’s GRPOTrainer does not have: the project trains without it.');
  if (settings.train_on_tool_results === true) warnings.push('The run trained on tool results (the masking bug); TRL always masks them, so the project cannot reproduce that run’s failure.');
  if (method !== 'sft' && method !== 'dpo' && rewards.every((r) => r.weight === 0)) {
    throw new ConfigError(['every reward weight is 0: GRPO would have nothing to learn from']);
  }
  if (method === 'grpo' || method === 'agent') {
    checkGenerationBatch(settings);
    const cost = evaluationCost(settings);
    if (cost.evaluation > cost.training) {
      warnings.push(
        `Evaluation during training costs more than training: TRL's GRPOTrainer samples num_generations completions for each held-out prompt, so ${cost.evaluations} evaluations × EVAL_SAMPLES ${String(settings.eval_samples)} × ${String(settings.num_generations)} = ${cost.evaluation} completions, against ${cost.training} for the ${String(settings.max_steps)} training steps (the lab decodes each held-out problem once, greedily). On a slow GPU lower EVAL_SAMPLES in common.py or raise eval_steps; eval.py scores accuracy after training either way.`,
      );
    }
  }
  return { method, rows, config, lora: settings.use_peft === true ? lora : null, rewards, constants, warnings };
}

/** Completions a GRPO-like run generates: for training (a batch per optimizer step) and for TRL's in-training evaluation. */
export function evaluationCost(settings: Settings): { evaluations: number; evaluation: number; training: number } {
  const steps = settings.max_steps as number;
  const every = settings.eval_steps as number;
  const evaluations = every > 0 ? Math.floor(steps / every) : 0;
  return {
    evaluations,
    evaluation: evaluations * (settings.eval_samples as number) * (settings.num_generations as number),
    training: steps * (settings.per_device_train_batch_size as number),
  };
}

/** TRL's rule, as lib/train/grpo-update.ts checks it for the lab: the generation batch holds whole groups. */
function checkGenerationBatch(s: Settings): void {
  const size = (s.per_device_train_batch_size as number) * (s.steps_per_generation as number);
  if (size % (s.num_generations as number) !== 0) {
    throw new ConfigError([`the generation batch (per_device_train_batch_size × steps_per_generation = ${size}) must be a multiple of num_generations (${String(s.num_generations)})`]);
  }
}
