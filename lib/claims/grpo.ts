/**
 * The GRPO lab's claims: its presets' descriptions and what chapters 6, 7 and 8 say its runs show. Two print their
 * figures in a chapter (the hackable reward in chapter 6, the learning-rate sweep's table in chapter 7).
 */
import { finalMetrics, planSweep, summarize, type SweepAxis } from '@/lib/train/sweep';
import { evalAt, f, firstSteps, last, mean, pct, series, trains } from './history';
import { checkByPrediction, oneRun, throughStep } from './predict';
import { prints, printedFigure } from './prose';
import type { Claim, ClaimRun, Prediction } from './types';

const grpo = (steps: number, overrides: Record<string, unknown> = {}, preset?: string): ClaimRun => ({ trainer: 'grpo', preset, overrides, steps, evalEvery: steps });

/** Chapter 7's sweep: learning_rate × three seeds, 20 GRPO steps each from the SFT checkpoint, planned as `npm run sweep` plans it. */
const LR_AXIS: SweepAxis = { field: 'learning_rate', values: [1e-4, 3e-4, 1e-3] };
const LR_LABEL: Record<number, string> = { 1e-4: '1e-4', 3e-4: '3e-4', 1e-3: '1e-3' };
const LR_SWEEP = planSweep({}, [LR_AXIS], [0, 1, 2]);
const sweepKey = (values: unknown[], seed: number) => `lr=${String(values[0])}/seed=${seed}`;

const LAB_SECTION = { file: '06-grpo.mdx', chapter: 'grpo', heading: 'Lab: GRPO on arithmetic', anchor: 'lab-grpo-on-arithmetic' };

const liftsAccuracy: Prediction = {
  presets: ['default'],
  question: 'From the SFT checkpoint’s 27.5%, held-out accuracy at step 20 will',
  choices: [
    { id: 'rise', label: 'rise by more than 10 points' },
    { id: 'stay', label: 'stay within 10 points of it' },
    { id: 'fall', label: 'fall by more than 10 points' },
  ],
  claimed: 'rise',
  reads: ['eval/accuracy'],
  steps: 20,
  seeds: [0],
  why: 'The SFT model already answers some sums right, so many groups hold both a right and a wrong completion: their rewards differ, and the group-relative advantage pushes up the tokens of the right ones and down those of the wrong. Twenty such updates at the default learning rate (3e-4) move the greedy answers the held-out evaluation reads.',
  section: LAB_SECTION,
  verdict: (run) => {
    const [a0, a20] = [evalAt(run, 0)['eval/accuracy'], evalAt(run, 20)['eval/accuracy']];
    return { held: a0 === 0.275 && a20 > a0 + 0.1, measured: `held-out accuracy ${pct(a0)} → ${pct(a20)} at step 20` };
  },
  cases: oneRun(),
};

const rewardHacking: Prediction = {
  presets: ['reward_hacking'],
  question: 'The verifier here also pays for answers above the right one. Over 40 steps the training reward climbs; held-out accuracy (graded by the exact verifier) will',
  choices: [
    { id: 'rise', label: 'rise with it' },
    { id: 'stay', label: 'stay near the SFT model’s 27.5%' },
    { id: 'fall', label: 'fall to almost 0 (under 5%)' },
  ],
  claimed: 'fall',
  reads: ['reward', 'eval/accuracy'],
  steps: 40,
  seeds: [0],
  why: 'GRPO maximises the reward it is given, not the one that was meant. Raising a digit is an easier way to satisfy >= than getting the sum right, so the policy drifts towards over-estimates: its groups pay them as well as right answers, and the exact held-out check fails them all.',
  section: { file: '06-grpo.mdx', chapter: 'grpo', heading: 'What it looks like', anchor: 'what-it-looks-like' },
  verdict: (whole) => {
    const run = throughStep(whole, 40);
    const [r0, r1] = [mean(firstSteps(run, 6), 'reward'), mean(run, 'reward', 5)];
    const acc = evalAt(run, 40)['eval/accuracy'];
    return { held: r1 > r0 && r1 > 0.8 && acc < 0.05, measured: `reward ${f(r0, 2)} → ${f(r1, 2)}; held-out accuracy ${pct(acc)} at step 40` };
  },
  cases: oneRun(),
};

