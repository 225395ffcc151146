/**
 * Each code exercise's random case: the arguments of one call, in the order of its `params` (content/exercises.ts).
 * Code, not data, so it lives here rather than beside the statements; the table is keyed by every exercise id, so a
 * new exercise without a case generator does not compile.
 */
import type { ExerciseId } from '@/content/exercise-ids';
import type { Rng } from '@/lib/random';
import { between, normal, pick, prefixMask, round, times, uniform } from './draw';

/** A token's log-probability under a policy: negative, never quite 0. */
const logp = (rng: Rng) => uniform(rng, -3, -0.05);

const CASES: Record<ExerciseId, (rng: Rng) => unknown[]> = {
  'lora-forward': (rng) => {
    const [din, dout, r] = [between(rng, 2, 5), between(rng, 2, 5), between(rng, 1, 3)];
    const matrix = (rows: number, cols: number) => times(rows, () => times(cols, () => normal(rng, 0.5)));
    return [matrix(dout, din), matrix(r, din), matrix(dout, r), times(din, () => normal(rng)), pick(rng, [1, 2, 4, 8, 16])];
  },
  'discounted-returns': (rng) => {
    const T = between(rng, 1, 10);
    const sparse = rng.next() < 0.5;
    const rewards = times(T, () => (sparse ? (rng.next() < 0.25 ? pick(rng, [1, -1]) : 0) : uniform(rng, -1, 1)));
    return [rewards, uniform(rng, 0.8, 1)];
  },
  gae: (rng) => {
    const T = between(rng, 1, 8);
    const rewards = times(T, () => (rng.next() < 0.5 ? 0 : uniform(rng, -1, 1)));
    const values = times(T + 1, () => uniform(rng, -1, 1));
    return [rewards, values, uniform(rng, 0.9, 1), uniform(rng, 0.5, 1)];
  },
  'clipped-surrogate': (rng) => {
    const T = between(rng, 1, 8);
    const old = times(T, () => logp(rng));
    return [old.map((o) => round(o + uniform(rng, -0.5, 0.5))), old, times(T, () => normal(rng)), pick(rng, [0.1, 0.2, 0.3])];
  },
  'dpo-loss': (rng) => {
    const B = between(rng, 1, 6);
    const sums = () => times(B, () => uniform(rng, -40, -2));
    return [sums(), sums(), sums(), sums(), pick(rng, [0.05, 0.1, 0.2, 0.5])];
  },
  'grpo-advantages': (rng) => {
    const [P, G] = [between(rng, 1, 4), between(rng, 2, 6)];
    const binary = rng.next() < 0.5;
    return [times(P * G, () => (binary ? rng.int(2) : uniform(rng, 0, 1))), G];
  },
  'k3-kl': (rng) => {
    const T = between(rng, 1, 8);
    const lps = times(T, () => uniform(rng, -4, -0.01));
    return [lps, lps.map((lp) => Math.min(-0.01, round(lp + uniform(rng, -1, 1))))];
  },
  'loss-aggregation': (rng) => {
    const [N, T] = [between(rng, 1, 4), between(rng, 2, 8)];
    return [times(N, () => normal(rng)), prefixMask(rng, N, T), pick(rng, ['grpo', 'dapo', 'dr_grpo'])];
  },
  'gspo-loss': (rng) => {
    const [N, T] = [between(rng, 1, 4), between(rng, 2, 6)];
    const tiny = rng.next() < 0.4; // GSPO's own clip range, with sequence ratios this close to 1
    const spread = tiny ? 0.002 : 0.3;
    const old = times(N, () => times(T, () => logp(rng)));
    const logps = old.map((row) => row.map((o) => round(o + uniform(rng, -spread, spread, 4), 4)));
    const [lo, hi] = tiny ? [3e-4, 4e-4] : pick(rng, [[0.2, 0.2], [0.2, 0.28]] as const);
    return [logps, old, prefixMask(rng, N, T), times(N, () => normal(rng)), lo, hi];
  },
};

/** One random case of exercise `id`, drawn from `rng`. */
export function drawCase(id: ExerciseId, rng: Rng): unknown[] {
  return CASES[id](rng);
}
