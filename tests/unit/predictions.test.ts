/**
 * Predictions: the question a lab asks before a run, graded by its claim's own verdict. A claim with a prediction is
 * checked by that verdict on each of its cases, so `npm run claims` and the lab cannot disagree; here on small
 * hand-built histories whose verdicts are worked out by hand.
 */
import fs from 'node:fs';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';
import { labPresets, labs } from '@/content/labs';
import { chapterFiles } from '@/lib/content/chapters';
import { TRAINER_NAMES, trainerSettings } from '@/lib/spec/registry';
import { checkByPrediction, predictionOutcome, predictionsFor, seedWords, throughStep } from '@/lib/claims/predict';
import type { Claim, Histories, Prediction } from '@/lib/claims/types';
import type { LogLine } from '@/lib/train/run';
import { CLAIMS_BY_TRAINER } from '../../scripts/claims/catalog';

type Metrics = Record<string, number>;
/** A run: train lines for steps 1..last (each from `train`), eval lines at the steps `evals` names. */
function run(last: number, train: (step: number) => Metrics, evals: Record<number, Metrics>): LogLine[] {
  const lines: LogLine[] = [];
  for (let step = 0; step <= last; step++) {
    if (step > 0) lines.push({ step, kind: 'train', metrics: train(step) });
    if (evals[step]) lines.push({ step, kind: 'eval', metrics: evals[step] });
  }
  return lines;
}
const none = () => ({});

/**
 * For each claim with a prediction: a run on which it holds and one on which it does not, with what the verdict must
 * say of the first (worked out by hand from the numbers here).
 */
const RUNS: Record<string, { held: LogLine[]; failed: LogLine[]; measured: string }> = {
  'grpo-lifts-accuracy': {
    held: run(20, none, { 0: { 'eval/accuracy': 0.275 }, 10: { 'eval/accuracy': 0.35 }, 20: { 'eval/accuracy': 0.45 } }),
    // The claim asks for more than 10 points above 27.5%: 37.5% is exactly 10, so it fails.
    failed: run(20, none, { 0: { 'eval/accuracy': 0.275 }, 20: { 'eval/accuracy': 0.375 } }),
    measured: 'held-out accuracy 27.5% → 45.0% at step 20',
  },
  'grpo-reward-hacking': {
    // Reward 0.3 over the first 6 steps, 1.1 over the last 5 (of 40): 0.30 → 1.10.
    held: run(40, (s) => ({ reward: s <= 6 ? 0.3 : 1.1 }), { 0: { 'eval/accuracy': 0.275 }, 40: { 'eval/accuracy': 0.01 } }),
    failed: run(40, (s) => ({ reward: s <= 6 ? 0.3 : 1.1 }), { 0: { 'eval/accuracy': 0.275 }, 40: { 'eval/accuracy': 0.2 } }),
    measured: 'reward 0.30 → 1.10; held-out accuracy 1.0% at step 40',
  },
  'ppo-default-solves-the-grid': {
    held: run(20, none, Object.fromEntries([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20].map((s) => [s, { 'eval/return': s >= 8 ? 0.95 : -1 }]))),
    // Solved at update 2: earlier than the claim says.
    failed: run(20, none, Object.fromEntries([0, 2, 4, 20].map((s) => [s, { 'eval/return': s >= 2 ? 0.95 : -1 }]))),
    measured: 'greedy return 0.95 at update 8',
  },
  'dpo-reward-accuracy-rises': {
    held: run(20, (s) => ({ 'rewards/accuracies': s <= 4 ? 0.5 : 0.75 }), { 0: {}, 20: {} }),
    failed: run(20, () => ({ 'rewards/accuracies': 0.6 }), { 0: {}, 20: {} }),
    measured: 'rewards/accuracies 50.0% (first steps) → 75.0% (last steps)',
  },
  'dpo-lr-too-high': {
    held: run(40, (s) => ({ 'logps/chosen': -2 - s / 10, 'logps/rejected': -3 - s / 5, 'rewards/accuracies': 0.9 }), { 0: { 'eval/accuracy': 0.275 }, 40: { 'eval/accuracy': 0.05 } }),
    failed: run(40, (s) => ({ 'logps/chosen': -2 - s / 10, 'logps/rejected': -3 - s / 5, 'rewards/accuracies': 0.9 }), { 0: { 'eval/accuracy': 0.275 }, 40: { 'eval/accuracy': 0.3 } }),
    // chosen: mean of -2.1..-2.4 = -2.25, of -5.7..-6.0 = -5.85; rejected: -3.5 and -10.7.
    measured: 'logps/chosen -2.25 → -5.85; logps/rejected -3.50 → -10.70; reward accuracy 90.0%; held-out 27.5% → 5.0%',
  },
  'agent-reflect-fixes': {
    held: run(40, none, {
      0: { 'eval/fix_rate': 0.02, 'eval/first_try_accuracy': 0.25, 'eval/accuracy': 0.27, 'eval/tool_call_rate': 0 },
      40: { 'eval/fix_rate': 0, 'eval/first_try_accuracy': 0.945, 'eval/accuracy': 0.945, 'eval/tool_call_rate': 0.945 },
    }),
    // The fix rate rises by 20 points: the second try was used.
    failed: run(40, none, {
      0: { 'eval/fix_rate': 0.02, 'eval/first_try_accuracy': 0.25, 'eval/accuracy': 0.27, 'eval/tool_call_rate': 0 },
      40: { 'eval/fix_rate': 0.22, 'eval/first_try_accuracy': 0.6, 'eval/accuracy': 0.82, 'eval/tool_call_rate': 0.5 },
    }),
    measured: 'fix rate 0.020 → 0.000, first try 25.0% → 94.5%, after the second 27.0% → 94.5%, calls 0.0% → 94.5%',
  },
  'vision-grpo-lifts': {
    held: run(150, none, { 0: { 'eval/accuracy': 0.5 }, 75: { 'eval/accuracy': 0.53 }, 150: { 'eval/accuracy': 0.568 } }),
    // 4.9 points: the claim asks for 5.
    failed: run(150, none, { 0: { 'eval/accuracy': 0.5 }, 150: { 'eval/accuracy': 0.549 } }),
    measured: 'held-out accuracy 50.0% from the SFT checkpoint (step 0) → 56.8% after GRPO (step 150)',
  },
  'team-reads-its-messages': {
    held: run(200, none, { 200: { 'eval/accuracy': 1, 'eval/accuracy_blank_channel': 0.3, 'eval/message_decodability': 0.95 } }),
    // Decodable, but the receiver ignores it: blanking costs 5 points.
    failed: run(200, none, { 200: { 'eval/accuracy': 0.35, 'eval/accuracy_blank_channel': 0.3, 'eval/message_decodability': 0.95 } }),
    measured: 'held-out accuracy 100.0%, 30.0% with the channel blanked; messages decode to the target 95.0% of the time (step 200)',
  },
  'lora-forgets-without-replay': {
    held: run(300, none, { 0: { 'eval/old_task_accuracy': 0.9 }, 100: { 'eval/old_task_accuracy': 0.03 }, 300: { 'eval/old_task_accuracy': 0.01 } }),
    failed: run(300, none, { 0: { 'eval/old_task_accuracy': 0.9 }, 100: { 'eval/old_task_accuracy': 0.5 }, 300: { 'eval/old_task_accuracy': 0.4 } }),
    measured: 'addition 90.0% before, 3.0% at step 100, 1.0% at step 300',
  },
  'self-improve-majority-keeps-wrong': {
    // Step 1 is round 0 (SFT on the demonstrations: nothing kept); rounds 1-5 keep answers.
    held: run(6, (s): Metrics => (s === 1 ? {} : { kept_precision: 0.15, kept_wrong: 100 }), Object.fromEntries([1, 2, 3, 4, 5, 6].map((s) => [s, { 'eval/accuracy_target': s === 6 ? 0.085 : 0.095 }]))),
    failed: run(6, (s): Metrics => (s === 1 ? {} : { kept_precision: 0.15, kept_wrong: 100 }), Object.fromEntries([1, 2, 3, 4, 5, 6].map((s) => [s, { 'eval/accuracy_target': s === 6 ? 0.2 : 0.095 }]))),
    measured: 'kept answers’ precision by round 15.0%, 15.0%, 15.0%, 15.0%, 15.0% (wrong kept: 100, 100, 100, 100, 100); 3-digit accuracy 9.5% after round 0 → 8.5%',
  },
};

