/**
 * The training scripts: train_sft.py, then train_grpo.py, train_dpo.py (after make_pairs.py) or train_agent.py. Each
 * builds TRL's config with the run's values under TRL's names (lib/export/mapping.ts) plus the few settings a real run
 * needs, written out with comments.
 */
import { TRL_VERSION, trlDefaults } from '@/content/trl-defaults';
import { REAL_MAX_LENGTH, MICRO_BATCH_CAP, type Plan } from '../mapping';
import { microBatch, type Kwarg } from '../rules';
import { assignments, float, KWARG_INDENT as I, kwargLines, py, wrap } from '../py';
import { agentEpisodeRules, type AgentEpisodeRules } from './environment';

/** TRL's SFT learning rate, with where its source says so (content/trl-defaults.ts). */
const SFT_LR = trlDefaults.find((d) => d.config === 'SFTConfig' && d.field === 'learning_rate')!;

/** Where TRL's model loading defaults to fp32 (content/trl-defaults.ts has no entry: it is a code path, not a field). */
const FP32_DEFAULT = `trl/trainer/utils.py:1175 at ${TRL_VERSION}`;

/**
 * The precision the model is loaded in, said explicitly: TRL loads a model given by name in fp32 unless
 * model_init_kwargs names a dtype, and bf16=True only turns on mixed precision. Full fine-tuning keeps fp32 weights
 * (Adam's updates at a rate of 1e-6 are far below bf16's resolution of about 0.4 % of a weight); LoRA loads the frozen
 * base in bf16, since it is never updated, and PEFT keeps the adapters in fp32.
 */
export function modelInitKwargs(lora: boolean): Kwarg {
  return lora
    ? {
        name: 'model_init_kwargs',
        value: { dtype: 'bfloat16' },
        comment: 'The frozen base weights in bf16 (2 bytes a parameter): LoRA never updates them. PEFT keeps the adapters in fp32 (autocast_adapter_dtype).',
      }
    : {
        name: 'model_init_kwargs',
        value: { dtype: 'float32' },
        comment: `fp32 weights, which is also what TRL loads when no dtype is given (${FP32_DEFAULT}); said here because bf16=True does not make the weights bf16. Full fine-tuning needs them: Adam's steps at learning rates near 1e-6 are far below bf16's resolution (about 0.4 % of a weight) and would round away. A reference model (beta > 0, DPO) is loaded the same way.`,
      };
}

/** What every run sets beyond the lab's fields. */
function runKwargs(outputDir: string, lora = false): Kwarg[] {
  return [
    { name: 'output_dir', value: outputDir },
    modelInitKwargs(lora),
    { name: 'bf16', value: true, comment: 'Mixed precision: matrix products and activations in bf16 (an Ampere or newer GPU); the weights keep the dtype above.' },
    { name: 'gradient_checkpointing', value: true, comment: 'Recompute activations in the backward pass (TRL’s default; the README’s memory table assumes it).' },
    { name: 'logging_steps', value: 5 },
    { name: 'save_strategy', value: 'steps' },
    { name: 'save_steps', value: 100 },
    { name: 'save_total_limit', value: 2 },
    { name: 'report_to', value: 'none', comment: 'Set "trackio", "wandb" or "tensorboard" to see the curves the lab draws.' },
  ];
}

/** The line that splits the run's batch over the processes (mapping.ts batch(), common.batch_layout). */
const layoutLine = (plan: Plan) =>
  plan.constants.BATCH_PER_STEP
    ? `PER_DEVICE_BATCH, ACCUMULATION = batch_layout(BATCH_PER_STEP, ${MICRO_BATCH_CAP[plan.method]})  # the lab's batch per optimizer step on any number of GPUs\n`
    : '';

// START_FROM is written by each script itself, with a comment on where it starts.
const constants = (plan: Plan, file: string) =>
  assignments(plan.constants, file, ['START_FROM'])
    .map((line) => `${line}\n`)
    .join('');

