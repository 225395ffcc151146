/**
 * The Python of the self-improvement project: common.py (GSM8K's parser and verifier, shared with the other projects;
 * the difficulty of a problem, the round schedule, the filters and the mixture, ported from the lab), prepare_data.py,
 * the round loop self_improve.py and eval.py. The loop samples with transformers' generate, as eval.py and
 * make_pairs.py do, so the whole project runs (and is smoke-tested) without vLLM.
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import type { Plan } from '../mapping';
import { MICRO_BATCH_CAP, REAL_MAX_LENGTH } from '../mapping';
import { kwargLines, py } from '../py';
import type { SelfImprovePlan } from '../self-improve';
import { DATASET, MODEL, MODEL_ALTERNATIVE } from '../versions';
import { BATCH_LAYOUT_PY, commonPy, SYSTEM_PROMPT } from './common';

const I = '        ';

/** The round loop's script: it builds one SFTConfig per round. */
export const LOOP_SCRIPT = 'self_improve.py';
/** Tokens a sampled answer may take: GSM8K solutions run to a few hundred (as train_grpo.py's budget, mapping.ts). */
export const SAMPLE_MAX_TOKENS = 512;
/** Sequences per generate call in the loop (prompts × num_generations), for the README's memory note too. */
export const SAMPLE_BATCH = 64;

/**
 * GSM8K's answer handling exactly as every other project's common.py has it (answer_number through format_reward),
 * cut out of commonPy so that the verifier is the one tests/unit/export/python.test.ts compares with the lab's.
 */
export function gsm8kHelpersPy(): string {
  const plan: Plan = { method: 'sft', rows: [], config: [], lora: null, rewards: [], constants: {}, warnings: [] };
  const text = commonPy(plan, { preset: 'default' });
  const start = text.indexOf('def answer_number(');
  const end = text.indexOf('\n\n\ndef length_penalty(');
  if (start < 0 || end < start) throw new Error('lib/export/python/common.ts no longer has answer_number … format_reward in that order');
  return text.slice(start, end);
}

const constantsIn = (plan: SelfImprovePlan, file: string) =>
  Object.entries(plan.constants)
    .filter(([, c]) => c.file === file)
    .map(([name, c]) => `${name} = ${py(c.value)}\n`)
    .join('');