const WITH_PREDICTION = TRAINER_NAMES.flatMap((t) => CLAIMS_BY_TRAINER[t].filter((c): c is Claim & { prediction: Prediction } => Boolean(c.prediction)).map((c) => [t, c] as const));

/** The run names a prediction's cases read, found by handing each run a history of its own and seeing which come back. */
function namesRead(claim: Claim & { prediction: Prediction }): string[] {
  const tagged: Histories = Object.fromEntries(Object.keys(claim.runs).map((name) => [name, [] as LogLine[]]));
  const byHistory = new Map(Object.entries(tagged).map(([name, h]) => [h, name]));
  return claim.prediction.cases(tagged).map((c) => byHistory.get(c.run)!);
}

describe('predictions', () => {
  it('every claim with a prediction has hand-built runs here, and every such run is a claim’s', () => {
    expect(WITH_PREDICTION.map(([, c]) => c.id).sort()).toEqual(Object.keys(RUNS).sort());
  });

  it.each(WITH_PREDICTION.map(([t, c]) => [c.id, t, c] as const))('%s: its verdict on hand-built runs, and its check is the AND of its verdicts', (id, _trainer, claim) => {
    const { held, failed, measured } = RUNS[id];
    const { prediction } = claim;
    expect(prediction.verdict(held)).toEqual({ held: true, measured });
    expect(prediction.verdict(failed).held).toBe(false);

    // Every way of giving its cases a holding or a failing run: the claim holds exactly when every verdict does.
    const names = namesRead(claim);
    expect(new Set(names).size, 'each case reads a run of its own').toBe(names.length);
    for (let mask = 0; mask < 2 ** names.length; mask++) {
      const histories: Histories = Object.fromEntries(Object.keys(claim.runs).map((name) => [name, held]));
      names.forEach((name, i) => (histories[name] = mask & (1 << i) ? failed : held));
      const verdicts = prediction.cases(histories).map((c) => prediction.verdict(c.run).held);
      const result = claim.check(histories, { chapter: () => '' });
      expect(result.holds, `cases failing: ${mask.toString(2)}`).toBe(verdicts.every(Boolean));
      expect(result.holds).toBe(mask === 0);
    }
  });

  it.each(WITH_PREDICTION.map(([t, c]) => [c.id, t, c] as const))('%s: its question, choices, presets and chapter section are real', (_id, trainer, claim) => {
    const { prediction } = claim;
    expect(prediction.choices.map((c) => c.id)).toContain(prediction.claimed);
    expect(new Set(prediction.choices.map((c) => c.id)).size).toBe(prediction.choices.length);
    const presets = trainerSettings(trainer).presets;
    for (const preset of prediction.presets) expect(presets, preset).toHaveProperty(preset);
    // A single run of each preset is one case of the claim: the claim runs it.
    for (const preset of prediction.presets) expect(Object.values(claim.runs).some((r) => (r.preset ?? 'default') === preset), preset).toBe(true);
    expect(prediction.why.split(/(?<=[.!?])\s+/).length).toBeGreaterThanOrEqual(2);
    expect(prediction.why.split(/(?<=[.!?])\s+/).length).toBeLessThanOrEqual(3);

    // The link goes to a heading of that chapter, by the id rehype-slug gives it.
    const { section } = prediction;
    expect(chapterFiles().get(section.chapter)?.file).toBe(`content/chapters/${section.file}`);
    const slugger = new GithubSlugger();
    const headings = [...fs.readFileSync(`content/chapters/${section.file}`, 'utf8').matchAll(/^#{2,4} (.+)$/gm)].map((m) => ({ text: m[1], id: slugger.slug(m[1]) }));
    expect(headings).toContainEqual({ text: section.heading, id: section.anchor });
  });

  it('every lab with presets asks at least one prediction', () => {
    const missing = labs.filter((lab) => {
      const { presets } = trainerSettings(lab.trainer);
      const claims = CLAIMS_BY_TRAINER[lab.trainer];
      return !labPresets(lab, presets).some((p) => predictionsFor(claims, p).length > 0);
    });
    expect(missing.map((l) => l.slug)).toEqual([]);
  });

  it('a run that stops before the step the claim reads is not graded: the verdict says how far it got', () => {
    const [, grpo] = WITH_PREDICTION.find(([, c]) => c.id === 'grpo-reward-hacking')!;
    const short = RUNS['grpo-reward-hacking'].held.filter((l) => l.step <= 12);
    expect(() => grpo.prediction.verdict(short)).toThrow('this run stopped at step 12; the claim reads it through step 40');
    // Longer than the claim's run: read through its step 40 only (here, a collapse after it does not count).
    const longer = [...RUNS['grpo-reward-hacking'].held, { step: 41, kind: 'eval' as const, metrics: { 'eval/accuracy': 0.9 } }];
    expect(grpo.prediction.verdict(longer).held).toBe(true);
    expect(throughStep(longer, 40).at(-1)!.step).toBe(40);

    // PPO's: solved early is read from a short run; not solved yet is not.
    const [, ppo] = WITH_PREDICTION.find(([, c]) => c.id === 'ppo-default-solves-the-grid')!;
    const solvedBy8 = RUNS['ppo-default-solves-the-grid'].held.filter((l) => l.step <= 10);
    expect(ppo.prediction.verdict(solvedBy8)).toEqual({ held: true, measured: 'greedy return 0.95 at update 8' });
    expect(() => ppo.prediction.verdict(solvedBy8.filter((l) => l.step <= 6))).toThrow("this run's last evaluation is at update 6; the claim reads it through update 20");
  });

  it('a prediction fares as matched, missed or unsettled, and a claim whose verdict throws is not checked as holding', () => {
    const p = { claimed: 'rise' };
    expect(predictionOutcome(p, 'rise', true)).toBe('matched');
    expect(predictionOutcome(p, 'fall', true)).toBe('missed');
    // The claim did not hold on this run: the run cannot say who was right.
    expect(predictionOutcome(p, 'rise', false)).toBe('unsettled');
    expect(predictionOutcome(p, 'fall', false)).toBe('unsettled');
    expect(seedWords([0])).toBe('seed 0');
    expect(seedWords([0, 1, 2])).toBe('seeds 0, 1 and 2');

    const check = checkByPrediction({ verdict: (h) => ({ held: h.length > 1, measured: `${h.length} lines` }), cases: (h) => [{ label: 'a', run: h.a }, { label: 'b', run: h.b }] });
    const line: LogLine = { step: 0, kind: 'eval', metrics: {} };
    expect(check({ a: [line, line], b: [line] }, { chapter: () => '' })).toEqual({ holds: false, figure: 'a: 2 lines; b: 1 lines' });
    expect(check({ a: [line, line], b: [line, line] }, { chapter: () => '' }).holds).toBe(true);
  });
});
