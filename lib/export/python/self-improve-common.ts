/**
 * common.py and prepare_data.py of the self-improvement project: GSM8K's parser and verifier (shared with the other
 * projects), the difficulty of a problem, and the lab's round schedule, filters and mixture ported to Python, standard
 * library only, so that tests run them beside the lab's TypeScript on the same inputs.
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import type { Plan } from '../mapping';
import { py } from '../py';
import type { SelfImprovePlan } from '../self-improve';
import { BATCH_LAYOUT_PY, commonPy, modelConstantsPy, SYSTEM_PROMPT } from './common';

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

/** The plan's constants that live in `file`, one assignment a line. */
export const constantsIn = (plan: SelfImprovePlan, file: string) =>
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

${modelConstantsPy('the loop trains', SYSTEM_PROMPT)}
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