export function selfImproveCommonPy(plan: SelfImprovePlan, preset: string): string {
  return `"""Shared by every script of this project: the model, the prompt, GSM8K's answer parser and verifier, the difficulty
of a problem, and the pieces of the lab's round loop (the schedule of difficulties, the filters, the mixture).

Exported from Agentic RL Lab (the self_improve trainer, preset ${preset}) for TRL ${TRL_VERSION}. Standard library only: it
imports without a GPU, and the course's tests compare its filters and schedule with the lab's on the same inputs.
"""
import math
import os
import re
from collections import Counter

# The one model the loop trains. ${MODEL_ALTERNATIVE} is the alternative of the same family at this
# size (it has no thinking mode: drop "enable_thinking" below for it).
MODEL = ${py(MODEL)}
DATASET = ${py(DATASET.id)}
DATASET_CONFIG = ${py(DATASET.config)}
# Qwen3 writes a <think> block first by default; the lab's model answers directly, and so do these scripts.
CHAT_TEMPLATE_KWARGS = {"enable_thinking": False}
SYSTEM_PROMPT = ${py(SYSTEM_PROMPT)}
${constantsIn(plan, 'common.py')}

${BATCH_LAYOUT_PY}


${gsm8kHelpersPy()}


# ---- Difficulty: the lab grades sums by digit columns; GSM8K's counterpart is the number of reasoning steps.


def difficulty(solution: str) -> int:
    """Steps of a reference solution: its non-empty lines before '####' (GSM8K writes one calculation a line)."""
    steps = solution.split("####")[0]
    return max(1, sum(1 for line in steps.split("\\n") if line.strip()))


def difficulty_class(steps: int) -> int:
    """The difficulty a problem counts at: its steps, with every problem past TARGET_DIFFICULTY counted at the target."""
    return min(steps, TARGET_DIFFICULTY)


def round_difficulty(round_: int, demonstration: int, target: int, rounds_per_difficulty: int) -> int:
    """The difficulty round r samples: the demonstrations' for round 0, then one more step every rounds_per_difficulty
    rounds, up to the target (the lab's roundDifficulty, lib/train/self-improve-trainer.ts)."""
    if round_ == 0:
        return demonstration
    return min(target, demonstration + math.ceil(round_ / rounds_per_difficulty))


# ---- Which samples a round keeps (the lab's filterSamples, lib/train/self-improve-filter.ts). Samples come in groups
# of group_size per problem, group after group.


def answer_of(text: str):
    """The integer a completion answers, normalised ('052' -> '52'), or None."""
    got = parse_answer(text)
    return None if got is None else str(int(got))


def verified(texts, answers) -> list[bool]:
    """Whether each completion's answer is its problem's: the verifier, and what kept_precision counts."""
    return [r == 1.0 for r in correctness_reward(texts, answer=answers)]


def filter_samples(filter_: str, texts, finished, answers, group_size: int) -> list[int]:
    """The indices kept. verifier: finished and right (STaR, ReST-EM). majority: finished, with the answer more than
    half of their group gives (self-consistency used as a label: no verifier). none: every finished sample. A sample
    cut off at the token limit is never kept."""
    if group_size < 1 or len(texts) % group_size:
        raise ValueError(f"{len(texts)} samples do not split into groups of {group_size}")
    if not len(finished) == len(answers) == len(texts):
        raise ValueError("texts, finished and answers must have the same length")
    if filter_ == "none":
        return [i for i in range(len(texts)) if finished[i]]
    if filter_ == "verifier":
        right = verified(texts, answers)
        return [i for i in range(len(texts)) if finished[i] and right[i]]
    if filter_ != "majority":
        raise ValueError(f"unknown filter {filter_!r}")
    parsed = [answer_of(t) if f else None for t, f in zip(texts, finished)]
    kept = []
    for start in range(0, len(texts), group_size):
        votes = Counter(a for a in parsed[start : start + group_size] if a is not None)
        winner = next((a for a, n in votes.items() if n > group_size / 2), None)
        if winner is not None:
            kept += [i for i in range(start, start + group_size) if parsed[i] == winner]
    return kept


def kept_precision(kept, right) -> float:
    """The share of kept samples whose answer is really right (0 when none are kept)."""
    return sum(1 for i in kept if right[i]) / len(kept) if kept else 0.0


def from_pool(batch: int, demo_fraction: float, pool_size: int) -> int:
    """Kept samples in each fine-tuning batch of a later round; demonstrations fill the rest. JavaScript's Math.round
    (halves up), as the lab rounds; none while the pool is empty."""
    return math.floor(batch * (1 - demo_fraction) + 0.5) if pool_size > 0 else 0
`;
}

export function selfImprovePreparePy(): string {
  return `"""Step 1: GSM8K from the Hub into data/gsm8k, train and test splits of:

  prompt      system + question, as a conversation
  answer      the number after '####', no commas: what the verifier compares with
  solution    the reference solution ending with '#### <number>': the demonstrations of the short problems
  difficulty  the solution's steps (common.difficulty): the lab's digit columns

Run once: python prepare_data.py   (downloads ~5 MB; GSM8K has 7,473 training and 1,319 test problems)
"""
from collections import Counter

from datasets import load_dataset

from common import DATASET, DATASET_CONFIG, SYSTEM_PROMPT, answer_number, difficulty, solution_text


def to_row(row):
    solution = solution_text(row["answer"])
    return {
        "prompt": [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": row["question"]}],
        "answer": answer_number(row["answer"]),
        "solution": solution,
        "difficulty": difficulty(solution),
    }


def main():
    gsm8k = load_dataset(DATASET, DATASET_CONFIG)
    columns = gsm8k["train"].column_names  # question, answer
    # Never reuse a cached map: datasets fingerprints to_row but not the common.py functions it calls.
    data = gsm8k.map(to_row, remove_columns=columns, load_from_cache_file=False)
    data.save_to_disk("data/gsm8k")
    for split, rows in data.items():
        print(split, len(rows), "problems; by steps:", dict(sorted(Counter(rows["difficulty"]).items())))


if __name__ == "__main__":
    main()
`;
}