export function trainSftPy(plan: Plan): string {
  const agent = plan.method === 'agent';
  // The SFT stage of an RL project is not the run's: it teaches the format (and, for the agent, the tool calls).
  const own = plan.method === 'sft';
  const fields: Kwarg[] = own
    ? plan.config
    : [
        { name: 'learning_rate', value: SFT_LR.value, comment: `TRL’s SFTConfig default (${SFT_LR.file}:${SFT_LR.line} at ${TRL_VERSION}): this stage is not the lab run, it teaches the format.` },
        { name: 'per_device_train_batch_size', value: MICRO_BATCH_CAP.sft },
        { name: 'gradient_accumulation_steps', value: 4 },
        { name: 'num_train_epochs', value: 1, comment: 'One pass over GSM8K’s 7,473 solutions: enough for the format; more narrows what RL can explore.' },
        { name: 'eval_strategy', value: 'steps' },
        { name: 'eval_steps', value: 100 },
      ];
  const loss: Kwarg[] = agent
    ? [{ name: 'assistant_only_loss', value: true, comment: `Loss on the assistant’s turns only, never the calculator’s (TRL swaps in a training chat template with generation markers for Qwen3: trl/trainer/sft_trainer.py:1253-1254).` }]
    : [{ name: 'completion_only_loss', value: true, comment: 'Loss on the solution only, not the question (the lab’s SFT does the same).' }];
  const lora = plan.lora;
  return `"""Step 2: supervised fine-tuning on GSM8K solutions${agent ? ' written as calculator conversations' : ''}, so that the model ends with "#### <number>"${agent ? '\nand calls the calculator' : ''}.
${own ? '\nThe SFTConfig holds the lab run\'s values under TRL\'s names (see README.md, "What carried over").' : '\nThis stage prepares the model for the RL step the lab ran; its values are TRL\'s usual ones, not the lab\'s.'}

Run: accelerate launch --config_file accelerate/multi_gpu.yaml train_sft.py   (or: python train_sft.py on one GPU)
"""
from datasets import load_from_disk
${lora ? 'from peft import AutoPeftModelForCausalLM, LoraConfig\n' : ''}from trl import SFTConfig, SFTTrainer

from common import EVAL_SAMPLES, MODEL${own ? ', batch_layout' : ''}

OUTPUT_DIR = "outputs/sft"
${lora ? 'ADAPTER_DIR = "outputs/sft-adapter"\n' : ''}${own ? constants(plan, 'train_sft.py') + layoutLine(plan) : ''}

def main():
    data = load_from_disk("data/sft")
    config = SFTConfig(
${kwargLines(runKwargs(lora ? 'outputs/sft-adapter' : 'outputs/sft', Boolean(lora)), I)}
${kwargLines([...fields, { name: 'max_length', value: REAL_MAX_LENGTH, comment: 'TRL’s default; holds any GSM8K question with its solution.' }, ...loss], I)}
    )
${
  lora
    ? `    # The run trained LoRA adapters (use_peft): PEFT's names, the run's values.
    peft_config = LoraConfig(
${kwargLines([...lora, { name: 'task_type', value: 'CAUSAL_LM' }], I)}
    )
`
    : ''
}    trainer = SFTTrainer(
        model=MODEL,
        args=config,
        train_dataset=data["train"],
        eval_dataset=data["test"].select(range(EVAL_SAMPLES)),${lora ? '\n        peft_config=peft_config,' : ''}
    )
    trainer.train()
    trainer.save_model(config.output_dir)
${
  lora
    ? `    # Merge the adapters into the weights, so that the next step (and vLLM) load a plain model.
    trainer.accelerator.wait_for_everyone()
    if trainer.accelerator.is_main_process:
        merged = AutoPeftModelForCausalLM.from_pretrained(ADAPTER_DIR).merge_and_unload()
        merged.save_pretrained(OUTPUT_DIR)
        trainer.processing_class.save_pretrained(OUTPUT_DIR)
`
    : ''
}

if __name__ == "__main__":
    main()
`;
}

