/**
 * Every claim the course makes about a run — each preset's description, each "this lab shows X" in a chapter — as a
 * seeded run on wasm and an assertion on what it logged. `npm run claims` runs them all; the ones marked `fast` also
 * run inside `npm test` (tests/unit/claims.test.ts). A claim that fails at this scale is rewritten to what is measured,
 * never loosened until it passes.
 */
import fs from 'node:fs';
import type { RewardExampleName } from '@/lib/tasks/custom-reward';
import type { TrainerName } from '@/lib/spec/registry';
import type { LogLine } from '@/lib/train/run';
import { finalMetrics, planSweep, summarize, type SweepAxis } from '@/lib/train/sweep';

export interface ClaimRun {
  trainer: TrainerName;
  preset?: string;
  /** One of the reward editor's examples as the reader's reward function, with its weight (run in the Node sandbox). */
  reward?: { example: RewardExampleName; weight: number };
  overrides?: Record<string, unknown>;
  steps: number;
  evalEvery: number;
}

export interface Verdict {
  holds: boolean;
  /** The measured figures behind the verdict, one line. */
  figure: string;
}

export interface Claim {
  id: string;
  /** The sentence being checked, and where it is written. */
  text: string;
  where: string;
  fast?: boolean;
  runs: Record<string, ClaimRun>;
  check(history: Record<string, LogLine[]>): Verdict;
}

// ---- reading a run's history

const evals = (h: LogLine[]) => h.filter((l) => l.kind === 'eval');
const trains = (h: LogLine[]) => h.filter((l) => l.kind === 'train');
const evalAt = (h: LogLine[], step: number) => {
  const line = evals(h).find((l) => l.step === step);
  if (!line) throw new Error(`no evaluation at step ${step}`);
  return line.metrics;
};
const last = (h: LogLine[]) => evals(h).at(-1)!.metrics;
/** Mean of a training metric over the steps that logged it (optionally only the last n). */
const mean = (h: LogLine[], metric: string, lastN?: number) => {
  const values = trains(h).flatMap((l) => (metric in l.metrics ? [l.metrics[metric]] : []));
  const xs = lastN ? values.slice(-lastN) : values;
  return xs.reduce((a, b) => a + b, 0) / xs.length;
};
const series = (h: LogLine[], metric: string) => trains(h).map((l) => l.metrics[metric]);
const firstSteps = (h: LogLine[], n: number) => trains(h).slice(0, n);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const f = (x: number, digits = 3) => x.toFixed(digits);

/** Seeds a chapter's figures are averaged over (or a claim must hold on each of). */
const SEEDS = [0, 1, 2] as const;
/** A self_improve run as the lab runs it: max_steps rounds (round 0 is SFT on the demonstrations), evaluated after each. */
const selfImprove = (preset: string): ClaimRun => ({ trainer: 'self_improve', preset, steps: SELF_IMPROVE_ROUNDS, evalEvery: 1 });
const SELF_IMPROVE_ROUNDS = 6;
/** eval/accuracy_target after round 0 (the first step) and after the last round. */
const targetAfterRounds = (h: LogLine[]) => [evalAt(h, 1)['eval/accuracy_target'], last(h)['eval/accuracy_target']] as const;
const roundSeries = (h: LogLine[], metric: string) => trains(h).filter((l) => metric in l.metrics).map((l) => l.metrics[metric]);

/** A vision run as the lab runs it (1,600 steps, SFT's 800 included), evaluated every 200 steps, so at the end of SFT too. */
const VISION_SFT_STEPS = 800;
const VISION_STEPS = 1600;
const vision = (preset: string, seed: number): ClaimRun => ({ trainer: 'vision', preset, overrides: { seed }, steps: VISION_STEPS, evalEvery: 200 });

const grpo = (steps: number, overrides: Record<string, unknown> = {}, preset?: string): ClaimRun => ({ trainer: 'grpo', preset, overrides, steps, evalEvery: steps });

/**
 * Whether a chapter prints `snippet` word for word. The claims below build their chapter's sentences and tables from
 * the numbers they measure: a number changed in the prose, or a run that now gives another one, fails the claim.
 */
const prints = (chapter: string, snippet: string) => fs.readFileSync(`content/chapters/${chapter}`, 'utf8').includes(snippet);
const printedFigure = (chapter: string, snippet: string) => (prints(chapter, snippet) ? '' : `; ${chapter} does not print: ${snippet}`);
/** A share as chapter prose writes it: percent to one decimal, no trailing zero ("28", "99.5"). */
const prosePct = (x: number) => String(Math.round(1000 * x) / 10);
/** Chapter 10's teams section: its sentences rebuilt from the team claims' runs (was a 64 s content test; now here). */
const TEAMS_CHAPTER = '10-beyond-the-calculator.mdx';
/** Chapter 10's perception section and chapter 1's Perception row, rebuilt the same way from the vision claims' runs. */
const VISION_CHAPTER = TEAMS_CHAPTER;
/** "50%, 48.2% and 44.8%": a list as the prose writes it. */
const proseList = (items: string[]) => items.join(', ').replace(/, ([^,]*)$/, ' and $1');
/** A difference of two shares in points, to one decimal ("15.6"). */
const prosePoints = (a: number, b: number) => String(Math.round(1000 * (a - b)) / 10);

/** Chapter 7's sweep: learning_rate × three seeds, 20 GRPO steps each from the SFT checkpoint, planned as `npm run sweep` plans it. */
const LR_AXIS: SweepAxis = { field: 'learning_rate', values: [1e-4, 3e-4, 1e-3] };
const LR_LABEL: Record<number, string> = { 1e-4: '1e-4', 3e-4: '3e-4', 1e-3: '1e-3' };
const LR_SWEEP = planSweep({}, [LR_AXIS], [0, 1, 2]);
const sweepKey = (values: unknown[], seed: number) => `lr=${String(values[0])}/seed=${seed}`;

