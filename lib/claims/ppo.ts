/** The PPO lab's claims: its presets' descriptions and what chapter 4 says its runs show. */
import type { LogLine } from '@/lib/train/run';
import { evals, f, mean, pct, series } from './history';
import { checkByPrediction, oneRun } from './predict';
import type { Claim, Prediction } from './types';

const solvesTheGrid: Prediction = {
  presets: ['default'],
  question: 'With the defaults, the greedy policy first reaches the goal (return at least 0.9)',
  choices: [
    { id: 'early', label: 'by update 5' },
    { id: 'mid', label: 'at update 6 to 10' },
    { id: 'late', label: 'after update 10, or not within 20' },
  ],
  claimed: 'mid',
  reads: ['eval/return'],
  steps: 20,
  seeds: [0],
  why: 'At first few sampled episodes reach the goal, so there is little return for the advantages to point at. Once some do, GAE carries that return back along their steps, and each clipped update, a bounded step, turns the greedy choice a little further towards the path, so it takes a handful of updates rather than one.',
  section: { file: '04-ppo.mdx', chapter: 'ppo', heading: 'Lab: PPO in a grid world', anchor: 'lab-ppo-in-a-grid-world' },
  verdict: (run) => {
    const seen = evals(run).filter((l) => l.step <= 20);
    const solved = seen.find((l) => l.metrics['eval/return'] >= 0.9);
    const reached = seen.at(-1)?.step ?? 0;
    // Solved early is measured however short the run; not solved yet is only measured once update 20 is evaluated.
    if (!solved && reached < 20) throw new Error(`this run's last evaluation is at update ${reached}; the claim reads it through update 20`);
    return { held: solved !== undefined && solved.step >= 6 && solved.step <= 10, measured: solved ? `greedy return ${f(solved.metrics['eval/return'], 2)} at update ${solved.step}` : 'not solved in 20 updates' };
  },
  cases: oneRun(),
};

/** The seeds a chaotic claim is checked on: an aggressive update's outcome differs from seed to seed. */
const SEEDS = [0, 1, 2] as const;

