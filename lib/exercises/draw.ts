/**
 * Small seeded draws for exercise cases (cases.ts): every number is rounded to a few decimals, so the
 * inputs a reader sees in a failing case are short enough to read and to paste back into a console.
 */
import type { Rng } from '@/lib/random';

/** x rounded to `digits` decimals, with no "-0". */
export const round = (x: number, digits = 2) => {
  const r = Number(x.toFixed(digits));
  return r === 0 ? 0 : r;
};

/** Uniform in [lo, hi), rounded. */
export const uniform = (rng: Rng, lo: number, hi: number, digits = 2) => round(lo + (hi - lo) * rng.next(), digits);

/** Uniform integer in [lo, hi]. */
export const between = (rng: Rng, lo: number, hi: number) => lo + rng.int(hi - lo + 1);

/** One of `choices`. */
export const pick = <T>(rng: Rng, choices: readonly T[]): T => choices[rng.int(choices.length)];

/** n draws of `f`. */
export const times = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

/** A standard normal, rounded. */
export const normal = (rng: Rng, scale = 1, digits = 2) => round(scale * rng.normal(), digits);

/** A completion mask of B rows of T: each row a prefix of 1s (at least one real token), then padding 0s. */
export const prefixMask = (rng: Rng, B: number, T: number) =>
  times(B, () => {
    const length = between(rng, 1, T);
    return times(T, (t) => (t < length ? 1 : 0));
  });
