/**
 * Predictions: a claim turned into a question the lab asks before a run, and graded on that run by the claim's own
 * verdict. The claim's check is built from the same verdict (checkByPrediction), so one definition serves
 * `npm run claims`, the lab and the tests.
 */
import type { LogLine } from '@/lib/train/run';
import type { Claim, Histories, Prediction, PredictionCase } from './types';

/** A claim's check: its prediction's verdict on each case, holding when it holds on every one. */
export function checkByPrediction(prediction: Pick<Prediction, 'verdict' | 'cases'>): Claim['check'] {
  return (histories) => {
    const cases = prediction.cases(histories).map((c) => ({ label: c.label, ...prediction.verdict(c.run) }));
    return {
      holds: cases.length > 0 && cases.every((c) => c.held),
      figure: cases.length === 1 ? cases[0].measured : cases.map((c) => `${c.label}: ${c.measured}`).join('; '),
    };
  };
}

/** The cases of a claim whose one run is `name`. */
export const oneRun =
  (name = 'run') =>
  (histories: Histories): PredictionCase[] => [{ label: name, run: histories[name] }];

/** The cases of a claim that runs one preset per seed, its runs named `${prefix}${seed}`. */
export const perSeed =
  (prefix: string, seeds: readonly number[]) =>
  (histories: Histories): PredictionCase[] =>
    seeds.map((seed) => ({ label: `seed ${seed}`, run: histories[`${prefix}${seed}`] }));

/**
 * The run as far as step `steps`, where the verdict stops reading; a run that stopped before it cannot be measured
 * as the claim measures, so this throws (the lab says so rather than grading a shorter run).
 */
export function throughStep(run: LogLine[], steps: number, word = 'step'): LogLine[] {
  const reached = run.reduce((most, l) => Math.max(most, l.step), 0);
  if (reached < steps) throw new Error(`this run stopped at ${word} ${reached}; the claim reads it through ${word} ${steps}`);
  return run.filter((l) => l.step <= steps);
}

/**
 * How a learner's prediction fared against one run: `matched` when they chose what the claim says and it held on
 * this run, `missed` when it held and they chose otherwise, `unsettled` when the claim did not hold on this run (this
 * seed, or settings changed from the preset's), so the run cannot say who was right.
 */
export type PredictionOutcome = 'matched' | 'missed' | 'unsettled';
export const PREDICTION_OUTCOMES: readonly PredictionOutcome[] = ['matched', 'missed', 'unsettled'];

export function predictionOutcome(prediction: Pick<Prediction, 'claimed'>, choice: string, held: boolean): PredictionOutcome {
  if (!held) return 'unsettled';
  return choice === prediction.claimed ? 'matched' : 'missed';
}

/** The claims a lab asks about before a run of `preset`, in their module's order. */
export function predictionsFor(claims: readonly Claim[], preset: string): (Claim & { prediction: Prediction })[] {
  return claims.filter((c): c is Claim & { prediction: Prediction } => Boolean(c.prediction?.presets.includes(preset)));
}

/** "seed 0" or "seeds 0, 1 and 2". */
export function seedWords(seeds: readonly number[]): string {
  if (seeds.length === 1) return `seed ${seeds[0]}`;
  return `seeds ${seeds.slice(0, -1).join(', ')} and ${seeds.at(-1)}`;
}
