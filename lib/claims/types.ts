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
}

/** A trainer's claims module (lib/claims/<trainer>.ts), as a dynamic import of it resolves. */
export interface ClaimModule {
  claims: readonly Claim[];
}
