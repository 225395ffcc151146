/**
 * Reward functions, TRL-style: pure `(completions, context) => number[]`, one number per completion.
 * Completions are decoded text without specials (tokenizer.decode stops at EOS), e.g. "#### 52" or "12,5 #### 52".
 */

export interface RewardContext {
  /** The prompt per completion, e.g. "07+45=" (what a reader's reward function receives as ctx.prompts). */
  prompts?: string[];
  /** The true answer per completion, e.g. "52". */
  answers: string[];
  /** The reference completion per completion (used by lengthPenalty; defaults to "#### <answer>"). */
  references?: string[];
  /** True where generation hit max_completion_length without EOS (format reward then gives 0). */
  truncated?: boolean[];
  /** Completion lengths in tokens, EOS included (what length-based rewards read). */
  lengths?: number[];
}

export type RewardFunction = (completions: string[], context: RewardContext) => number[];

/** "#### <integer>" at the very end, optionally after some work separated by a space; nothing after the number. */
const FORMAT = /^(?:[^#]* )?#### (-?\d+)$/;

/** The integer after the first "####", or null. Lenient about what follows, so correctness ≠ format. */
export function parseAnswer(completion: string): string | null {
  const m = /####\s*(-?\d+)/.exec(completion);
  return m ? m[1] : null;
}

const sameNumber = (a: string, b: string) => /^-?\d+$/.test(b) && BigInt(a) === BigInt(b);

/** 1 if the parsed answer equals the true answer as an integer ("052" counts as 52), else 0. */
export const correctnessReward: RewardFunction = (completions, { answers }) =>
  completions.map((c, i) => {
    const got = parseAnswer(c);
    return got != null && sameNumber(got, answers[i]) ? 1 : 0;
  });

/** 1 if the completion is well-formed ("[work ]#### <integer>", then EOS), else 0. Says nothing about correctness. */
export const formatReward: RewardFunction = (completions, { truncated }) =>
  completions.map((c, i) => (!truncated?.[i] && FORMAT.test(c) ? 1 : 0));

/**
 * A length penalty in [−1, 0]: 0 up to the reference completion's length, then −(extra characters / reference
 * length), floored at −1. It pays nothing for being short (use it beside correctness, never alone: alone, it is
 * maximised by answering nothing). Discourages padding the answer, the lever a policy pulls against
 * {@link hackableDigitReward}.
 */
export const lengthPenalty: RewardFunction = (completions, { answers, references }) =>
  completions.map((c, i) => {
    const ref = (references?.[i] ?? `#### ${answers[i]}`).length;
    const extra = c.length - ref;
    return extra <= 0 ? 0 : Math.max(-1, -extra / ref);
  });

/**
 * DELIBERATELY FLAWED, for the reward-hacking demo. Gives 1 when every digit of the true answer appears somewhere
 * in the answer after "####" (in any order, any number of times), meant as "partial credit for the right digits".
 * The exploit: an answer that contains all ten digits, e.g. "#### 1234567890", scores 1 on every problem, so a
 * policy optimised against this reward learns to lengthen its answers and cover more digits, while correctness
 * falls. Needs max_completion_length ≥ 16 for the full exploit ("#### " + 10 digits + EOS); shorter limits still
 * reward covering as many digits as fit. Watch correctnessReward diverge from this one.
 */
export const hackableDigitReward: RewardFunction = (completions, { answers }) =>
  completions.map((c, i) => {
    const got = /####\s*(-?\d+)/.exec(c)?.[1];
    if (got == null) return 0;
    return [...answers[i].replace('-', '')].every((d) => got.includes(d)) ? 1 : 0;
  });

/**
 * DELIBERATELY FLAWED, for the reward-hacking demo: a verifier with a comparison bug (>= where == was meant).
 * Any parsed answer at least as large as the truth scores 1. The exploit needs no new skill, only a shift the
 * policy can already sample: over-estimates score like correct answers while under-estimates score 0, so the
 * answers drift upwards, the training reward rises, and held-out accuracy falls. Samples show it plainly:
 * "#### 97" for 45+12 earns full marks.
 */
export const atLeastReward: RewardFunction = (completions, { answers }) =>
  completions.map((c, i) => {
    const got = parseAnswer(c);
    return got != null && BigInt(got) >= BigInt(answers[i]) ? 1 : 0;
  });

/**
 * DAPO's soft overlong punishment (DAPO eq. 13; TRL v1.13 `get_soft_overlong_punishment(max_completion_len,
 * soft_punish_cache)`): 0 while |y| ≤ L_max − L_cache, then ((L_max − L_cache) − |y|) / L_cache down to −1 at L_max,
 * and −1 beyond. |y| is the completion's length in tokens, EOS included, as TRL counts completion ids.
 */
export function softOverlongPunishment(maxCompletionLength: number, softPunishCache: number): RewardFunction {
  const threshold = maxCompletionLength - softPunishCache;
  return (completions, { lengths }) =>
    completions.map((_, i) => {
      const n = lengths?.[i];
      if (n === undefined) throw new Error('softOverlongPunishment needs the completion lengths (RewardContext.lengths)');
      if (n <= threshold) return 0;
      return n <= maxCompletionLength ? (threshold - n) / softPunishCache : -1;
    });
}

/** Weighted sum of reward functions (as TRL's reward_weights): Σ_k w_k · r_k. */
export function combineRewards(parts: { fn: RewardFunction; weight: number }[]): RewardFunction {
  return (completions, ctx) => {
    const total = completions.map(() => 0);
    for (const { fn, weight } of parts) fn(completions, ctx).forEach((r, i) => (total[i] += weight * r));
    return total;
  };
}
