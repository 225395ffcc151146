import type { Rng } from '@/lib/random';
import type { ArithmeticTask, Problem } from './arithmetic';

/**
 * Preference pairs for DPO: for the same prompt, a chosen (higher-reward, e.g. correct) and a rejected
 * (lower-reward, e.g. incorrect) completion.
 */

export interface ScoredCompletion<T> {
  /** Identifies the prompt; pairs are only formed within a group. */
  group: number | string;
  completion: T;
  reward: number;
}

export interface PreferencePair<T> {
  group: number | string;
  chosen: T;
  rejected: T;
  chosenReward: number;
  rejectedReward: number;
}

/**
 * Pairs completions of the same prompt: best with worst, second best with second worst, … each completion used at
 * most once, keeping a pair only if the chosen reward exceeds the rejected one by at least `minMargin` (default
 * 1e-6, so ties never make a pair). With 0/1 correctness rewards this gives chosen = correct, rejected = incorrect.
 * Deterministic: order within equal rewards follows input order. Groups appear in order of first appearance.
 */
export function buildPreferencePairs<T>(
  samples: ScoredCompletion<T>[],
  opts: { minMargin?: number; maxPairsPerGroup?: number } = {},
): PreferencePair<T>[] {
  const minMargin = opts.minMargin ?? 1e-6;
  const maxPairs = opts.maxPairsPerGroup ?? Infinity;
  const groups = new Map<number | string, ScoredCompletion<T>[]>();
  for (const s of samples) {
    const g = groups.get(s.group) ?? [];
    g.push(s);
    groups.set(s.group, g);
  }
  const pairs: PreferencePair<T>[] = [];
  for (const [group, members] of groups) {
    const sorted = [...members].sort((a, b) => b.reward - a.reward); // stable: ties keep input order
    for (let i = 0, j = sorted.length - 1, n = 0; i < j && n < maxPairs; i++, j--, n++) {
      const [hi, lo] = [sorted[i], sorted[j]];
      if (hi.reward - lo.reward < minMargin) break; // the remaining pairs are closer still
      pairs.push({ group, chosen: hi.completion, rejected: lo.completion, chosenReward: hi.reward, rejectedReward: lo.reward });
    }
  }
  return pairs;
}

/** A plausible wrong answer: a forgotten carry, or off by one in a digit. Never equals the true answer. */
export function wrongAnswer(p: Problem, rng: Rng): string {
  const truth = Number(p.answer);
  const candidates = [truth + 1, truth - 1, truth + 10, truth - 10];
  if (p.op === '+') {
    // Adding column by column without carrying: 47+85 → 22 (7+5 → 2, 4+8 → 2), written as digits.
    let noCarry = 0;
    for (let i = 0, a = p.a, b = p.b; a > 0 || b > 0; i++, a = Math.floor(a / 10), b = Math.floor(b / 10)) {
      noCarry += ((a % 10) + (b % 10)) % 10 * 10 ** i;
    }
    if (noCarry !== truth) candidates.push(noCarry, noCarry, noCarry); // the most common slip, weighted
  }
  const valid = candidates.filter((c) => c !== truth && (c >= 0 || p.op === '-'));
  return String(valid[rng.int(valid.length)]);
}

/**
 * Offline DPO data without sampling a model: chosen = the reference completion, rejected = the same format with a
 * {@link wrongAnswer}. Token ids include EOS on both completions; the prompt includes BOS.
 */
export function offlinePreferencePairs(
  task: ArithmeticTask,
  n: number,
  rng: Rng,
): { problem: Problem; prompt: number[]; chosen: number[]; rejected: number[] }[] {
  return task.sample('train', n, rng).map((p) => {
    const wrong = wrongAnswer(p, rng);
    const work = p.completion.slice(0, p.completion.indexOf('####'));
    const rejectedText = `${work}#### ${wrong}`;
    return {
      problem: p,
      prompt: task.encodePrompt(p),
      chosen: task.encodeCompletion(p),
      rejected: [...task.tokenizer.encode(rejectedText), task.tokenizer.eos],
    };
  });
}
