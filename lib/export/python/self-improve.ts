/**
 * The round loop self_improve.py and eval.py of the self-improvement project (common.py and prepare_data.py:
 * self-improve-common.ts). The loop samples with transformers' generate, as eval.py and
 * make_pairs.py do, so the whole project runs (and is smoke-tested) without vLLM.
 */
import { MICRO_BATCH_CAP, REAL_MAX_LENGTH } from '../mapping';
import { kwargLines, type Py } from '../py';
import type { SelfImprovePlan } from '../self-improve';
import { SAVE_EVAL_SUMMARY_PY } from './evaluate';
import { constantsIn } from './self-improve-common';

const I = '        ';

/** The round loop's script: it builds one SFTConfig per round. */
export const LOOP_SCRIPT = 'self_improve.py';
/** Tokens a sampled answer may take: GSM8K solutions run to a few hundred (as train_grpo.py's budget, mapping.ts). */
export const SAMPLE_MAX_TOKENS = 512;
/** Sequences per generate call in the loop (prompts × num_generations), for the README's memory note too. */
export const SAMPLE_BATCH = 64;

/** What every round's SFTConfig sets beyond the lab's fields. */
function roundKwargs(): { name: string; value: Py; comment?: string }[] {
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
${SAVE_EVAL_SUMMARY_PY}`;
}