export const claims: readonly Claim[] = [
  {
    id: 'ppo-clip-fraction-grows-with-lr',
    text: 'PPO’s clip fraction grows with the learning rate (3e-4, 3e-3, 3e-2).',
    where: 'chapter 4; ppo lab',
    runs: {
      slow: { trainer: 'ppo', overrides: { learning_rate: 3e-4 }, steps: 10, evalEvery: 10 },
      mid: { trainer: 'ppo', overrides: { learning_rate: 3e-3 }, steps: 10, evalEvery: 10 },
      fast: { trainer: 'ppo', overrides: { learning_rate: 3e-2 }, steps: 10, evalEvery: 10 },
    },
    check: ({ slow, mid, fast }) => {
      const c = [slow, mid, fast].map((h) => mean(h, 'policy/clipfrac_avg'));
      return { holds: c[0] < c[1] && c[1] < c[2], figure: `mean policy/clipfrac_avg ${c.map((x) => pct(x)).join(' < ')}` };
    },
  },
  {
    id: 'ppo-without-clipping-is-unstable',
    text: 'Without clipping, the same aggressive update moves the policy 10× further per update (peak approx KL) and collapses it onto one action on every seed (0–2); with the clip each seed learns the grid.',
    where: 'ppo presets no_clipping, aggressive_clipped; chapter 4',
    runs: Object.fromEntries(
      SEEDS.flatMap((seed) => [
        [`unclipped/${seed}`, { trainer: 'ppo', preset: 'no_clipping', overrides: { seed }, steps: 30, evalEvery: 2 }],
        [`clipped/${seed}`, { trainer: 'ppo', preset: 'aggressive_clipped', overrides: { seed }, steps: 30, evalEvery: 2 }],
      ]),
    ),
    check: (runs) => {
      const kl = (h: LogLine[]) => Math.max(...series(h, 'policy/approxkl_avg'));
      const best = (h: LogLine[]) => Math.max(...evals(h).map((l) => l.metrics['eval/return']));
      const rows = SEEDS.map((seed) => {
        const [unclipped, clipped] = [runs[`unclipped/${seed}`], runs[`clipped/${seed}`]];
        return { ratio: kl(unclipped) / kl(clipped), entropy: mean(unclipped, 'policy/entropy_avg', 10), clippedBest: best(clipped), unclippedLast: evals(unclipped).at(-1)!.metrics['eval/return'] };
      });
      return {
        holds: rows.every((r) => r.ratio > 10 && r.entropy < 0.05 && r.clippedBest > 0.9),
        figure: rows
          .map((r, i) => `seed ${SEEDS[i]}: peak KL ×${f(r.ratio, 0)}, final entropy ${f(r.entropy, 3)}, last greedy return ${f(r.unclippedLast, 2)} unclipped, best ${f(r.clippedBest, 2)} clipped`)
          .join('; '),
      };
    },
  },
  {
    id: 'ppo-default-solves-the-grid',
    text: 'The defaults solve the 5×5 map within about 6–10 updates (greedy return ≥ 0.9).',
    where: 'ppo preset default; chapter 4',
    runs: { run: { trainer: 'ppo', steps: 20, evalEvery: 2 } },
    prediction: solvesTheGrid,
    check: checkByPrediction(solvesTheGrid),
  },
  {
    id: 'ppo-lr-too-high-turns-deterministic',
    text: 'At learning rate 0.1 each of the first 10 updates moves the policy over 20× further (peak approx KL) than at the default, and the policy may touch the goal but does not keep it: by update 30 the entropy is about 0 and the greedy return −0.40 on every seed (0–2), where the default holds the goal.',
    where: 'ppo preset lr_too_high; chapter 4',
    runs: Object.fromEntries(
      SEEDS.flatMap((seed) => [
        [`high/${seed}`, { trainer: 'ppo', preset: 'lr_too_high', overrides: { seed }, steps: 30, evalEvery: 2 }],
        [`base/${seed}`, { trainer: 'ppo', overrides: { seed }, steps: 30, evalEvery: 2 }],
      ]),
    ),
    check: (runs) => {
      const last = (h: LogLine[]) => evals(h).at(-1)!.metrics['eval/return'];
      const rows = SEEDS.map((seed) => {
        const [high, base] = [runs[`high/${seed}`], runs[`base/${seed}`]];
        // Chapter 4 quotes how much further each update moves the policy in the first 10 updates.
        const peakKl = (h: LogLine[]) => Math.max(...series(h, 'policy/approxkl_avg').slice(0, 10));
        return { entropy: series(high, 'policy/entropy_avg').at(-1)!, last: last(high), best: Math.max(...evals(high).map((l) => l.metrics['eval/return'])), base: last(base), kl: peakKl(high) / peakKl(base) };
      });
      return {
        holds: rows.every((r) => r.entropy < 0.01 && r.last < 0 && r.base > 0.9 && r.kl > 20),
        figure: rows.map((r, i) => `seed ${SEEDS[i]}: peak KL in 10 updates ×${f(r.kl, 0)} the default's, entropy ${f(r.entropy, 3)}, greedy return best ${f(r.best, 2)} → last ${f(r.last, 2)} (default ${f(r.base, 2)})`).join('; '),
      };
    },
  },
  {
    id: 'ppo-pocket-is-found',
    text: 'In the pocket map the greedy policy reaches the goal within about 10 updates with 5× the entropy bonus, and the default bonus gets there too on this seed, two updates later.',
    where: 'ppo preset pocket',
    runs: { bonus: { trainer: 'ppo', preset: 'pocket', steps: 20, evalEvery: 2 }, plain: { trainer: 'ppo', preset: 'pocket', overrides: { ent_coef: 0.01 }, steps: 20, evalEvery: 2 } },
    check: ({ bonus, plain }) => {
      const first = (h: LogLine[]) => evals(h).find((l) => l.metrics['eval/return'] > 0.9)?.step ?? Infinity;
      return { holds: first(bonus) <= 12 && first(plain) - first(bonus) === 2, figure: `goal first reached at update ${first(bonus)} (ent_coef 0.05) and ${first(plain)} (0.01)` };
    },
  },
  {
    id: 'ppo-cartpole-reaches-500',
    text: 'CartPole: a greedy episode lasts all 500 steps within about 10 updates.',
    where: 'ppo preset cartpole',
    runs: { run: { trainer: 'ppo', preset: 'cartpole', steps: 20, evalEvery: 5 } },
    check: ({ run }) => {
      const first = evals(run).find((l) => l.metrics['eval/return'] >= 500)?.step;
      return { holds: first !== undefined && first <= 15, figure: first === undefined ? 'never 500 in 20 updates' : `500 steps first at update ${first}` };
    },
  },
];
