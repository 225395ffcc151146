/**
 * What the site remembers about a reader, on their device only: the shape and its version. Checking a stored value
 * against it is schema.ts, which a page loads only when there is a stored value to check.
 */
import type { PredictionOutcome } from '@/lib/claims/predict';

export const PROGRESS_VERSION = 4;
/**
 * Versions whose stored values are still read: version 1 had no exercises (it reads as having passed none), version 2
 * no lab runs (none finished), version 3 no predictions (none made).
 */
export const READABLE_PROGRESS_VERSIONS: readonly number[] = [1, 2, 3, 4];

export interface ChapterProgress {
  openedAt?: number;
  completedAt?: number;
}

export interface QuizAnswer {
  choice: number;
  correct: boolean;
  at: number;
}

/** A code exercise the reader passed (content/exercises.ts), with the code that passed: /path/ and a submission read it. */
export interface ExercisePass {
  passedAt: number;
  source: string;
}

/** A lab the reader trained to the end at least once (content/labs.ts), and the presets of the runs that finished. */
export interface LabRuns {
  finishedAt: number;
  presets: string[];
}

/**
 * The predictions made before a lab's runs of one claim (lib/claims: Claim.prediction): how many, how many matched
 * the run, and the last one. Made is what an assignment grades; matched is for the reader.
 */
export interface PredictionRecord {
  /** The lab it was made in (content/labs.ts). */
  lab: string;
  made: number;
  /** Made, the claim held on that run, and the reader had chosen what the claim says. */
  matched: number;
  /** The last prediction: the choice's id, how it fared, when. */
  choice: string;
  outcome: PredictionOutcome;
  at: number;
}

/** The most presets kept per lab (a lab offers at most a dozen). */
export const MAX_LAB_PRESETS = 20;

/** The longest passing code kept for an exercise (the checker accepts no longer). */
export const MAX_KEPT_SOURCE = 20_000;

export interface ProgressData {
  chapters: Record<string, ChapterProgress>;
  quizzes: Record<string, QuizAnswer>;
  /** By exercise id; absent until the first pass. */
  exercises?: Record<string, ExercisePass>;
  /** By lab slug; absent until a run finishes. */
  labs?: Record<string, LabRuns>;
  /** By claim id; absent until the first prediction graded by a finished run. */
  predictions?: Record<string, PredictionRecord>;
  lastVisited?: { slug: string; at: number };
}

export const emptyProgress = (): ProgressData => ({ chapters: {}, quizzes: {} });