/** What every round's SFTConfig sets beyond the lab's fields. */
function roundKwargs(): { name: string; value: import('../py').Py; comment?: string }[] {
  return [
    { name: 'output_dir', value: { code: 'f"{OUTPUT_DIR}/round-{round_}"' } },
    { name: 'max_steps', value: { code: 'steps' }, comment: 'DEMO_STEPS (at most) in round 0, STEPS_PER_ROUND after.' },
    {
      name: 'lr_scheduler_type',
      value: 'constant',
      comment: 'The lab keeps one constant rate through every round; TRL’s default linear decay would restart from the full rate at each round’s new trainer.',
    },
    { name: 'bf16', value: true, comment: 'Mixed precision (an Ampere or newer GPU); the weights stay fp32, as loaded.' },
    { name: 'gradient_checkpointing', value: true, comment: 'TRL’s default; the README’s memory table assumes it.' },
    { name: 'max_length', value: REAL_MAX_LENGTH, comment: 'TRL’s default; holds any GSM8K question with its solution.' },
    { name: 'completion_only_loss', value: true, comment: 'Loss on the answer only, as the lab’s fine-tuning.' },
    { name: 'logging_steps', value: 5 },
    { name: 'save_strategy', value: 'no', comment: 'The loop saves the model after its last round.' },
    { name: 'report_to', value: 'none', comment: 'Set "trackio", "wandb" or "tensorboard" to see each round’s loss.' },
  ];
}

