/**
 * What a claim is: a sentence the course writes about a run (a preset's description, a chapter's "this lab shows X"),
 * the seeded runs that test it, and a check on what those runs logged. Claims live per trainer (lib/claims/<trainer>.ts)
 * and import nothing from Node, so a lab page can load a trainer's claims and run a check on the learner's own log;
 * whatever a check reads besides the log (a chapter's text) comes in through ClaimContext.
 */
import type { RewardExampleName } from '@/lib/tasks/custom-reward';
import type { TrainerName } from '@/lib/train/trainer-names';
import type { LogLine } from '@/lib/train/run';

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

/** Each of a claim's runs by its name in Claim.runs: the lines it logged. */
export type Histories = Record<string, LogLine[]>;

/**
 * What a check may read besides the runs' logs. The CLI and the tests read from disk (scripts/claims/context.ts); a
 * page would fetch or bundle the chapters instead.
 */
export interface ClaimContext {
  /** A chapter's source, by its file name in content/chapters ("06-grpo.mdx"). */
  chapter(file: string): string;
}

export interface Claim {
  id: string;
  /** The sentence being checked, and where it is written. */
  text: string;
  where: string;
  fast?: boolean;
  runs: Record<string, ClaimRun>;
  check(history: Histories, context: ClaimContext): Verdict;
  /**
   * The question a lab asks before a run of one of its presets. A claim that has one is checked by it: its check is
   * its prediction's verdict on each of its cases (lib/claims/predict.ts checkByPrediction), so the lab, which runs
   * the same verdict on the learner's own run, and `npm run claims` cannot disagree.
   */
  prediction?: Prediction;
}

export interface PredictionChoice {
  id: string;
  /** What the learner picks, finishing the question's sentence ("rise by more than 10 points"). */
  label: string;
}

/** What one run measured, and whether the claim held on it. */
export interface PredictionVerdict {
  measured: string;
  held: boolean;
}

/** One run the claim's check reads, and what to call it in the figure ("seed 1", "lora_r4"). */
export interface PredictionCase {
  label: string;
  run: LogLine[];
}

export interface Prediction {
  /** The presets before whose runs the lab asks it: a single run of any of them is one case of the claim. */
  presets: readonly string[];
  /** The question, ending where a choice's label continues it ("Over 20 steps, held-out accuracy will"). */
  question: string;
  choices: readonly PredictionChoice[];
  /** The choice the claim makes (one of `choices`' ids). */
  claimed: string;
  /** The metrics its verdict reads, as the run logs them. */
  reads: readonly string[];
  /** The last step the verdict reads: a run that stops before it is not measured. */
  steps: number;
  /** The seeds each case is run on by `npm run claims`. */
  seeds: readonly number[];
  /** Why the claim holds, in two or three sentences. */
  why: string;
  /** The chapter section that explains it: the chapter's file in content/chapters, its slug, the heading's text and id. */
  section: { file: string; chapter: string; heading: string; anchor: string };
  /** One run's verdict; throws when the run did not log what it reads (it stopped too early). */
  verdict(run: LogLine[]): PredictionVerdict;
  /** The claim's runs as the cases its verdict reads, one per seed (or per preset). */
  cases(histories: Histories): PredictionCase[];
}

/** A trainer's claims module (lib/claims/<trainer>.ts), as a dynamic import of it resolves. */
export interface ClaimModule {
  claims: readonly Claim[];
}
