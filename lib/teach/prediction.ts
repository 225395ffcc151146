/**
 * An assignment may ask for the prediction its preset's claim offers (lib/claims: Claim.prediction). It is graded as
 * made or not made, never right or wrong: one seed can go against a claim, so a student's run cannot fairly judge
 * their answer, and the goal is graded on the weights alone. The hand-in records the choice the lab fixed when the
 * graded run started (an answer picked later belongs to the next run), or null when none was made. No tfjs.
 */
import { z } from 'zod';
import { predictionsFor } from '@/lib/claims/predict';
import type { Claim, Prediction } from '@/lib/claims/types';
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import { quoteInput } from '@/lib/train/config';

export type AskedClaim = Claim & { prediction: Prediction };

/** The claim whose prediction a run of `preset` would ask, or null when that preset has none. */
export async function presetPrediction(trainer: TrainerName, preset: string): Promise<AskedClaim | null> {
  return predictionsFor(await TRAINERS[trainer].claims(), preset)[0] ?? null;
}

/** The claim an assignment asks about, which must be one its preset's runs ask; throws an Error naming the problem. */
export async function assignedPrediction(a: { trainer: TrainerName; preset: string; prediction?: string }): Promise<AskedClaim | null> {
  if (a.prediction === undefined) return null;
  const claim = (await TRAINERS[a.trainer].claims()).find((c) => c.id === a.prediction);
  if (!claim?.prediction) throw new Error(`no ${a.trainer} claim ${quoteInput(a.prediction)} asks a prediction`);
  if (!claim.prediction.presets.includes(a.preset)) throw new Error(`the claim ${quoteInput(a.prediction)} is not asked before a run of the preset ${quoteInput(a.preset)}`);
  return claim as AskedClaim;
}

/**
 * What a hand-in says about the prediction: the claim it answers and the choice fixed when the graded run started,
 * or null when the student made none before it.
 */
export const submittedPredictionSchema = z
  .object({
    claim: z.string().max(80),
    choice: z.string().max(40).nullable(),
  })
  .strict();
export type SubmittedPrediction = z.infer<typeof submittedPredictionSchema>;

/** What a hand-in records: the choice fixed for `claim` when the run started, from the picks fixed then; null if none. */
export function handInPrediction(claim: string, picksAtStart: Readonly<Record<string, string>>): SubmittedPrediction {
  return { claim, choice: Object.hasOwn(picksAtStart, claim) ? picksAtStart[claim] : null };
}

/**
 * The grade's word on a prediction: made (with the choice, shown as information only), not made, or not readable
 * (the field is malformed: `detail` names it). Never whether the choice was right.
 */
export interface PredictionMark {
  made: boolean;
  /** The choice's id and its label, when made. */
  choice: string | null;
  label: string | null;
  /** Why the hand-in's field could not be read ('' when it could); such a prediction counts as not made. */
  problem: string;
}

const NOT_MADE: PredictionMark = { made: false, choice: null, label: null, problem: '' };

/**
 * Reads a hand-in's `prediction` field (untrusted) against the claim the assignment asks. A missing field is not
 * made (a file from before predictions, or a run handed in without one); a malformed one is not made either, and the
 * problem names the field, so the rest of the file still grades.
 */
export function markPrediction(raw: unknown, asked: AskedClaim): PredictionMark {
  if (raw === undefined) return NOT_MADE;
  const parsed = submittedPredictionSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ...NOT_MADE, problem: `prediction${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}` };
  }
  const { claim, choice } = parsed.data;
  if (claim !== asked.id) return { ...NOT_MADE, problem: `prediction.claim: answers ${quoteInput(claim)}, not the assignment’s ${quoteInput(asked.id)}` };
  if (choice === null) return NOT_MADE;
  const picked = asked.prediction.choices.find((c) => c.id === choice);
  if (!picked) return { ...NOT_MADE, problem: `prediction.choice: ${quoteInput(choice)} is not one of ${asked.prediction.choices.map((c) => c.id).join(', ')}` };
  return { made: true, choice, label: picked.label, problem: '' };
}

/** "made" or "not made", and why not when the field could not be read: the grade's prediction column. */
export const predictionStatus = (m: PredictionMark) => (m.made ? 'made' : m.problem ? `not made (${m.problem})` : 'not made');