/** train_agent.py's comment on the environment that carries the lab's episode rules (python/environment.ts). */
function environmentNote(rules: AgentEpisodeRules): string {
  const parts = [
    rules.attempts > 1 ? 'submit_answer among them (a wrong answer gets "?" and another try, up to ANSWER_ATTEMPTS)' : '',
    rules.failureRate > 0 ? "a calculator that fails at TOOL_FAILURE_RATE by the lab's seeded rule" : '',
    rules.memory ? "remember and recall, the lab's memory tool" : '',
  ].filter(Boolean);
  const text = `The lab's episode rules need more than tools: GRPOTrainer(environment_factory=...) (grpo_trainer.py:266-282, experimental; transformers >= 5.2.0, 602-607) gives each rollout its own common.AgentEnvironment, whose methods are the tools: ${parts.join('; ')}. scored_as_in_lab makes each reward read the episode as the lab's rewards did (the last try, the calls the lab counted). TRL warns once that the feature is experimental.`;
  return `#\n${wrap(text, 116).map((l) => `# ${l}`).join('\n')}\n`;
}

const REWARD_IMPORTS = (plan: Plan) => [...new Set(plan.rewards.map((r) => r.fn).filter((fn) => fn !== 'soft_overlong_punishment' && fn !== 'custom_reward'))].sort();