export const claims: readonly Claim[] = [
  {
    id: 'grpo-lifts-accuracy',
    text: 'GRPO from the SFT checkpoint lifts held-out accuracy from 27.5% within 20 steps.',
    where: 'grpo preset default; chapters 6 and 7',
    fast: true,
    runs: { run: grpo(20) },
    prediction: liftsAccuracy,
    check: checkByPrediction(liftsAccuracy),
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
    prediction: rewardHacking,
    check: checkByPrediction(rewardHacking),
  },
  {
    id: 'grpo-custom-reward-hack',
    text: 'The reward editor’s hackable example (>= where === was meant), as the only correctness reward: rewards/custom/mean climbs while held-out accuracy falls to 0 by step 10; chapter 6 prints the figures.',
    where: 'chapter 6 (writing your own reward); the reward editor’s hackable example',
    fast: true,
    runs: { run: { trainer: 'grpo', overrides: { reward_weight_correctness: 0 }, reward: { example: 'hackable', weight: 1 }, steps: 20, evalEvery: 10 } },
    check: ({ run }, context) => {
      const [c1, c20] = [mean(firstSteps(run, 1), 'rewards/custom/mean'), mean(run, 'rewards/custom/mean', 5)];
      const [a0, a10, a20] = [0, 10, 20].map((s) => evalAt(run, s)['eval/accuracy']);
      const sentence = `the hackable reward's mean (\`rewards/custom/mean\`) went from ${f(c1, 2)} at the first step to ${f(c20, 2)} over the last five, while held-out accuracy fell from ${pct(a0)} to ${pct(a10)} at step 10 and ${pct(a20)} at step 20`;
      return {
        holds: c20 > c1 + 0.3 && a10 < 0.02 && a20 < 0.02 && prints(context, '06-grpo.mdx', sentence),
        figure: `rewards/custom/mean ${f(c1, 2)} → ${f(c20, 2)}; held-out accuracy ${pct(a0)} → ${pct(a10)} (step 10) → ${pct(a20)} (step 20)${printedFigure(context, '06-grpo.mdx', sentence)}`,
      };
    },
  },
  {
    id: 'grpo-lr-sweep-seed-variance',
    text: 'A learning-rate sweep over three seeds: 1e-4 and 3e-4 overlap within their seed-to-seed spread (one seed ranks them one way, another the other), while 1e-3 is far below both; chapter 7 prints the table.',
    where: 'chapter 7 (sweeps and seed variance); npm run sweep',
    fast: true,
    runs: Object.fromEntries(LR_SWEEP.map((r) => [sweepKey(r.values, r.seed), { trainer: 'grpo', overrides: { learning_rate: r.values[0], seed: r.seed }, steps: 20, evalEvery: 20 } satisfies ClaimRun])),
    check: (histories, context) => {
      const results = LR_SWEEP.map((run) => ({ run, state: 'done', metrics: finalMetrics(histories[sweepKey(run.values, run.seed)]) }));
      const groups = summarize(results, 'eval/accuracy');
      const at = (lr: number, seed: number) => groups.find((g) => g.values[0] === lr)!.points.find((p) => p.seed === seed)!.value;
      const rows = groups.map((g) => `| ${LR_LABEL[g.values[0] as number]} | ${g.points.map((p) => pct(p.value)).join(' | ')} | ${pct(g.mean)} ± ${(100 * g.std).toFixed(1)} |`);
      const [lo, mid, hi] = groups;
      // Seed by seed, which of 1e-4 and 3e-4 comes out ahead, and by how much.
      const gaps = [0, 1, 2].map((s) => 100 * (at(3e-4, s) - at(1e-4, s)));
      const sentence = `Seed 0 alone would rank 3e-4 ahead of 1e-4 by ${gaps[0].toFixed(1)} points; seed 1 would rank it behind by ${(-gaps[1]).toFixed(1)}`;
      const printed = [...rows, sentence].filter((s) => !prints(context, '07-pipeline.mdx', s));
      return {
        // "worse than the other two on every seed"; "their means differ by less than either one's standard deviation"
        holds: gaps[0] > 0 && gaps[1] < 0 && Math.abs(mid.mean - lo.mean) < Math.min(lo.std, mid.std) && Math.max(...hi.points.map((p) => p.value)) < Math.min(...[lo, mid].flatMap((g) => g.points.map((p) => p.value))) && printed.length === 0,
        figure: `${groups.map((g) => `${LR_LABEL[g.values[0] as number]}: ${pct(g.mean)} ± ${(100 * g.std).toFixed(1)}`).join('; ')}${printed.length ? `; 07-pipeline.mdx does not print: ${printed.join(' / ')}` : ''}`,
      };
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
];
