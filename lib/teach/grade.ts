/**
 * Grading one submission file against the instructor's assignment file, the same way on the grader page (in a
 * worker) and in `npm run grade`. Whatever the file holds, this returns a row and never throws.
 *
 * Statuses, checked in this order:
 *  - invalid: <reason>  the file cannot be graded: too large, not JSON (a truncated file), not the schema, another
 *    assignment or trainer, a config the trainer refuses, a history that does not end with the run's final
 *    evaluation, or weights that do not parse or do not fit the lab's model.
 *  - tampered: <what>   the file parses but was changed after Submit. Every finding is listed:
 *      weights      the weights' SHA-256 is not the one recorded at Submit (weights pasted in from another run);
 *      file edited  the digest of the other fields does not match (a number edited by hand);
 *      assignment   made from an edited link (its hash is not this assignment's);
 *      locked setting <k> changed;
 *      the weights do not reproduce the history: re-evaluating them on the lab's own test set under the run's
 *      config (what the run's evaluations measured) gives a different final metric than the history claims.
 *    The hashes catch careless edits only: a student can recompute them. The last check catches weights swapped
 *    from another run, or an edited claim, even with every hash recomputed. And the score never comes from the
 *    file: it is measured on the instructor's seeded held-out set, which students never see.
 *  - late: submitted after the due date (the student's clock: a flag for the instructor, not proof).
 *  - ok.
 */
import { decodeWeightsFile } from '@/lib/models/weights-file';
import { completeConfigProblem, quoteInput, type FieldValue } from '@/lib/train/config';
import { trainerSettings, type TrainerName } from '@/lib/train/registry';
import type { Metrics } from '@/lib/train/run';
import { errorMessage } from '@/lib/errors';
import { architectureProblem } from './architecture';
import { firstIssue, type AssignmentFile } from './assignment';
import { fromBase64, parseUntrustedJson, sha256Hex } from './canonical';
import { GOAL_METRICS, goalMet } from './goal';
import { MAX_STUDENT_LENGTH, MAX_SUBMISSION_BYTES, submissionDigest, submissionSchema } from './submission';

/** The lab's own test set under the run's config, or held-out problems drawn with the instructor's seed. */
export type EvalSet = { kind: 'public' } | { kind: 'seeded'; seed: number; samples: number };
export type Evaluator = (trainer: TrainerName, weights: Uint8Array, config: Record<string, FieldValue>, set: EvalSet) => Promise<Metrics>;

export type Status = 'ok' | 'late' | 'invalid' | 'tampered';

export interface GradeRow {
  file: string;
  /** As typed by the student: untrusted text. */
  student: string;
  status: Status;
  /** Why invalid, or what was tampered with; '' otherwise. */
  detail: string;
  /** The goal metric at the history's final evaluation. */
  claimed: number | null;
  /** The goal metric re-measured on the instructor's evaluation set. */
  measured: number | null;
  /** Whether `measured` meets the goal (never for a tampered file); null when not measured. */
  goalMet: boolean | null;
  flags: string[];
  /** SHA-256 of the weights, once they parse: identical weights in two submissions are flagged. */
  weightsSha256: string | null;
  /** An exercise submission's result per listed exercise (lib/teach/exercise-submission.ts); absent for a run. */
  exercises?: Record<string, { passed: boolean; detail: string }>;
}

export const statusText = (row: Pick<GradeRow, 'status' | 'detail'>) => (row.detail ? `${row.status}: ${row.detail}` : row.status);

/**
 * How far the re-evaluated final metric may be from the history's claim. The student's backend (WebGPU, WebGL) and
 * the grader's (wasm) round differently, which can flip a few greedy answers; a swapped checkpoint or an edited
 * number moves it far more.
 */
export const reproduces = (claimed: number, measured: number) => Math.abs(claimed - measured) <= Math.max(0.05, 0.05 * Math.abs(claimed));
/** Metrics that are not shares of problems (in [0, 1]) but returns, lengths or counts. */
const UNBOUNDED = new Set(['eval/return', 'eval/length', 'eval/mean_turns']);