export function selfImprovePy(plan: SelfImprovePlan): string {
  return `"""Step 2: self-improvement by expert iteration, the lab's round loop around TRL's SFTTrainer (STaR, Zelikman et al.
2022; ReST-EM, Singh et al. 2023).

  round 0    SFT on the demonstrations: GSM8K's reference solutions of problems of at most DEMONSTRATION_DIFFICULTY steps
  round r>0  sample NUM_GENERATIONS answers to NUM_PROMPTS problems at the round's difficulty, keep what FILTER keeps
             (verifier | majority | none), add them to the pool of every round's kept samples, and fine-tune on batches
             of kept samples and demonstrations mixed as the lab mixes them (DEMO_FRACTION); then held-out accuracy at
             every difficulty (eval.evaluate)

One model is trained through all rounds, as in the lab (STaR and ReST-EM restart each round from the base model instead:
load MODEL again at the top of each round to try that). Each round writes a line of rounds.jsonl with the lab's counts.

Run: python self_improve.py   (or accelerate launch --config_file accelerate/multi_gpu.yaml self_improve.py: each
process samples and evaluates its share of the problems, and SFT is data-parallel)
"""
import json
import os
import random

import torch
from accelerate import PartialState
from accelerate.utils import gather_object
from datasets import Dataset, load_from_disk
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import SFTConfig, SFTTrainer

from common import (
    CHAT_TEMPLATE_KWARGS,
    DEMONSTRATION_DIFFICULTY,
    MODEL,
    TARGET_DIFFICULTY,
    batch_layout,
    difficulty_class,
    filter_samples,
    from_pool,
    kept_precision,
    round_difficulty,
    verified,
)
from eval import evaluate

OUTPUT_DIR = "outputs/self_improve"
${constantsIn(plan, LOOP_SCRIPT)}# Tokens a sampled answer may take: GSM8K solutions run to a few hundred (the lab's sums to about twenty).
MAX_NEW_TOKENS = ${SAMPLE_MAX_TOKENS}
# Sequences per generate call (prompts × NUM_GENERATIONS): lower it if sampling runs out of memory.
SAMPLE_BATCH = ${SAMPLE_BATCH}
PER_DEVICE_BATCH, ACCUMULATION = batch_layout(BATCH_PER_STEP, ${MICRO_BATCH_CAP.sft})  # the lab's batch per optimizer step on any number of GPUs


def sft_config(round_: int, steps: int) -> SFTConfig:
    return SFTConfig(
${kwargLines([...roundKwargs(), ...plan.sft], I)}
    )


def sampling_kwargs() -> dict:
    """As GRPOTrainer samples without vLLM: the temperature alone shapes the distribution (top_p 1.0, top_k 0), not
    the model's own generation config (Qwen3's top_k 20, top_p 0.95)."""
    if TEMPERATURE == 0:
        return {"do_sample": False}
    return {"do_sample": True, "temperature": TEMPERATURE, "top_p": 1.0, "top_k": 0}


def sample(model, tokenizer, problems):
    """NUM_GENERATIONS completions per problem, group after group: (texts, finished). A completion is finished when it
    ended with an end-of-turn token before MAX_NEW_TOKENS; the filters never keep one that did not."""
    eos = model.generation_config.eos_token_id
    eos = set(eos if isinstance(eos, list) else [eos])
    repeated = [p for p in problems for _ in range(NUM_GENERATIONS)]
    texts, finished = [], []
    model.eval()
    for start in range(0, len(repeated), SAMPLE_BATCH):
        batch = repeated[start : start + SAMPLE_BATCH]
        prompts = [tokenizer.apply_chat_template(p["prompt"], add_generation_prompt=True, tokenize=False, **CHAT_TEMPLATE_KWARGS) for p in batch]
        inputs = tokenizer(prompts, return_tensors="pt", padding=True, padding_side="left", add_special_tokens=False).to(model.device)
        with torch.no_grad():
            ids = model.generate(**inputs, **sampling_kwargs(), max_new_tokens=MAX_NEW_TOKENS, use_cache=True)
        new = ids[:, inputs["input_ids"].shape[1] :]
        texts += tokenizer.batch_decode(new, skip_special_tokens=True)
        finished += [any(t in eos for t in row.tolist()) for row in new]
    return texts, finished


def example(problem, text):
    """A fine-tuning row: the problem's prompt and an answer (a demonstration's solution or a kept sample)."""
    return {"prompt": problem["prompt"], "completion": [{"role": "assistant", "content": text}], "chat_template_kwargs": CHAT_TEMPLATE_KWARGS}


def collect(model, tokenizer, candidates, rng, pool, seen):
    """Sample, filter and pool one round's answers; returns the round's counts (the lab's names)."""
    problems = rng.sample(candidates, min(NUM_PROMPTS, len(candidates)))
    with PartialState().split_between_processes(problems) as mine:  # contiguous shares, in order: groups stay whole
        texts, finished = sample(model, tokenizer, mine)
    texts, finished = gather_object(texts), gather_object(finished)
    answers = [p["answer"] for p in problems for _ in range(NUM_GENERATIONS)]
    right = verified(texts, answers)
    kept = filter_samples(FILTER, texts, finished, answers, NUM_GENERATIONS)
    added = 0
    for i in kept:
        problem = problems[i // NUM_GENERATIONS]
        key = (problem["prompt"][-1]["content"], texts[i])
        if key not in seen:  # each distinct answer once, as the lab's pool
            seen.add(key)
            pool.append(example(problem, texts[i]))
            added += 1
    n = max(1, len(texts))
    return {
        "problems": len(problems),
        "samples": len(texts),
        "sample_accuracy": sum(right) / n,
        "kept": len(kept),
        "kept_precision": kept_precision(kept, right),
        "kept_wrong": sum(1 for i in kept if not right[i]),  # wrong answers the model is about to learn
        "pool_size": len(pool),
        "pool_added": added,
    }


def fine_tuning_rows(round_, demonstrations, pool, rng):
    """(steps, rows) of one round. Round 0: one pass over the demonstrations, at most DEMO_STEPS steps. Later rounds:
    STEPS_PER_ROUND batches, each with from_pool(...) kept samples drawn from the pool and demonstrations for the rest,
    both drawn with replacement as the lab draws them. The trainer shuffles the rows, so the share is exact per round
    and about right per batch."""
    if round_ == 0:
        steps = max(1, min(DEMO_STEPS, len(demonstrations) // BATCH_PER_STEP))
        order = rng.sample(demonstrations, len(demonstrations))
        return steps, [example(order[i % len(order)], order[i % len(order)]["solution"]) for i in range(steps * BATCH_PER_STEP)]
    share = from_pool(BATCH_PER_STEP, DEMO_FRACTION, len(pool))
    rows = []
    for _ in range(STEPS_PER_ROUND):
        rows += [example(d, d["solution"]) for d in (rng.choice(demonstrations) for _ in range(BATCH_PER_STEP - share))]
        rows += [rng.choice(pool) for _ in range(share)]
    return STEPS_PER_ROUND, rows


def main():
    # Not PartialState() here: the first SFTTrainer sets up the processes (on a CPU, gloo only with use_cpu=True), and
    # a PartialState made before it would fix them as independent. accelerate launch sets RANK, as it sets WORLD_SIZE.
    rank = int(os.environ.get("RANK", "0"))
    rng = random.Random(SEED)  # the same draws in every process: the pool and the rows agree
    torch.manual_seed(SEED + rank)  # different samples in each process
    train = load_from_disk("data/gsm8k")["train"]
    at = {d: [] for d in range(1, TARGET_DIFFICULTY + 1)}
    for row in train:
        at[difficulty_class(row["difficulty"])].append(row)
    demonstrations = [row for d in range(1, DEMONSTRATION_DIFFICULTY + 1) for row in at[d]]
    if not demonstrations:
        raise SystemExit(f"no GSM8K problem of at most {DEMONSTRATION_DIFFICULTY} steps to demonstrate: raise DEMONSTRATION_DIFFICULTY in common.py")
    tokenizer = AutoTokenizer.from_pretrained(MODEL)
    # fp32 weights: Adam's steps at rates near 1e-5 are below bf16's resolution and would round away.
    model = AutoModelForCausalLM.from_pretrained(MODEL, dtype=torch.float32)
    pool, seen = [], set()
    os.makedirs(OUTPUT_DIR, exist_ok=True)
    log = open(f"{OUTPUT_DIR}/rounds.jsonl", "w") if rank == 0 else None
    for round_ in range(ROUNDS):
        level = round_difficulty(round_, DEMONSTRATION_DIFFICULTY, TARGET_DIFFICULTY, ROUNDS_PER_DIFFICULTY)
        metrics = {"round": round_, "difficulty": level}
        if round_ > 0:
            metrics.update(collect(model, tokenizer, at[level], rng, pool, seen))
        steps, rows = fine_tuning_rows(round_, demonstrations, pool, rng)
        trainer = SFTTrainer(model=model, args=sft_config(round_, steps), train_dataset=Dataset.from_list(rows), processing_class=tokenizer)
        metrics["loss"] = trainer.train().training_loss
        metrics["from_pool_per_batch"] = 0 if round_ == 0 else from_pool(BATCH_PER_STEP, DEMO_FRACTION, len(pool))
        last = round_ == ROUNDS - 1
        if last or (EVAL_EVERY and (round_ + 1) % EVAL_EVERY == 0):
            metrics.update(evaluate(model, tokenizer, max_new_tokens=MAX_NEW_TOKENS)[0])
        if log:
            print(json.dumps(metrics), flush=True)
            log.write(json.dumps(metrics) + "\\n")
            log.flush()
    if log:
        log.close()
    trainer.save_model(OUTPUT_DIR)
    if rank == 0:
        tokenizer.save_pretrained(OUTPUT_DIR)


if __name__ == "__main__":
    main()
`;
}

