/** The agent lab's claims: its presets' descriptions and what chapters 1, 9 and 10 say its runs show. */
import { evalAt, evals, f, last, pct, SEEDS, series } from './history';
import { checkByPrediction, perSeed, throughStep } from './predict';
import { printedFigure, prosePct } from './prose';
import type { Claim, ClaimRun, Prediction } from './types';

const reflectHabit: Prediction = {
  presets: ['reflect'],
  question: 'A wrong answer gets “?” and a second try; a call costs 0.5 of the 1 a right answer earns. After 40 steps GRPO will have taught the agent to',
  choices: [
    { id: 'second', label: 'use the second try: the fix rate (wrong first, right second) rises by 15 points or more' },
    { id: 'first', label: 'get it right the first time: first-try accuracy rises by 30 points or more while the fix rate does not rise by 15' },
  ],
  claimed: 'first',
  reads: ['eval/fix_rate', 'eval/first_try_accuracy'],
  steps: 40,
  seeds: SEEDS,
  why: 'Answering from memory first and calling only after “?” earns more only by p × 0.5, where p is how often the model knows the product: on hard products under 0.07, a few hundredths of reward, lost in the noise of a group. Calling the calculator at once is already in some sampled episodes and is paid the same either way, so every group that holds a call pushes towards it, and the second try goes unused.',
  section: { file: '10-beyond-the-calculator.mdx', chapter: 'beyond-the-calculator', heading: 'What the reflection run measured', anchor: 'what-the-reflection-run-measured' },
  verdict: (whole) => {
    const run = throughStep(whole, 40);
    const [m0, m] = [evalAt(run, 0), evalAt(run, 40)];
    return {
      held: m['eval/fix_rate'] < m0['eval/fix_rate'] + 0.15 && m['eval/first_try_accuracy'] >= m0['eval/first_try_accuracy'] + 0.3,
      measured: `fix rate ${f(m0['eval/fix_rate'], 3)} → ${f(m['eval/fix_rate'], 3)}, first try ${pct(m0['eval/first_try_accuracy'])} → ${pct(m['eval/first_try_accuracy'])}, after the second ${pct(m0['eval/accuracy'])} → ${pct(m['eval/accuracy'])}, calls ${pct(m0['eval/tool_call_rate'])} → ${pct(m['eval/tool_call_rate'])}`,
    };
  },
  cases: perSeed('reflect', SEEDS),
};

export const claims: readonly Claim[] = [
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
    prediction: reflectHabit,
    check: checkByPrediction(reflectHabit),
  },
  {
    id: 'agent-reflect-feedback-fixes',
    text: 'Under reflect_feedback (reflect’s second try and reward, but the calculator answers only after the verdict "?"), GRPO learns to use the verdict: on each of seeds 0, 1 and 2 the held-out fix rate (first answer wrong, second right) rises by at least 0.15 and ends at 0.55 or more (the preset’s “about 60%”), first-try accuracy ends at 30% or less (its “near 20%”), accuracy after the second try ends at least 10 points above first-try accuracy, and the misses fixed on times-table facts (eval/deliberate_miss_rate, the signature of answering a known fact wrong on purpose) do not rise.',
    where: 'agent preset reflect_feedback; chapter 10; the agent lab',
    runs: Object.fromEntries(SEEDS.map((seed) => [`feedback${seed}`, { trainer: 'agent', preset: 'reflect_feedback', overrides: { seed }, steps: 60, evalEvery: 30 }])) as Record<string, ClaimRun>,
    check: (runs, context) => {
      const per = SEEDS.map((seed) => ({ seed, m0: evalAt(runs[`feedback${seed}`], 0), m: last(runs[`feedback${seed}`]) }));
      const spread = (xs: number[]) => `${f(xs.reduce((a, b) => a + b, 0) / xs.length)} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
      // Chapter 10's sentences on the run, rebuilt from it: means over seeds 0–2, with the range where it matters.
      const mean = (metric: string, at: 'm0' | 'm') => per.reduce((sum, p) => sum + p[at][metric], 0) / per.length;
      const fixes = per.map(({ m }) => m['eval/fix_rate']);
      const sentences = [
        `the held-out fix rate rises from ${prosePct(mean('eval/fix_rate', 'm0'))}% to ${prosePct(mean('eval/fix_rate', 'm'))}% (${prosePct(Math.min(...fixes))}% to ${prosePct(Math.max(...fixes))}% over seeds 0, 1 and 2)`,
        `accuracy after the second try ends at ${prosePct(mean('eval/accuracy', 'm'))}%, against ${prosePct(mean('eval/first_try_accuracy', 'm'))}% on the first try`,
        `times-table facts missed and then fixed go from ${prosePct(mean('eval/deliberate_miss_rate', 'm0'))}% to ${prosePct(mean('eval/deliberate_miss_rate', 'm'))}%`,
      ];
      const unprinted = sentences.map((x) => printedFigure(context, '10-beyond-the-calculator.mdx', x)).join('');
      return {
        holds: unprinted === '' && per.every(
          ({ m0, m }) =>
            m['eval/fix_rate'] >= m0['eval/fix_rate'] + 0.15 &&
            m['eval/fix_rate'] >= 0.55 &&
            m['eval/first_try_accuracy'] <= 0.3 &&
            m['eval/accuracy'] >= m['eval/first_try_accuracy'] + 0.1 &&
            m['eval/deliberate_miss_rate'] <= m0['eval/deliberate_miss_rate'],
        ),
        figure:
          per
            .map(({ seed, m0, m }) => `seed ${seed}: fix rate ${f(m0['eval/fix_rate'], 3)} → ${f(m['eval/fix_rate'], 3)}, first try ${pct(m0['eval/first_try_accuracy'])} → ${pct(m['eval/first_try_accuracy'])}, after the second ${pct(m0['eval/accuracy'])} → ${pct(m['eval/accuracy'])}, known facts missed then fixed ${pct(m0['eval/deliberate_miss_rate'])} → ${pct(m['eval/deliberate_miss_rate'])}`)
            .join('; ') +
          `; final fix rate over seeds, mean (min–max): ${spread(per.map(({ m }) => m['eval/fix_rate']))}${unprinted}`,
      };
    },
  },
];