export function trainGrpoPy(plan: Plan): string {
  const agent = plan.method === 'agent';
  const file = agent ? 'train_agent.py' : 'train_grpo.py';
  const outputDir = agent ? 'outputs/agent' : 'outputs/grpo';
  const overlong = plan.rewards.some((r) => r.fn === 'soft_overlong_punishment');
  const funcs = plan.rewards.map((r) => r.fn).join(', ');
  // With the lab's episode rules, TRL's environment replaces tools=[calculator], and each reward reads its rollout's environment.
  const episode = agentEpisodeRules(plan);
  const rewardFuncs = episode ? plan.rewards.map((r) => `scored_as_in_lab(${r.fn})`).join(', ') : funcs;
  const weights: Kwarg = {
    name: 'reward_weights',
    value: plan.rewards.map((r) => float(r.weight)),
    comment: `One weight per function in reward_funcs (${funcs}): TRL sums the weighted rewards, then normalises within each group.`,
  };
  const micro = microBatch(plan.rows.find((r) => r.field === 'per_device_train_batch_size')!.value as number, MICRO_BATCH_CAP[plan.method]);
  const generations = plan.config.find((k) => k.name === 'num_generations')!.value as number;
  const extra: Kwarg[] = [
    weights,
    { name: 'per_device_eval_batch_size', value: Math.max(micro, generations), comment: 'Evaluation generates num_generations completions per prompt: the eval batch must hold whole groups.' },
    { name: 'chat_template_kwargs', value: { code: 'CHAT_TEMPLATE_KWARGS' }, comment: 'No <think> block (common.py).' },
    { name: 'log_completions', value: true, comment: 'Print a table of sampled completions with their rewards, the lab’s group inspector.' },
    { name: 'use_vllm', value: false, comment: 'Generation is most of the time: pip install vllm and set True (vllm_mode="colocate") to speed it up.' },
  ];
  const flawed = plan.warnings.find((w) => w.startsWith('DELIBERATELY FLAWED'));
  const toolNote = agent
    ? `
# Tools: GRPOTrainer(tools=[...]) takes plain Python functions with type hints and a Google-style docstring
# (GRPOTrainer's docstring, trl/trainer/grpo_trainer.py:251-254 at ${TRL_VERSION}). The trainer checks transformers >= 5.0.0
# (grpo_trainer.py:597-601; below 5.13 it also needs the jmespath library, 610-616), runs each call the model writes,
# appends the result as a "tool" message and lets the model continue, at most max_tool_calling_iterations times
# (_tool_call_loop, grpo_trainer.py:1985-2222); the results' tokens are masked out of the loss (grpo_trainer.py:2519). A completion is
# then a list of messages (assistant, tool, assistant, ...): common.completion_text reads the last assistant turn.
${episode ? environmentNote(episode) : ''}`
    : '';
  return `"""Step 3: ${agent ? 'GRPO with the calculator as a tool' : 'GRPO with the verifiable rewards'} on GSM8K prompts, from the SFT model: the lab run, at full scale.

The GRPOConfig holds the lab run's values under TRL's names; values that only make sense for the lab's tiny model are
replaced, each with a comment naming the lab's value and why (README.md, "What carried over").

Run: accelerate launch --config_file accelerate/multi_gpu.yaml ${file}   (or: python ${file} on one GPU)
"""
from datasets import load_from_disk
from trl import GRPOConfig, GRPOTrainer
${overlong ? 'from trl.rewards import get_soft_overlong_punishment\n' : ''}${plan.rewards.some((r) => r.fn === 'custom_reward') ? 'from custom_reward import custom_reward  # your reward function from the lab (custom_reward.py)\n' : ''}
from common import CHAT_TEMPLATE_KWARGS, EVAL_SAMPLES, MODEL, ${episode ? 'AgentEnvironment, batch_layout, ' : agent ? 'USE_TOOLS, batch_layout, calculator, ' : 'batch_layout, '}${REWARD_IMPORTS(plan).join(', ')}${episode ? ', scored_as_in_lab' : ''}
${flawed ? `\n${wrap(flawed, 116).map((l) => `# ${l}`).join('\n')}\n` : ''}${toolNote}
START_FROM = ${py(plan.constants.START_FROM?.value ?? 'outputs/sft')}  # train_sft.py's output, or MODEL to start from the pretrained model
${constants(plan, file)}${layoutLine(plan)}

def main():
    data = load_from_disk("data/rl")
    config = GRPOConfig(
${kwargLines(runKwargs(outputDir), I)}
${kwargLines([...plan.config, ...extra], I)}
    )
${overlong ? '    # DAPO\'s soft overlong punishment, TRL\'s own (trl/rewards/other_rewards.py:83).\n    soft_overlong_punishment = get_soft_overlong_punishment(config.max_completion_length, SOFT_PUNISH_CACHE)\n' : ''}    trainer = GRPOTrainer(
        model=START_FROM,
        reward_funcs=[${rewardFuncs}],
        args=config,
        train_dataset=data["train"],
        eval_dataset=data["test"].select(range(EVAL_SAMPLES)),${episode ? '\n        environment_factory=lambda: AgentEnvironment(seed=config.seed),  # one per rollout' : agent ? '\n        tools=[calculator] if USE_TOOLS else None,' : ''}
    )
    trainer.train()
    trainer.save_model(config.output_dir)


if __name__ == "__main__":
    main()
`;
}