export function selfImproveEvalPy(): string {
  return `"""Step 3: held-out accuracy at every difficulty, the lab's numbers: greedy answers to the first EVAL_SAMPLES test
problems of each number of steps (1 .. TARGET_DIFFICULTY, the target holding every longer problem), scored by
common.correctness_reward. self_improve.py calls evaluate() after its rounds; this script scores any saved model.

Run: python eval.py --model outputs/self_improve   (the model before the rounds: --model Qwen/Qwen3-0.6B)
Writes eval-<name>.json with every accuracy and every answer.
"""
import argparse
import json

import torch
from accelerate import PartialState
from accelerate.utils import gather_object
from datasets import load_from_disk
from transformers import AutoModelForCausalLM, AutoTokenizer

from common import CHAT_TEMPLATE_KWARGS, EVAL_SAMPLES, TARGET_DIFFICULTY, correctness_reward, difficulty_class, format_reward


def held_out(limit):
    """{difficulty: the first \`limit\` test problems at it}."""
    at = {d: [] for d in range(1, TARGET_DIFFICULTY + 1)}
    for row in load_from_disk("data/gsm8k")["test"]:
        d = difficulty_class(row["difficulty"])
        if len(at[d]) < limit:
            at[d].append(row)
    return at


def greedy(model, tokenizer, problems, max_new_tokens, batch_size):
    texts = []
    model.eval()
    for start in range(0, len(problems), batch_size):
        batch = problems[start : start + batch_size]
        prompts = [tokenizer.apply_chat_template(p["prompt"], add_generation_prompt=True, tokenize=False, **CHAT_TEMPLATE_KWARGS) for p in batch]
        inputs = tokenizer(prompts, return_tensors="pt", padding=True, padding_side="left", add_special_tokens=False).to(model.device)
        with torch.no_grad():
            ids = model.generate(**inputs, do_sample=False, max_new_tokens=max_new_tokens, use_cache=True)
        texts += tokenizer.batch_decode(ids[:, inputs["input_ids"].shape[1] :], skip_special_tokens=True)
    return texts


def evaluate(model, tokenizer, limit=EVAL_SAMPLES, max_new_tokens=512, batch_size=64):
    """({"eval/accuracy_<d>_steps": ..., "eval/accuracy_target": ...}, rows): each process answers its share."""
    at = held_out(limit)
    problems = [p for d in sorted(at) for p in at[d]]
    with PartialState().split_between_processes(problems) as mine:
        texts = greedy(model, tokenizer, mine, max_new_tokens, batch_size)
    texts = gather_object(texts)
    answers = [p["answer"] for p in problems]
    correct, formatted = correctness_reward(texts, answer=answers), format_reward(texts)
    rows = [{"difficulty": difficulty_class(p["difficulty"]), "answer": a, "completion": t, "correct": c, "format": f} for p, a, t, c, f in zip(problems, answers, texts, correct, formatted)]
    metrics = {}
    for d in sorted(at):
        scored = [r["correct"] for r in rows if r["difficulty"] == d]
        # None where the test split has no problem of d steps (GSM8K has few one-step problems).
        metrics[f"eval/accuracy_{d}_steps"] = sum(scored) / len(scored) if scored else None
    metrics["eval/accuracy_target"] = metrics[f"eval/accuracy_{TARGET_DIFFICULTY}_steps"]
    return metrics, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\\n")[0])
    parser.add_argument("--model", default="outputs/self_improve")
    parser.add_argument("--limit", type=int, default=EVAL_SAMPLES, help="test problems per difficulty")
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--max_new_tokens", type=int, default=512)
    args = parser.parse_args()
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForCausalLM.from_pretrained(args.model, dtype=torch.bfloat16, device_map="auto")
    metrics, rows = evaluate(model, tokenizer, args.limit, args.max_new_tokens, args.batch_size)
    summary = {"model": args.model, "problems": len(rows), **metrics, "format": sum(r["format"] for r in rows) / max(1, len(rows))}
    print(json.dumps(summary))
    name = args.model.rstrip("/").split("/")[-1]
    with open(f"eval-{name}.json", "w") as f:
        json.dump({**summary, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
`;
}
