/** The DPO lab's claims: its presets' descriptions and what chapter 5 says its runs show. */
import { evalAt, f, firstSteps, mean, pct } from './history';
import { checkByPrediction, oneRun, throughStep } from './predict';
import type { Claim, Prediction } from './types';

const LAB_SECTION = { file: '05-dpo.mdx', chapter: 'dpo', heading: 'Lab: DPO on preference pairs', anchor: 'lab-dpo-on-preference-pairs' };

const rewardAccuracyRises: Prediction = {
  presets: ['default'],
  question: 'Reward accuracy (rewards/accuracies: the share of pairs whose chosen answer the implicit reward ranks above the rejected one), over the last 4 of 20 steps against the first 4, will be',
  choices: [
    { id: 'higher', label: 'higher' },
    { id: 'not', label: 'no higher' },
  ],
  claimed: 'higher',
  reads: ['rewards/accuracies'],
  steps: 20,
  seeds: [0],
  why: 'The DPO loss is a logistic loss on exactly this ranking: each step raises the policy’s log-ratio on the chosen answer against the rejected one, most on the pairs it still ranks wrong. On the pairs it trains on, the ranking improves as long as the steps are small enough to follow that gradient.',
  section: LAB_SECTION,
  verdict: (whole) => {
    const run = throughStep(whole, 20);
    const [a0, a1] = [mean(firstSteps(run, 4), 'rewards/accuracies'), mean(run, 'rewards/accuracies', 4)];
    return { held: a1 > a0, measured: `rewards/accuracies ${pct(a0)} (first steps) → ${pct(a1)} (last steps)` };
  },
  cases: oneRun(),
};

const lrTooHigh: Prediction = {
  presets: ['lr_too_high'],
  question: 'At a learning rate 10× the default, by step 40 reward accuracy stays high; held-out accuracy will',
  choices: [
    { id: 'rise', label: 'rise above the SFT model’s 27.5%' },
    { id: 'stay', label: 'stay near 27.5%' },
    { id: 'collapse', label: 'collapse below 10%' },
  ],
  claimed: 'collapse',
  reads: ['logps/chosen', 'logps/rejected', 'rewards/accuracies', 'eval/accuracy'],
  steps: 40,
  seeds: [0],
  why: 'DPO only asks the chosen answer to gain on the rejected one, and at this rate the cheapest way is to push both log-probabilities down, the rejected one faster. Probability mass leaves the right answers too and lands on sequences neither answer contains, so the margin looks fine while greedy answers on held-out sums break.',
  section: { file: '05-dpo.mdx', chapter: 'dpo', heading: 'Both log-probabilities fall', anchor: 'both-log-probabilities-fall' },
  verdict: (whole) => {
    const run = throughStep(whole, 40);
    const [c0, c1] = [mean(firstSteps(run, 4), 'logps/chosen'), mean(run, 'logps/chosen', 4)];
    const [r0, r1] = [mean(firstSteps(run, 4), 'logps/rejected'), mean(run, 'logps/rejected', 4)];
    const acc = mean(run, 'rewards/accuracies', 4);
    const [h0, h1] = [evalAt(run, 0)['eval/accuracy'], evalAt(run, 40)['eval/accuracy']];
    return {
      held: c1 < c0 && r1 < r0 && acc > 0.8 && h1 < 0.1,
      measured: `logps/chosen ${f(c0, 2)} → ${f(c1, 2)}; logps/rejected ${f(r0, 2)} → ${f(r1, 2)}; reward accuracy ${pct(acc)}; held-out ${pct(h0)} → ${pct(h1)}`,
    };
  },
  cases: oneRun(),
};

export const claims: readonly Claim[] = [
  {
    id: 'dpo-reward-accuracy-rises',
    text: 'DPO’s reward accuracy rises on pairs sampled from the SFT model.',
    where: 'dpo preset default; chapter 5',
    runs: { run: { trainer: 'dpo', steps: 20, evalEvery: 20 } },
    prediction: rewardAccuracyRises,
    check: checkByPrediction(rewardAccuracyRises),
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
    prediction: lrTooHigh,
    check: checkByPrediction(lrTooHigh),
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
];