export function makePairsPy(plan: Plan): string {
  return `"""Step 3a: preference pairs from the SFT model, as the lab builds them: sample several completions per training
prompt, keep one right and one wrong as (chosen, rejected). Writes data/pairs (train, and test from held-out prompts).

Run: python make_pairs.py   (one GPU; generation only)
"""
import random

import torch
from datasets import Dataset, DatasetDict, load_from_disk
from transformers import AutoModelForCausalLM, AutoTokenizer

from common import CHAT_TEMPLATE_KWARGS, EVAL_SAMPLES, correctness_reward

START_FROM = "outputs/sft"
${constants(plan, 'make_pairs.py')}MAX_NEW_TOKENS = 512
BATCH_PROMPTS = 16
SEED = ${py(plan.config.find((k) => k.name === 'seed')!.value)}


def pairs(model, tokenizer, rows):
    out = []
    for start in range(0, len(rows), BATCH_PROMPTS):
        batch = rows.select(range(start, min(start + BATCH_PROMPTS, len(rows))))
        texts = [tokenizer.apply_chat_template(p, add_generation_prompt=True, tokenize=False, **CHAT_TEMPLATE_KWARGS) for p in batch["prompt"]]
        inputs = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False).to(model.device)
        with torch.no_grad():
            ids = model.generate(**inputs, do_sample=True, temperature=SAMPLING_TEMPERATURE, max_new_tokens=MAX_NEW_TOKENS, num_return_sequences=SAMPLES_PER_PROMPT)
        completions = tokenizer.batch_decode(ids[:, inputs["input_ids"].shape[1] :], skip_special_tokens=True)
        for i, row in enumerate(batch):
            group = completions[i * SAMPLES_PER_PROMPT : (i + 1) * SAMPLES_PER_PROMPT]
            scores = correctness_reward(group, [row["answer"]] * len(group))
            right = [c for c, s in zip(group, scores) if s == 1.0]
            wrong = [c for c, s in zip(group, scores) if s == 0.0]
            if right and wrong:  # a prompt the model always (or never) solves gives no pair
                out.append({
                    "prompt": row["prompt"],
                    "chosen": [{"role": "assistant", "content": right[0]}],
                    "rejected": [{"role": "assistant", "content": wrong[0]}],
                    "chat_template_kwargs": CHAT_TEMPLATE_KWARGS,
                })
    return Dataset.from_list(out)


def main():
    random.seed(SEED)
    torch.manual_seed(SEED)
    data = load_from_disk("data/rl")
    tokenizer = AutoTokenizer.from_pretrained(START_FROM, padding_side="left")
    model = AutoModelForCausalLM.from_pretrained(START_FROM, dtype=torch.bfloat16, device_map="auto")
    train = data["train"].shuffle(seed=SEED).select(range(min(NUM_PROMPTS, len(data["train"]))))
    test = data["test"].select(range(EVAL_SAMPLES))
    result = DatasetDict({"train": pairs(model, tokenizer, train), "test": pairs(model, tokenizer, test)})
    empty = [split for split, rows in result.items() if len(rows) == 0]
    if empty:
        # DPOTrainer would stop later with an IndexError that names nothing.
        raise SystemExit(
            f"no preference pairs in {', '.join(empty)}: {START_FROM} solved every sampled prompt or none. "
            f"Check that train_sft.py ran and that eval.py --model {START_FROM} scores between 0 and 1, "
            "or raise SAMPLES_PER_PROMPT."
        )
    result.save_to_disk("data/pairs")
    print({split: len(rows) for split, rows in result.items()}, "pairs")


if __name__ == "__main__":
    main()
`;
}

export function trainDpoPy(plan: Plan): string {
  const extra: Kwarg[] = [{ name: 'max_length', value: REAL_MAX_LENGTH, comment: 'TRL’s default; holds a GSM8K prompt with a solution.' }];
  return `"""Step 3b: DPO on the pairs make_pairs.py wrote, from the SFT model (which is also the frozen reference).

The DPOConfig holds the lab run's values under TRL's names; values that only make sense for the lab's tiny model are
replaced, each with a comment naming the lab's value and why (README.md, "What carried over").

Run: accelerate launch --config_file accelerate/multi_gpu.yaml train_dpo.py   (or: python train_dpo.py on one GPU)
"""
from datasets import load_from_disk
from trl import DPOConfig, DPOTrainer

from common import batch_layout

START_FROM = "outputs/sft"
${constants(plan, 'train_dpo.py')}${layoutLine(plan)}

def main():
    pairs = load_from_disk("data/pairs")
    config = DPOConfig(
${kwargLines(runKwargs('outputs/dpo'), I)}
${kwargLines([...plan.config, ...extra], I)}
    )
    trainer = DPOTrainer(model=START_FROM, args=config, train_dataset=pairs["train"], eval_dataset=pairs["test"])
    trainer.train()
    trainer.save_model(config.output_dir)


if __name__ == "__main__":
    main()
`;
}