export const CLAIMS: Claim[] = [
  {
    id: 'grpo-lifts-accuracy',
    text: 'GRPO from the SFT checkpoint lifts held-out accuracy from 27.5% within 20 steps.',
    where: 'grpo preset default; chapters 6 and 7',
    fast: true,
    runs: { run: grpo(20) },
    check: ({ run }) => {
      const [a0, a20] = [evalAt(run, 0)['eval/accuracy'], evalAt(run, 20)['eval/accuracy']];
      return { holds: a0 === 0.275 && a20 > a0 + 0.1, figure: `${pct(a0)} → ${pct(a20)} at step 20` };
    },
  },
  {
    id: 'grpo-beta-keeps-kl-small',
    text: 'A larger β keeps the KL to the reference smaller (β = 0.04 against 0.4).',
    where: 'grpo preset kl',
    fast: true,
    runs: { small: grpo(20, { beta: 0.04 }), large: grpo(20, { beta: 0.4 }) },
    check: ({ small, large }) => {
      const [k1, k2] = [mean(small, 'kl'), mean(large, 'kl')];
      return { holds: k2 < k1, figure: `mean kl ${f(k1, 4)} at β 0.04, ${f(k2, 4)} at β 0.4` };
    },
  },
  {
    id: 'grpo-on-policy-ratio-is-one',
    text: 'With one update per generation batch the ratio is exactly 1, so no clip acts (clip_ratio/* is 0 on every step).',
    where: 'grpo num_iterations / steps_per_generation reasons; chapters 6 and 8',
    fast: true,
    runs: { run: grpo(20, { epsilon_high: 0.28 }) },
    check: ({ run }) => {
      const clipped = [...series(run, 'clip_ratio/high_mean'), ...series(run, 'clip_ratio/low_mean')];
      return { holds: clipped.every((x) => x === 0), figure: `largest clip ratio over 20 steps: ${Math.max(...clipped)}` };
    },
  },
  {
    id: 'grpo-clip-higher-acts-off-policy',
    text: 'Off-policy (steps_per_generation = 4) the ratio leaves 1, clip_ratio/high_mean rises above 0, and ε_high = 0.28 changes the run against 0.2.',
    where: 'grpo preset dapo_clip_higher',
    fast: true,
    runs: { high: grpo(20, {}, 'dapo_clip_higher'), symmetric: grpo(20, { epsilon_high: 0.2 }, 'dapo_clip_higher') },
    check: ({ high, symmetric }) => {
      const [h, s] = [mean(high, 'clip_ratio/high_mean'), mean(symmetric, 'clip_ratio/high_mean')];
      const differs = series(high, 'loss').some((x, i) => x !== series(symmetric, 'loss')[i]);
      return { holds: h > 0 && s > 0 && h < s && differs, figure: `clip_ratio/high_mean ${pct(h)} at ε_high 0.28 vs ${pct(s)} at 0.2; losses differ: ${differs}` };
    },
  },
  {
    id: 'gspo-equals-grpo-on-policy-differs-off-policy',
    text: 'On-policy GSPO trains exactly as GRPO (the same losses, step for step); off-policy it clips whole sequences and the runs differ.',
    where: 'grpo preset gspo; chapters 6 and 8',
    fast: true,
    runs: {
      gspoOn: grpo(8, { importance_sampling_level: 'sequence', loss_type: 'grpo' }),
      grpoOn: grpo(8, { loss_type: 'grpo' }),
      gspoOff: grpo(20, {}, 'gspo'),
      grpoOff: grpo(20, {}, 'grpo_paper'),
    },
    check: ({ gspoOn, grpoOn, gspoOff, grpoOff }) => {
      const same = series(gspoOn, 'loss').every((x, i) => Math.abs(x - series(grpoOn, 'loss')[i]) < 1e-6);
      const clipped = mean(gspoOff, 'clip_ratio/region_mean');
      const differs = series(gspoOff, 'loss').some((x, i) => Math.abs(x - series(grpoOff, 'loss')[i]) > 1e-6);
      return { holds: same && clipped > 0 && differs, figure: `on-policy losses equal: ${same}; off-policy clipped ${pct(clipped)} of sequences, runs differ: ${differs}` };
    },
  },
  {
    id: 'dr-grpo-length-of-incorrect-answers',
    text: 'Dr. GRPO against loss_type grpo: at this scale the answer format fixes the length, and incorrect answers’ mean length differs by less than half a token.',
    where: 'chapter 8 (the variant comparison); grpo presets dr_grpo, grpo_paper',
    runs: { dr: grpo(60, {}, 'dr_grpo'), paper: grpo(60, {}, 'grpo_paper') },
    check: ({ dr, paper }) => {
      const [d, p] = [mean(dr, 'completions/mean_length_incorrect', 20), mean(paper, 'completions/mean_length_incorrect', 20)];
      return { holds: Math.abs(d - p) < 0.5, figure: `incorrect answers, last 20 steps: ${f(d, 2)} tokens (dr_grpo) vs ${f(p, 2)} (grpo)` };
    },
  },
  {
    id: 'dapo-dynamic-sampling-drops-equal-groups',
    text: 'DAPO’s dynamic sampling drops groups whose completions all score the same and samples more, and the run still lifts accuracy.',
    where: 'grpo preset dapo',
    runs: { run: grpo(20, {}, 'dapo') },
    check: ({ run }) => {
      const kept = mean(run, 'dynamic_sampling/kept_fraction');
      const [a0, a20] = [evalAt(run, 0)['eval/accuracy'], evalAt(run, 20)['eval/accuracy']];
      return { holds: kept < 1 && a20 > a0, figure: `kept ${pct(kept)} of sampled groups; accuracy ${pct(a0)} → ${pct(a20)}` };
    },
  },
  {
    id: 'grpo-lr-too-high',
    text: 'A learning rate of 1e-3 is below the SFT model’s 27.5% within 10 steps, and ends below it and below the default run.',
    where: 'grpo preset lr_too_high; chapters 6 and 7',
    runs: { high: { ...grpo(40, {}, 'lr_too_high'), evalEvery: 10 }, base: grpo(40) },
    check: ({ high, base }) => {
      const [h10, h, b] = [evalAt(high, 10)['eval/accuracy'], last(high)['eval/accuracy'], last(base)['eval/accuracy']];
      return { holds: h10 < 0.275 && h < 0.275 && h < b, figure: `${pct(h10)} at step 10 and ${pct(h)} at step 40 at lr 1e-3, vs ${pct(b)} at the default` };
    },
  },
  {
    id: 'grpo-reward-hacking',
    text: 'Against the >= verifier the training reward climbs towards its maximum of 1.2 while held-out accuracy falls to 0.',
    where: 'grpo preset reward_hacking; chapter 6',
    runs: { run: grpo(40, {}, 'reward_hacking') },
    check: ({ run }) => {
      const [r0, r1] = [mean(firstSteps(run, 6), 'reward'), mean(run, 'reward', 5)];
      const acc = last(run)['eval/accuracy'];
      return { holds: r1 > r0 && r1 > 0.8 && acc < 0.05, figure: `reward ${f(r0, 2)} → ${f(r1, 2)}; held-out accuracy ${pct(acc)} at step 40` };
    },
  },
  {
    id: 'grpo-custom-reward-hack',
    text: 'The reward editor’s hackable example (>= where === was meant), as the only correctness reward: rewards/custom/mean climbs while held-out accuracy falls to 0 by step 10; chapter 6 prints the figures.',
    where: 'chapter 6 (writing your own reward); the reward editor’s hackable example',
    fast: true,
    runs: { run: { trainer: 'grpo', overrides: { reward_weight_correctness: 0 }, reward: { example: 'hackable', weight: 1 }, steps: 20, evalEvery: 10 } },
    check: ({ run }) => {
      const [c1, c20] = [mean(firstSteps(run, 1), 'rewards/custom/mean'), mean(run, 'rewards/custom/mean', 5)];
      const [a0, a10, a20] = [0, 10, 20].map((s) => evalAt(run, s)['eval/accuracy']);
      const sentence = `the hackable reward's mean (\`rewards/custom/mean\`) went from ${f(c1, 2)} at the first step to ${f(c20, 2)} over the last five, while held-out accuracy fell from ${pct(a0)} to ${pct(a10)} at step 10 and ${pct(a20)} at step 20`;
      return {
        holds: c20 > c1 + 0.3 && a10 < 0.02 && a20 < 0.02 && prints('06-grpo.mdx', sentence),
        figure: `rewards/custom/mean ${f(c1, 2)} → ${f(c20, 2)}; held-out accuracy ${pct(a0)} → ${pct(a10)} (step 10) → ${pct(a20)} (step 20)${printedFigure('06-grpo.mdx', sentence)}`,
      };
    },
  },
  {
    id: 'grpo-lr-sweep-seed-variance',
    text: 'A learning-rate sweep over three seeds: 1e-4 and 3e-4 overlap within their seed-to-seed spread (one seed ranks them one way, another the other), while 1e-3 is far below both; chapter 7 prints the table.',
    where: 'chapter 7 (sweeps and seed variance); npm run sweep',
    fast: true,
    runs: Object.fromEntries(LR_SWEEP.map((r) => [sweepKey(r.values, r.seed), { trainer: 'grpo', overrides: { learning_rate: r.values[0], seed: r.seed }, steps: 20, evalEvery: 20 } satisfies ClaimRun])),
    check: (histories) => {
      const results = LR_SWEEP.map((run) => ({ run, state: 'done', metrics: finalMetrics(histories[sweepKey(run.values, run.seed)]) }));
      const groups = summarize(results, 'eval/accuracy');
      const at = (lr: number, seed: number) => groups.find((g) => g.values[0] === lr)!.points.find((p) => p.seed === seed)!.value;
      const rows = groups.map((g) => `| ${LR_LABEL[g.values[0] as number]} | ${g.points.map((p) => pct(p.value)).join(' | ')} | ${pct(g.mean)} ± ${(100 * g.std).toFixed(1)} |`);
      const [lo, mid, hi] = groups;
      // Seed by seed, which of 1e-4 and 3e-4 comes out ahead, and by how much.
      const gaps = [0, 1, 2].map((s) => 100 * (at(3e-4, s) - at(1e-4, s)));
      const sentence = `Seed 0 alone would rank 3e-4 ahead of 1e-4 by ${gaps[0].toFixed(1)} points; seed 1 would rank it behind by ${(-gaps[1]).toFixed(1)}`;
      const printed = [...rows, sentence].filter((s) => !prints('07-pipeline.mdx', s));
      return {
        // "worse than the other two on every seed"; "their means differ by less than either one's standard deviation"
        holds: gaps[0] > 0 && gaps[1] < 0 && Math.abs(mid.mean - lo.mean) < Math.min(lo.std, mid.std) && Math.max(...hi.points.map((p) => p.value)) < Math.min(...[lo, mid].flatMap((g) => g.points.map((p) => p.value))) && printed.length === 0,
        figure: `${groups.map((g) => `${LR_LABEL[g.values[0] as number]}: ${pct(g.mean)} ± ${(100 * g.std).toFixed(1)}`).join('; ')}${printed.length ? `; 07-pipeline.mdx does not print: ${printed.join(' / ')}` : ''}`,
      };
    },
  },
  {
    id: 'dpo-reward-accuracy-rises',
    text: 'DPO’s reward accuracy rises on pairs sampled from the SFT model.',
    where: 'dpo preset default; chapter 5',
    runs: { run: { trainer: 'dpo', steps: 20, evalEvery: 20 } },
    check: ({ run }) => {
      const [a0, a1] = [mean(firstSteps(run, 4), 'rewards/accuracies'), mean(run, 'rewards/accuracies', 4)];
      return { holds: a1 > a0, figure: `rewards/accuracies ${pct(a0)} (first steps) → ${pct(a1)} (last steps)` };
    },
  },
  {
    id: 'dpo-default-peaks-early',
    text: 'Held-out accuracy rises from 27.5% to 41.5% after 20 steps, then falls back to 32.5% at step 40 and 22% at step 60 while the reward margins keep growing.',
    where: 'dpo preset default; chapter 5',
    runs: { run: { trainer: 'dpo', steps: 60, evalEvery: 20 } },
    check: ({ run }) => {
      const a = [0, 20, 40, 60].map((step) => evalAt(run, step)['eval/accuracy']);
      const printed = [0.275, 0.415, 0.325, 0.22];
      const [m0, m1] = [mean(firstSteps(run, 10), 'rewards/margins'), mean(run, 'rewards/margins', 10)];
      return {
        holds: a.every((x, i) => Math.abs(x - printed[i]) < 0.001) && m1 > m0,
        figure: `held-out ${a.map(pct).join(' → ')} at steps 0, 20, 40, 60; mean margin ${f(m0, 2)} (first 10 steps) → ${f(m1, 2)} (last 10)`,
      };
    },
  },
  {
    id: 'dpo-lr-too-high',
    text: 'At a learning rate 10× too high, reward accuracy stays high while the chosen and rejected log-probs fall and held-out accuracy collapses (below 10%).',
    where: 'dpo preset lr_too_high; chapter 5',
    runs: { run: { trainer: 'dpo', preset: 'lr_too_high', steps: 40, evalEvery: 40 } },
    check: ({ run }) => {
      const [c0, c1] = [mean(firstSteps(run, 4), 'logps/chosen'), mean(run, 'logps/chosen', 4)];
      const [r0, r1] = [mean(firstSteps(run, 4), 'logps/rejected'), mean(run, 'logps/rejected', 4)];
      const acc = mean(run, 'rewards/accuracies', 4);
      const [h0, h1] = [evalAt(run, 0)['eval/accuracy'], last(run)['eval/accuracy']];
      return {
        holds: c1 < c0 && r1 < r0 && acc > 0.8 && h1 < 0.1,
        figure: `logps/chosen ${f(c0, 2)} → ${f(c1, 2)}; logps/rejected ${f(r0, 2)} → ${f(r1, 2)}; reward accuracy ${pct(acc)}; held-out ${pct(h0)} → ${pct(h1)}`,
      };
    },
  },
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
    text: 'Without clipping, the same aggressive update blows the KL up, collapses the policy to one action and never reaches the goal; with the clip it learns.',
    where: 'ppo presets no_clipping, aggressive_clipped; chapter 4',
    runs: {
      unclipped: { trainer: 'ppo', preset: 'no_clipping', steps: 30, evalEvery: 2 },
      clipped: { trainer: 'ppo', preset: 'aggressive_clipped', steps: 30, evalEvery: 2 },
    },
    check: ({ unclipped, clipped }) => {
      const kl = (h: LogLine[]) => Math.max(...series(h, 'policy/approxkl_avg'));
      const best = (h: LogLine[]) => Math.max(...evals(h).map((l) => l.metrics['eval/return']));
      const entropy = mean(unclipped, 'policy/entropy_avg', 10);
      return {
        holds: kl(unclipped) > 10 * kl(clipped) && entropy < 0.05 && best(unclipped) < 0 && best(clipped) > 0.9,
        figure: `max approx KL ${f(kl(unclipped), 1)} vs ${f(kl(clipped), 2)}; final entropy ${f(entropy, 3)}; best greedy return ${f(best(unclipped), 2)} vs ${f(best(clipped), 2)}`,
      };
    },
  },
  {
    id: 'ppo-default-solves-the-grid',
    text: 'The defaults solve the 5×5 map within about 6–10 updates (greedy return ≥ 0.9).',
    where: 'ppo preset default; chapter 4',
    runs: { run: { trainer: 'ppo', steps: 20, evalEvery: 2 } },
    check: ({ run }) => {
      const solved = evals(run).find((l) => l.metrics['eval/return'] >= 0.9);
      return { holds: solved !== undefined && solved.step >= 6 && solved.step <= 10, figure: solved ? `greedy return ${f(solved.metrics['eval/return'], 2)} at update ${solved.step}` : 'not solved in 20 updates' };
    },
  },
  {
    id: 'grpo-no-kl-needs-no-reference',
    text: 'With β = 0 there is no KL term and no reference model: no kl metric is logged.',
    where: 'grpo presets default, no_kl',
    fast: true,
    runs: { run: grpo(20) },
    check: ({ run }) => ({ holds: trains(run).every((l) => !('kl' in l.metrics)), figure: `kl logged on ${trains(run).filter((l) => 'kl' in l.metrics).length} of 20 steps` }),
  },
  {
    id: 'ppo-lr-too-high-turns-deterministic',
    text: 'At learning rate 0.1 the policy turns almost deterministic within 10 updates and never reaches the goal.',
    where: 'ppo preset lr_too_high',
    runs: { run: { trainer: 'ppo', preset: 'lr_too_high', steps: 10, evalEvery: 2 } },
    check: ({ run }) => {
      const [e0, e1] = [series(run, 'policy/entropy_avg')[0], series(run, 'policy/entropy_avg').at(-1)!];
      const best = Math.max(...evals(run).map((l) => l.metrics['eval/return']));
      return { holds: e1 < 0.2 && e0 > 1 && best < 0, figure: `entropy ${f(e0, 2)} → ${f(e1, 2)}; best greedy return ${f(best, 2)}` };
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
  {
    id: 'sft-from-base-learns',
    text: 'SFT of the untrained model on addition, full fine-tuning with the defaults, lifts held-out accuracy from 0 within 200 steps.',
    where: 'sft preset default',
    runs: { run: { trainer: 'sft', steps: 200, evalEvery: 200 } },
    check: ({ run }) => {
      const [a0, a1] = [evalAt(run, 0)['eval/accuracy'], last(run)['eval/accuracy']];
      return { holds: a0 < 0.02 && a1 > 0.3, figure: `${pct(a0)} → ${pct(a1)} after 200 steps` };
    },
  },
  {
    id: 'agent-tools-matter',
    text: 'The agent: with the calculator held-out accuracy climbs to above 90% in 10 steps, and it goes from calling the calculator on some problems to calling it on every one; without it the ceiling is at least 20 points lower; with no SFT nothing is learned.',
    where: 'agent presets default, no_tool, from_base; chapter 1; the agent lab’s summary',
    runs: {
      tool: { trainer: 'agent', steps: 10, evalEvery: 10 },
      noTool: { trainer: 'agent', preset: 'no_tool', steps: 30, evalEvery: 30 },
      fromBase: { trainer: 'agent', preset: 'from_base', steps: 10, evalEvery: 10 },
    },
    check: ({ tool, noTool, fromBase }) => {
      const [t, n, b] = [last(tool)['eval/accuracy'], last(noTool)['eval/accuracy'], last(fromBase)['eval/accuracy']];
      const [callsBefore, calls] = [evalAt(tool, 0)['eval/tool_call_rate'], last(tool)['eval/tool_call_rate']];
      return {
        holds: t > 0.9 && callsBefore < 1 && calls === 1 && t - n > 0.2 && b === 0,
        figure: `${pct(t)} with the tool (calls on ${pct(callsBefore)} → ${pct(calls)} of problems), ${pct(n)} without, ${pct(b)} from the untrained model`,
      };
    },
  },
  {
    id: 'agent-masking-bug',
    text: 'Training on the calculator’s tokens raises their log-probability under the policy from about −10 to about −3 nats over 200 steps and, from about step 100, the model writes tool results itself in 35–52% of episodes when no calculator answers.',
    where: 'agent preset train_on_observations; chapter 1',
    runs: { run: { trainer: 'agent', preset: 'train_on_observations', steps: 200, evalEvery: 50 } },
    check: ({ run }) => {
      const lp = series(run, 'observations/mean_logprob');
      const fab = [100, 150, 200].map((step) => evalAt(run, step)['eval/fabricated_result_rate']);
      return {
        holds: lp[0] < -9 && lp[0] > -11 && lp.at(-1)! > -3.5 && lp.at(-1)! < -2.5 && fab.every((x) => x >= 0.35 && x <= 0.52),
        figure: `observations/mean_logprob ${f(lp[0], 1)} → ${f(lp.at(-1)!, 1)}; fabricated results at steps 100, 150, 200: ${fab.map(pct).join(', ')}`,
      };
    },
  },
  {
    id: 'agent-tool-cost',
    text: 'A call that costs more than a right answer earns stops paying: the agent stops calling and accuracy falls to the no-tool level. At a cost of 0.1 calls still pay: it calls on every problem and reaches 98%.',
    where: 'agent preset tool_cost; chapter 1',
    runs: {
      run: { trainer: 'agent', preset: 'tool_cost', steps: 20, evalEvery: 20 },
      noTool: { trainer: 'agent', preset: 'no_tool', steps: 30, evalEvery: 30 },
      cheap: { trainer: 'agent', overrides: { reward_weight_tool_cost: 0.1 }, steps: 10, evalEvery: 10 },
    },
    check: ({ run, noTool, cheap }) => {
      const [m, n, c] = [last(run), last(noTool), last(cheap)];
      return {
        holds: m['eval/tool_call_rate'] === 0 && Math.abs(m['eval/accuracy'] - n['eval/accuracy']) < 0.05 && c['eval/tool_call_rate'] === 1 && c['eval/accuracy'] >= 0.975,
        figure: `cost 1.5: call rate ${pct(m['eval/tool_call_rate'])}, accuracy ${pct(m['eval/accuracy'])} at step 20 (no tool: ${pct(n['eval/accuracy'])}); cost 0.1: call rate ${pct(c['eval/tool_call_rate'])}, accuracy ${pct(c['eval/accuracy'])} at step 10`,
      };
    },
  },
  {
    id: 'lora-small-rank-close-to-full',
    text: 'LoRA at rank 4 ends within 10 points of full fine-tuning on subtraction with 15% of its trainable parameters, rank 1 far behind; every method forgets addition unless old data is replayed.',
    where: 'sft presets lora_r1, lora_r4, full_ft, full_ft_replay; chapter 2',
    runs: {
      full: { trainer: 'sft', preset: 'full_ft', steps: 300, evalEvery: 100 },
      r1: { trainer: 'sft', preset: 'lora_r1', steps: 300, evalEvery: 100 },
      r4: { trainer: 'sft', preset: 'lora_r4', steps: 300, evalEvery: 100 },
      replay: { trainer: 'sft', preset: 'full_ft_replay', steps: 300, evalEvery: 100 },
    },
    check: ({ full, r1, r4, replay }) => {
      const [f1, one, l1, rp] = [last(full), last(r1), last(r4), last(replay)];
      const share = l1.trainable_params / f1.trainable_params;
      return {
        holds:
          f1['eval/accuracy'] - l1['eval/accuracy'] < 0.1 && one['eval/accuracy'] < l1['eval/accuracy'] - 0.3 && share < 0.16 &&
          [full, r1, r4].every((h) => evalAt(h, 100)['eval/old_task_accuracy'] <= 0.05 && last(h)['eval/old_task_accuracy'] <= 0.02) &&
          rp['eval/old_task_accuracy'] > 0.6,
        figure: `r = 4 trains ${pct(share)} of the parameters; subtraction ${pct(f1['eval/accuracy'])} (full), ${pct(l1['eval/accuracy'])} (r = 4), ${pct(one['eval/accuracy'])} (r = 1); addition at step 100 ${[full, r4, r1].map((h) => pct(evalAt(h, 100)['eval/old_task_accuracy'])).join(' / ')} (full / r = 4 / r = 1), at the end ${pct(f1['eval/old_task_accuracy'])} (full), ${pct(l1['eval/old_task_accuracy'])} (r = 4), ${pct(one['eval/old_task_accuracy'])} (r = 1), ${pct(rp['eval/old_task_accuracy'])} (full with replay)`,
      };
    },
  },
  {
    id: 'lora-rank-and-scale',
    text: 'With α fixed, rank 16 (α/r = 0.5) is not slower than rank 4 (α/r = 2) at step 100; rsLoRA (α/√r = 2) at rank 16 is faster still.',
    where: 'sft presets lora_r4, lora_r16, lora_r16_rslora; chapter 2',
    runs: {
      r4: { trainer: 'sft', preset: 'lora_r4', steps: 300, evalEvery: 100 },
      // Only step 100 is read: these stop there (r4 is the run the claim above made, from its cache).
      r16: { trainer: 'sft', preset: 'lora_r16', steps: 100, evalEvery: 100 },
      rs16: { trainer: 'sft', preset: 'lora_r16_rslora', steps: 100, evalEvery: 100 },
    },
    check: ({ r4, r16, rs16 }) => {
      const a = [r4, r16, rs16].map((h) => evalAt(h, 100)['eval/accuracy']);
      return { holds: a[1] >= a[0] && a[2] > a[1], figure: `subtraction at step 100: ${pct(a[0])} (r = 4), ${pct(a[1])} (r = 16), ${pct(a[2])} (r = 16, rsLoRA)` };
    },
  },
  {
    id: 'dpo-variants-train',
    text: 'IPO, conservative DPO and the hinge loss each train on the same pairs: reward accuracy rises over 20 steps.',
    where: 'dpo presets ipo, conservative, hinge; chapter 5',
    runs: {
      ipo: { trainer: 'dpo', preset: 'ipo', steps: 20, evalEvery: 20 },
      conservative: { trainer: 'dpo', preset: 'conservative', steps: 20, evalEvery: 20 },
      hinge: { trainer: 'dpo', preset: 'hinge', steps: 20, evalEvery: 20 },
    },
    check: (runs) => {
      const rise = Object.fromEntries(Object.entries(runs).map(([name, h]) => [name, [mean(firstSteps(h, 4), 'rewards/accuracies'), mean(h, 'rewards/accuracies', 4)]]));
      return {
        holds: Object.values(rise).every(([a, b]) => b > a),
        figure: Object.entries(rise).map(([name, [a, b]]) => `${name} ${pct(a)} → ${pct(b)}`).join('; '),
      };
    },
  },
  {
    id: 'agent-multi-step-plans',
    text: 'On two-operation problems, with a calculator that answers one operation per call, GRPO from the two-step SFT checkpoint (which plans on some problems) makes the agent plan two calls on every held-out problem by step 10 (calls per episode rise to 2, within 0.1; accuracy at least 99.5%) and ends at least 20 points above the same problems without the calculator.',
    where: 'agent presets multi_step, multi_step_no_tool; chapters 1 and 9; the agent lab',
    runs: {
      plan: { trainer: 'agent', preset: 'multi_step', steps: 20, evalEvery: 10 },
      noTool: { trainer: 'agent', preset: 'multi_step_no_tool', steps: 30, evalEvery: 30 },
    },
    check: ({ plan, noTool }) => {
      const [p0, p10, p, n] = [evalAt(plan, 0), evalAt(plan, 10), last(plan), last(noTool)];
      const planned = (m: Record<string, number>) => Math.abs(m['eval/calls_per_episode'] - 2) <= 0.1;
      return {
        holds: p['eval/accuracy'] - n['eval/accuracy'] >= 0.2 && planned(p10) && planned(p) && p10['eval/accuracy'] >= 0.995 && p0['eval/calls_per_episode'] < 1.5,
        figure: `with the calculator ${pct(p0['eval/accuracy'])} → ${pct(p['eval/accuracy'])} (calls per episode ${f(p0['eval/calls_per_episode'], 2)} → ${f(p['eval/calls_per_episode'], 2)}); without ${pct(evalAt(noTool, 0)['eval/accuracy'])} → ${pct(n['eval/accuracy'])}`,
      };
    },
  },
  {
    id: 'agent-retry-after-failure',
    text: 'With a calculator that fails 30% of calls at random and a reward for the right answer only, GRPO raises the share of held-out episodes that call again after a failed call (eval/retry_rate) from below 10% to above 90% by step 20, and the share that call again and then answer right (eval/recovery_rate) by more than 30 points, and keeps both at the end.',
    where: 'agent preset retry; chapters 1 and 9; the agent lab',
    runs: { run: { trainer: 'agent', preset: 'retry', steps: 40, evalEvery: 20 } },
    check: ({ run }) => {
      const [m0, m20, m] = [evalAt(run, 0), evalAt(run, 20), last(run)];
      const raised = (x: Record<string, number>) => x['eval/retry_rate'] > 0.9 && x['eval/recovery_rate'] > m0['eval/recovery_rate'] + 0.3;
      return {
        holds: m0['eval/retry_rate'] < 0.1 && raised(m20) && raised(m) && m['eval/accuracy'] > m0['eval/accuracy'],
        figure: `retry rate ${pct(m0['eval/retry_rate'])} → ${pct(m20['eval/retry_rate'])} at step 20 (${pct(m['eval/retry_rate'])} at ${evals(run).at(-1)!.step}); recovery rate ${pct(m0['eval/recovery_rate'])} → ${pct(m20['eval/recovery_rate'])} (${pct(m['eval/recovery_rate'])}); accuracy with failures on ${pct(m0['eval/accuracy'])} → ${pct(m20['eval/accuracy'])} (${pct(m['eval/accuracy'])})`,
      };
    },
  },
  {
    id: 'agent-memory-beats-window',
    text: 'On the memory task, where the two facts have left the model’s 12-token sliding window before the question comes, GRPO from the memory SFT checkpoint (whose greedy episodes never use memory) ends at least 20 points of held-out accuracy above the same task without the memory tool, and uses memory (writes the asked fact, reads it back and answers with it) in most held-out episodes, on each of seeds 0, 1 and 2.',
    where: 'agent presets memory, memory_no_tool; chapter 10; the agent lab',
    runs: Object.fromEntries(
      SEEDS.flatMap((seed) => [
        [`memory${seed}`, { trainer: 'agent', preset: 'memory', overrides: { seed }, steps: 20, evalEvery: 10 }],
        [`window${seed}`, { trainer: 'agent', preset: 'memory_no_tool', overrides: { seed }, steps: 20, evalEvery: 20 }],
      ]),
    ) as Record<string, ClaimRun>,
    check: (runs) => {
      const per = SEEDS.map((seed) => ({ seed, start: evalAt(runs[`memory${seed}`], 0), m: last(runs[`memory${seed}`]), w: last(runs[`window${seed}`]) }));
      return {
        holds: per.every(({ m, w }) => m['eval/accuracy'] - w['eval/accuracy'] >= 0.2 && m['eval/memory_use_rate'] > 0.5),
        figure: per
          .map(({ seed, start, m, w }) => `seed ${seed}: memory ${pct(start['eval/accuracy'])} → ${pct(m['eval/accuracy'])} (memory use ${pct(start['eval/memory_use_rate'])} → ${pct(m['eval/memory_use_rate'])}), window only ${pct(w['eval/accuracy'])}`)
          .join('; '),
      };
    },
  },
  {
    id: 'agent-reflect-fixes',
    text: 'Measured, and not what the issue hoped for: under reflect (a wrong answer gets "?" and one more try; a right last answer earns 1, each call costs 0.5), GRPO does not raise the fix rate (eval/fix_rate, first answer wrong and second right) by 0.15. On each of seeds 0, 1 and 2 the policy learns instead to call the calculator on its first try: first-try accuracy rises by at least 30 points and the fix rate ends less than 0.15 above its value before training.',
    where: 'agent preset reflect; chapter 10; the agent lab',
    runs: Object.fromEntries(SEEDS.map((seed) => [`reflect${seed}`, { trainer: 'agent', preset: 'reflect', overrides: { seed }, steps: 40, evalEvery: 20 }])) as Record<string, ClaimRun>,
    check: (runs) => {
      const per = SEEDS.map((seed) => ({ seed, m0: evalAt(runs[`reflect${seed}`], 0), m: last(runs[`reflect${seed}`]) }));
      return {
        holds: per.every(({ m0, m }) => m['eval/fix_rate'] < m0['eval/fix_rate'] + 0.15 && m['eval/first_try_accuracy'] >= m0['eval/first_try_accuracy'] + 0.3),
        figure: per
          .map(({ seed, m0, m }) => `seed ${seed}: fix rate ${f(m0['eval/fix_rate'], 3)} → ${f(m['eval/fix_rate'], 3)}, first try ${pct(m0['eval/first_try_accuracy'])} → ${pct(m['eval/first_try_accuracy'])}, after the second ${pct(m0['eval/accuracy'])} → ${pct(m['eval/accuracy'])}, calls ${pct(m0['eval/tool_call_rate'])} → ${pct(m['eval/tool_call_rate'])}`)
          .join('; '),
      };
    },
  },
  {
    id: 'self-improve-verifier-lifts-target',
    text: 'With a verifier, self-improvement lifts held-out accuracy on 3-digit sums, which no demonstration contains, by at least 20 points from round 0 to the last round, more than three times what the same fine-tuning steps on the demonstrations alone (sft_only) add. Issue 34 hoped sft_only would stay within 5 points of its start: at this scale it does not (seed 0: +8.5 points), because sums shifted one column up teach part of the third column on their own.',
    where: 'self_improve presets default, sft_only; the self-improvement lab and its chapter section',
    runs: { verifier: selfImprove('default'), sftOnly: selfImprove('sft_only') },
    check: ({ verifier, sftOnly }) => {
      const [v0, v] = targetAfterRounds(verifier);
      const [s0, s] = targetAfterRounds(sftOnly);
      return {
        holds: v - v0 >= 0.2 && v - v0 > 3 * (s - s0),
        figure: `verifier ${pct(v0)} → ${pct(v)} (rounds: ${roundSeries(verifier, 'eval/accuracy_target').map(pct).join(', ')}); sft_only ${pct(s0)} → ${pct(s)} (within 5 points: ${Math.abs(s - s0) <= 0.05 ? 'yes' : 'no'})`,
      };
    },
  },
  {
    id: 'self-improve-majority-precision',
    text: 'Without a verifier, a majority vote keeps mostly wrong answers on 3-digit sums: the kept samples’ precision stays below 50% in every round (the verifier’s is 100% by construction), and 3-digit accuracy ends no higher than after round 0: the model learns its own consistent mistakes.',
    where: 'self_improve presets majority; the self-improvement lab and its chapter section',
    runs: { majority: selfImprove('majority'), verifier: selfImprove('default') },
    check: ({ majority, verifier }) => {
      const precision = roundSeries(majority, 'kept_precision');
      const wrong = roundSeries(majority, 'kept_wrong');
      const verifierRight = trains(verifier).every((l) => !('kept' in l.metrics) || l.metrics.kept === 0 || l.metrics.kept_precision === 1);
      const [m0, m] = targetAfterRounds(majority);
      return {
        holds: verifierRight && precision.length > 0 && precision.every((p) => p < 0.5) && m <= m0,
        figure: `majority precision by round ${precision.map(pct).join(', ')} (wrong kept: ${wrong.join(', ')}); its 3-digit accuracy ${pct(m0)} → ${pct(m)}`,
      };
    },
  },
  {
    id: 'team-protocol-emerges',
    text: 'The team lab: with both roles trained, held-out team accuracy ends at least 30 points above the no-message ceiling on each of seeds 0, 1 and 2, and above what the receiver reaches alone with a frozen sender; the messages then say where the target is (decodability above 90%) and the receiver reads them (blanking the channel at evaluation costs it at least 30 points).',
    where: 'team presets default, no_message, frozen_sender; the team lab; the teams section',
    runs: {
      // Seed 0 evaluates every 25 steps: the section says when it passes 95%.
      ...Object.fromEntries([0, 1, 2].map((seed) => [`seed${seed}`, { trainer: 'team', overrides: { seed }, steps: 200, evalEvery: seed === 0 ? 25 : 100 } satisfies ClaimRun])),
      noMessage: { trainer: 'team', preset: 'no_message', steps: 200, evalEvery: 200 },
      frozen: { trainer: 'team', preset: 'frozen_sender', steps: 200, evalEvery: 200 },
    },
    check: (h) => {
      const seeds = [h.seed0, h.seed1, h.seed2].map(last);
      const [n, fz] = [last(h.noMessage)['eval/accuracy'], last(h.frozen)['eval/accuracy']];
      const ok = seeds.every((m) => m['eval/accuracy'] - n >= 0.3 && m['eval/accuracy'] > fz && m['eval/message_decodability'] > 0.9 && m['eval/accuracy'] - m['eval/accuracy_blank_channel'] >= 0.3);
      const curve = h.seed0.filter((l) => l.kind === 'eval');
      const start = curve[0].metrics;
      const crossed = curve.find((l) => l.metrics['eval/accuracy'] >= 0.95)?.step;
      const sentences = [
        `held-out team accuracy starts at ${prosePct(start['eval/accuracy'])}% (${prosePct(start['eval/accuracy_blank_channel'])}% with the channel blanked`,
        `On seed 0 it passes 95% at step ${crossed}`,
        `Over seeds 0, 1 and 2, after 200 steps the team ends at ${seeds.map((m) => `${prosePct(m['eval/accuracy'])}%`).join(', ').replace(/, ([^,]*)$/, ' and $1')}`,
        `the receiver can only guess: ${prosePct(n)}%`,
        `the receiver alone ends at ${prosePct(fz)}%, below the no-message ceiling`,
        `drops the trained default team to ${prosePct(seeds[0]['eval/accuracy_blank_channel'])}%`,
      ];
      const unprinted = sentences.map((x) => printedFigure(TEAMS_CHAPTER, x)).join('');
      return {
        holds: ok && unprinted === '',
        figure: `${unprinted}both trained ${seeds.map((m) => pct(m['eval/accuracy'])).join(', ')} (decodability ${seeds.map((m) => pct(m['eval/message_decodability'])).join(', ')}; blanked ${seeds.map((m) => pct(m['eval/accuracy_blank_channel'])).join(', ')}); no message ${pct(n)}; frozen sender ${pct(fz)}`,
      };
    },
  },
  {
    id: 'team-failures',
    text: 'Two ways the team fails: from scratch (no listener SFT) no protocol forms, the sender sends one message for every target and the team stays within 10 points of the no-message ceiling; and a receiver that learns ten times faster stops reading the channel (blanking it changes nothing) and ends below that ceiling, its sender a lazy partner whose one message says nothing.',
    where: 'team presets from_scratch, lazy_partner; the team lab; the teams section',
    runs: {
      scratch: { trainer: 'team', preset: 'from_scratch', steps: 200, evalEvery: 200 },
      lazy: { trainer: 'team', preset: 'lazy_partner', steps: 200, evalEvery: 200 },
      noMessage: { trainer: 'team', preset: 'no_message', steps: 200, evalEvery: 200 },
    },
    check: ({ scratch, lazy, noMessage }) => {
      const [s, l, n] = [last(scratch), last(lazy), last(noMessage)['eval/accuracy']];
      const unprinted = [
        `the run from_scratch ends at ${prosePct(s['eval/accuracy'])}%, its sender sending ${s['eval/distinct_messages']} message for every target`,
        `with the receiver learning 10 times faster (lazy_partner) the team ends at ${prosePct(l['eval/accuracy'])}%, and ${prosePct(l['eval/accuracy_blank_channel'])}% with the channel blanked`,
      ].map((x) => printedFigure(TEAMS_CHAPTER, x)).join('');
      return {
        holds:
          unprinted === '' &&
          Math.abs(s['eval/accuracy'] - n) <= 0.1 && s['eval/distinct_messages'] === 1 &&
          l['eval/accuracy'] < n && l['eval/distinct_messages'] === 1 && Math.abs(l['eval/accuracy'] - l['eval/accuracy_blank_channel']) <= 0.02,
        figure: `${unprinted}from scratch ${pct(s['eval/accuracy'])} (${s['eval/distinct_messages']} distinct message); receiver ten times faster ${pct(l['eval/accuracy'])}, blanked ${pct(l['eval/accuracy_blank_channel'])} (${l['eval/distinct_messages']} distinct message); no message ${pct(n)}`,
      };
    },
  },
  {
    id: 'vision-grpo-lifts',
    text: 'The vision lab: GRPO with a correctness reward lifts held-out accuracy at least 10 points above where its SFT phase left it (step 800), on each of seeds 0, 1 and 2.',
    where: 'vision preset default; the vision lab; the perception section',
    runs: Object.fromEntries(SEEDS.map((seed) => [`seed${seed}`, vision('default', seed)])),
    check: (h) => {
      const [sftEnd, end] = [SEEDS.map((s) => evalAt(h[`seed${s}`], VISION_SFT_STEPS)['eval/accuracy']), SEEDS.map((s) => last(h[`seed${s}`])['eval/accuracy'])];
      const unprinted = [
        ...[
          `| \`default\`, after ${VISION_SFT_STEPS} SFT steps (GRPO's start) | ${prosePct(sftEnd[0])}% |`,
          `| \`default\`, after ${VISION_STEPS - VISION_SFT_STEPS} GRPO steps more | ${prosePct(end[0])}% |`,
          `Over seeds 0, 1 and 2, GRPO lifts held-out accuracy from ${proseList(sftEnd.map((x) => `${prosePct(x)}%`))} after SFT to ${proseList(end.map((x) => `${prosePct(x)}%`))}: ${proseList(SEEDS.map((_, i) => prosePoints(end[i], sftEnd[i])))} points`,
        ].map((x) => printedFigure(VISION_CHAPTER, x)),
        printedFigure('01-agentic-rl.mdx', `Held-out accuracy ${prosePct(sftEnd[0])}% → ${prosePct(end[0])}% after GRPO from SFT (seed 0)`),
      ].join('');
      return {
        holds: unprinted === '' && SEEDS.every((_, i) => end[i] - sftEnd[i] >= 0.1),
        figure: `${unprinted}held-out accuracy after SFT → after GRPO: ${SEEDS.map((s, i) => `seed ${s} ${pct(sftEnd[i])} → ${pct(end[i])}`).join(', ')}`,
      };
    },
  },
  {
    id: 'vision-sees',
    text: 'The vision lab: the default run ends at least 20 points above text_only (the same model and questions with no picture), on each of seeds 0, 1 and 2: the model really looks.',
    where: 'vision presets default, text_only; the vision lab; the perception section',
    runs: Object.fromEntries(SEEDS.flatMap((seed) => [[`seed${seed}`, vision('default', seed)], [`blind${seed}`, vision('text_only', seed)]])),
    check: (h) => {
      const [seeing, blind] = [SEEDS.map((s) => last(h[`seed${s}`])['eval/accuracy']), SEEDS.map((s) => last(h[`blind${s}`])['eval/accuracy'])];
      const unprinted = [
        printedFigure(VISION_CHAPTER, `| \`text_only\`, after the same training | ${prosePct(blind[0])}% |`),
        printedFigure(VISION_CHAPTER, `\`default\` ends ${proseList(SEEDS.map((_, i) => prosePoints(seeing[i], blind[i])))} points above \`text_only\`, which reaches ${proseList(blind.map((x) => `${prosePct(x)}%`))}`),
        printedFigure('01-agentic-rl.mdx', `${prosePct(blind[0])}% with the same questions and no picture`),
      ].join('');
      return {
        holds: unprinted === '' && SEEDS.every((_, i) => seeing[i] - blind[i] >= 0.2),
        figure: `${unprinted}default vs text_only: ${SEEDS.map((s, i) => `seed ${s} ${pct(seeing[i])} vs ${pct(blind[i])}`).join(', ')}`,
      };
    },
  },
  {
    id: 'vision-counting',
    text: 'The vision lab’s counting preset (5 × 5 pictures, counting questions only): its run ends at least 10 points above the same preset without the picture (seed 0).',
    where: 'vision preset counting; the vision lab',
    runs: { counting: vision('counting', 0), blind: { ...vision('counting', 0), overrides: { seed: 0, use_image: false } } },
    check: ({ counting, blind }) => {
      const [c, b] = [last(counting), last(blind)];
      const unprinted = [
        `After SFT the model answers ${prosePct(evalAt(counting, VISION_SFT_STEPS)['eval/accuracy'])}% of its held-out counting questions, GRPO moves that to ${prosePct(c['eval/accuracy'])}%, and without the picture the same preset reaches ${prosePct(b['eval/accuracy'])}%`,
        `the count of all shapes is right ${prosePct(c['eval/accuracy_count_all'])}% of the time, while counts of one colour or one shape stay at ${prosePct(c['eval/accuracy_count_colour'])}% and ${prosePct(c['eval/accuracy_count_shape'])}%`,
      ].map((x) => printedFigure(VISION_CHAPTER, x)).join('');
      return {
        holds: unprinted === '' && c['eval/accuracy'] - b['eval/accuracy'] >= 0.1,
        figure: `${unprinted}counting ${pct(c['eval/accuracy'])} (after SFT ${pct(evalAt(counting, VISION_SFT_STEPS)['eval/accuracy'])}; colour ${pct(c['eval/accuracy_count_colour'])}, shape ${pct(c['eval/accuracy_count_shape'])}, all ${pct(c['eval/accuracy_count_all'])}) vs without the picture ${pct(b['eval/accuracy'])}`,
      };
    },
  },
];