/**
 * Whether a claim is far from the instructor's measurement. For a share of problems, "far" is three standard errors
 * of the difference of two independent samples of n1 and n2 problems at the worst case p = 1/2 (0.15 at 200 and
 * 200), so honest runs are not flagged for sampling noise; for returns and counts, 15% of the claim (at least 0.15).
 */
export function farApart(metric: string, claimed: number, measured: number, n1: number, n2: number): boolean {
  if (UNBOUNDED.has(metric)) return Math.abs(claimed - measured) > 0.15 * Math.max(1, Math.abs(claimed));
  return Math.abs(claimed - measured) > 3 * Math.sqrt(0.25 * (1 / n1 + 1 / n2));
}

const fmt = (x: number) => String(Number(x.toFixed(4)));
const show = (v: FieldValue | undefined) => (typeof v === 'string' ? quoteInput(v) : String(v));

export function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h ${minutes % 60} min` : `${Math.floor(hours / 24)} days`;
}

/** The row of a file that cannot be graded (e.g. one too large to read). */
export function invalidRow(file: string, reason: string): GradeRow {
  return { file, student: '', status: 'invalid', detail: reason, claimed: null, measured: null, goalMet: null, flags: [], weightsSha256: null };
}

/** Grades one file's text; `now` judges timestamps from the future. */
export async function gradeSubmission(file: { name: string; text: string }, assignment: AssignmentFile, evaluate: Evaluator, now = new Date()): Promise<GradeRow> {
  const row: GradeRow = { ...invalidRow(file.name, ''), status: 'ok' };
  const invalid = (reason: string): GradeRow => ({ ...row, status: 'invalid', detail: reason, goalMet: null });
  try {
    return await grade(file.text, assignment, evaluate, now, row, invalid);
  } catch (error) {
    return invalid(`could not be graded: ${errorMessage(error)}`);
  }
}

async function grade(text: string, assignment: AssignmentFile, evaluate: Evaluator, now: Date, row: GradeRow, invalid: (reason: string) => GradeRow): Promise<GradeRow> {
  if (text.length > MAX_SUBMISSION_BYTES) return invalid(`the file is ${(text.length / 1e6).toFixed(1)} MB; a submission is at most ${MAX_SUBMISSION_BYTES / 1e6} MB`);
  let json: unknown;
  try {
    json = parseUntrustedJson(text);
  } catch (error) {
    return invalid(errorMessage(error) === 'not valid JSON' ? 'not valid JSON (a truncated or damaged file)' : errorMessage(error));
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return invalid('not a submission (a submission is a JSON object)');
  const named = (json as { student?: unknown }).student;
  if (typeof named === 'string') row.student = named.trim().slice(0, MAX_STUDENT_LENGTH);
  const parsed = submissionSchema.safeParse(json);
  if (!parsed.success) return invalid(firstIssue(parsed.error));
  const sub = parsed.data;
  const { trainer, goal } = assignment;
  if (sub.assignment.id !== assignment.id) return invalid(`made for another assignment (${quoteInput(sub.assignment.id)}, not ${quoteInput(assignment.id)})`);
  if (sub.trainer !== trainer) return invalid(`a ${quoteInput(sub.trainer)} run; this assignment trains ${trainer}`);
  const { schema } = trainerSettings(trainer);
  const problem = completeConfigProblem(schema, sub.config);
  if (problem !== null) return invalid(`config: ${problem}`);
  const final = sub.history.at(-1)!;
  if (final.kind !== 'eval' || final.step !== sub.config.max_steps) return invalid('the history does not end with the run’s final evaluation (submit a finished run, with eval_steps above 0)');
  const claimedValue = Object.hasOwn(final.metrics, goal.metric) ? final.metrics[goal.metric] : null;
  row.claimed = typeof claimedValue === 'number' ? claimedValue : null;

  let weights: Uint8Array;
  try {
    weights = fromBase64(sub.weights.data);
  } catch {
    return invalid('weights: not base64');
  }
  try {
    const problem = architectureProblem(trainer, sub.config, decodeWeightsFile(weights));
    if (problem) return invalid(`weights: ${problem}`);
  } catch (error) {
    return invalid(`weights: ${errorMessage(error).replace(/^Invalid weights file: /, '')}`);
  }

  const tampered: string[] = [];
  row.weightsSha256 = await sha256Hex(weights);
  if (row.weightsSha256 !== sub.weights.sha256) tampered.push('weights (their SHA-256 is not the one recorded at Submit)');
  if ((await submissionDigest(json as Record<string, unknown>)) !== sub.digest) tampered.push('file edited after Submit (its digest does not match)');
  if (sub.assignment.hash !== assignment.hash) tampered.push('assignment (made from an edited link: its hash is not this assignment’s)');
  for (const key of assignment.locked) {
    if (sub.config[key] !== assignment.settings[key]) tampered.push(`locked setting ${key} changed (${show(assignment.settings[key])} → ${show(sub.config[key])})`);
  }

  let reproduced: Metrics;
  try {
    reproduced = await evaluate(trainer, weights, sub.config, { kind: 'public' });
  } catch (error) {
    return invalid(`weights: could not be evaluated: ${errorMessage(error)}`);
  }
  for (const metric of GOAL_METRICS[trainer]) {
    const claim = final.metrics[metric];
    const again = reproduced[metric];
    if (typeof claim === 'number' && typeof again === 'number' && !reproduces(claim, again)) {
      tampered.push(`the weights do not reproduce the history (${metric} ${fmt(claim)} at step ${final.step}; the weights score ${fmt(again)} on the lab’s test set)`);
      break;
    }
  }

  let measured: Metrics;
  try {
    measured = await evaluate(trainer, weights, assignment.settings, { kind: 'seeded', seed: assignment.grading.eval_seed, samples: assignment.grading.eval_samples });
  } catch (error) {
    return invalid(`the weights do not fit the assignment’s task: ${errorMessage(error)}`);
  }
  row.measured = Object.hasOwn(measured, goal.metric) ? measured[goal.metric] : null;
  if (row.measured === null) row.flags.push(`${goal.metric} is not measured under the assignment’s settings`);
  const publicSize = Number(trainer === 'ppo' ? sub.config.eval_episodes : sub.config.eval_samples);
  if (row.claimed !== null && row.measured !== null && farApart(goal.metric, row.claimed, row.measured, publicSize, assignment.grading.eval_samples)) {
    row.flags.push(`claimed far ${row.claimed > row.measured ? 'above' : 'below'} measured (${fmt(row.claimed)} vs ${fmt(row.measured)})`);
  }
  const submitted = Date.parse(sub.submitted);
  if (submitted > now.getTime() + 5 * 60_000) row.flags.push('submitted in the future (the student’s clock)');
  const late = assignment.due !== null && submitted > Date.parse(assignment.due);
  if (late) row.flags.push(`late by ${duration(submitted - Date.parse(assignment.due!))}`);

  if (tampered.length > 0) return { ...row, status: 'tampered', detail: tampered.join('; '), goalMet: false };
  return { ...row, status: late ? 'late' : 'ok', goalMet: goalMet(goal, row.measured) };
}

/** Flags submissions whose weights are byte-identical to another's (a copied run). */
export function flagSharedWeights(rows: GradeRow[]): GradeRow[] {
  return rows.map((row) => {
    if (row.weightsSha256 === null) return row;
    const same = rows.filter((other) => other !== row && other.weightsSha256 === row.weightsSha256);
    if (same.length === 0) return row;
    return { ...row, flags: [...row.flags, `same weights as ${same.map((o) => (o.student ? `${o.student} (${o.file})` : o.file)).join(', ')}`] };
  });
}
