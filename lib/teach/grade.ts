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
 *      seed <n> is not the student's seed (an assignment with per-student seeds: lib/teach/seeds.ts);
 *      the weights do not reproduce the history: re-evaluating them on the lab's own test set under the run's
 *      config (what the run's evaluations measured) gives a different final metric than the history claims.
 *    The hashes catch careless edits only: a student can recompute them. The last check catches weights swapped
 *    from another run, or an edited claim, even with every hash recomputed. And the score never comes from the
 *    file: it is measured on the instructor's seeded held-out set, which students never see.
 *  - late: after the due date. When the instructor has the time a file was received (their LMS's upload times,
 *    `received`), that time decides; otherwise the student's own `submitted` time does, and the flag says it is
 *    self-reported (the student's clock: a hint, not proof).
 *  - ok.
 *
 * An assignment that asks a prediction also gets the row's `prediction`: made or not made (lib/teach/prediction.ts),
 * never right or wrong, and nothing above depends on it.
 */
import { decodeWeightsFile } from '@/lib/models/weights-file';
import { completeConfigProblem, quoteInput, type FieldValue } from '@/lib/train/config';
import { runSettingsOf, trainerSettings, TRAINERS, type TrainerName } from '@/lib/spec/registry';
import type { EvalSet } from '@/lib/train/grading/types';
import type { Metrics } from '@/lib/train/run';
import { errorMessage } from '@/lib/errors';
import { architectureProblem } from './architecture';
import { firstIssue, type AssignmentFile } from './assignment';
import { fromBase64, parseUntrustedJson, sha256Hex } from './canonical';
import { goalMet, goalMetrics } from './goal';
import { MAX_STUDENT_LENGTH, MAX_SUBMISSION_BYTES, submissionDigest, submissionSchema } from './submission';
import { perStudentSeeds, studentKey, studentSeed, type Seeding } from './seeds';
import { duration } from './due';
import { assignedPrediction, markPrediction, type PredictionMark } from './prediction';

/** The lab's own test set under the run's config, or held-out problems drawn with the instructor's seed. */
export type { EvalSet };
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
  exercises?: Record<string, { passed: boolean; detail: string; inputs?: string }>;
  /** The seed in the run's config (null for exercises or a file that did not parse). */
  seed: number | null;
  /** The time the file says it was made: the student's clock. */
  submitted: string | null;
  /** When the instructor's records say the file arrived (an LMS's upload times), if they were given. */
  received: string | null;
  /** Under an assignment that asks a prediction, once the file parses: made or not made, and the choice. */
  prediction?: PredictionMark;
  /** Files with byte-identical weights share a group number (1, 2, …), set by flagSharedWeights. */
  sameWeightsGroup?: number;
}

/** A file to grade: its name, its text and, when the instructor knows it, the time it was received. */
export interface GradeInput {
  name: string;
  text: string;
  received?: Date | null;
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

export { duration };

/** The row of a file that cannot be graded (e.g. one too large to read). */
export function invalidRow(file: string, reason: string): GradeRow {
  return { file, student: '', status: 'invalid', detail: reason, claimed: null, measured: null, goalMet: null, flags: [], weightsSha256: null, seed: null, submitted: null, received: null };
}

/**
 * Whether a file is late, and its flags about time. The received time (the instructor's records) decides when there
 * is one; otherwise the student's own time does, labelled as self-reported.
 */
export function judgeTime(submittedIso: string, due: string | null, now: Date, received: Date | null | undefined): { late: boolean; flags: string[] } {
  const submitted = Date.parse(submittedIso);
  const flags: string[] = [];
  const dueAt = due === null ? null : Date.parse(due);
  if (received) {
    if (submitted > received.getTime() + 5 * 60_000) flags.push('self-reported time after the upload time (the student’s clock)');
    const late = dueAt !== null && received.getTime() > dueAt;
    if (late) flags.push(`late by ${duration(received.getTime() - dueAt!)} (upload time)`);
    return { late, flags };
  }
  if (submitted > now.getTime() + 5 * 60_000) flags.push('submitted in the future (the student’s clock)');
  const late = dueAt !== null && submitted > dueAt;
  if (late) flags.push(`late by ${duration(submitted - dueAt!)} (self-reported time)`);
  return { late, flags };
}

/** Grades one file's text; `now` judges timestamps from the future. */
export async function gradeSubmission(file: GradeInput, assignment: AssignmentFile, evaluate: Evaluator, now = new Date()): Promise<GradeRow> {
  const row: GradeRow = { ...invalidRow(file.name, ''), status: 'ok', received: file.received ? file.received.toISOString() : null };
  const invalid = (reason: string): GradeRow => ({ ...row, status: 'invalid', detail: reason, goalMet: null });
  try {
    return await grade(file.text, assignment, evaluate, now, file.received ?? null, row, invalid);
  } catch (error) {
    return invalid(`could not be graded: ${errorMessage(error)}`);
  }
}

async function grade(text: string, assignment: AssignmentFile, evaluate: Evaluator, now: Date, received: Date | null, row: GradeRow, invalid: (reason: string) => GradeRow): Promise<GradeRow> {
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
  // Information beside the grade, read before anything can make the file invalid: the goal never reads it.
  const asked = await assignedPrediction(assignment);
  if (asked) row.prediction = markPrediction(sub.prediction, asked);
  row.submitted = sub.submitted;
  if (typeof sub.config.seed === 'number') row.seed = sub.config.seed;
  const { trainer, goal } = assignment;
  if (sub.assignment.id !== assignment.id) return invalid(`made for another assignment (${quoteInput(sub.assignment.id)}, not ${quoteInput(assignment.id)})`);
  if (sub.trainer !== trainer) return invalid(`a ${quoteInput(sub.trainer)} run; this assignment trains ${trainer}`);
  const { schema } = trainerSettings(trainer);
  const problem = completeConfigProblem(schema, sub.config);
  if (problem !== null) return invalid(`config: ${problem}`);
  // The settings the run had: a file that predates a field ran with its `absentMeans` (the digest stays the file's own).
  const config = runSettingsOf(trainer, sub.config);
  const settings = runSettingsOf(trainer, assignment.settings);
  const final = sub.history.at(-1)!;
  if (final.kind !== 'eval' || final.step !== config.max_steps) return invalid('the history does not end with the run’s final evaluation (submit a finished run, with eval_steps above 0)');
  const claimedValue = Object.hasOwn(final.metrics, goal.metric) ? final.metrics[goal.metric] : null;
  row.claimed = typeof claimedValue === 'number' ? claimedValue : null;

  let weights: Uint8Array;
  try {
    weights = fromBase64(sub.weights.data);
  } catch {
    return invalid('weights: not base64');
  }
  try {
    const problem = await architectureProblem(trainer, config, decodeWeightsFile(weights));
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
    if (config[key] !== settings[key]) tampered.push(`locked setting ${key} changed (${show(settings[key])} → ${show(config[key])})`);
  }
  if (perStudentSeeds(assignment)) {
    const own = studentSeed(assignment.id, sub.student);
    if (config.seed !== own) tampered.push(`seed ${show(config.seed)} is not this student’s seed (${own}): trained for another student id, or the name was changed`);
  }

  let reproduced: Metrics;
  try {
    reproduced = await evaluate(trainer, weights, config, { kind: 'public' });
  } catch (error) {
    return invalid(`weights: could not be evaluated: ${errorMessage(error)}`);
  }
  for (const metric of goalMetrics(trainer)) {
    const claim = final.metrics[metric];
    const again = reproduced[metric];
    if (typeof claim === 'number' && typeof again === 'number' && !reproduces(claim, again)) {
      tampered.push(`the weights do not reproduce the history (${metric} ${fmt(claim)} at step ${final.step}; the weights score ${fmt(again)} on the lab’s test set)`);
      break;
    }
  }

  let measured: Metrics;
  try {
    measured = await evaluate(trainer, weights, settings, { kind: 'seeded', seed: assignment.grading.eval_seed, samples: assignment.grading.eval_samples });
  } catch (error) {
    return invalid(`the weights do not fit the assignment’s task: ${errorMessage(error)}`);
  }
  row.measured = Object.hasOwn(measured, goal.metric) ? measured[goal.metric] : null;
  if (row.measured === null) row.flags.push(`${goal.metric} is not measured under the assignment’s settings`);
  const publicSize = Number(config[TRAINERS[trainer].grading.evalSize.field]);
  if (row.claimed !== null && row.measured !== null && farApart(goal.metric, row.claimed, row.measured, publicSize, assignment.grading.eval_samples)) {
    row.flags.push(`claimed far ${row.claimed > row.measured ? 'above' : 'below'} measured (${fmt(row.claimed)} vs ${fmt(row.measured)})`);
  }
  const { late, flags } = judgeTime(sub.submitted, assignment.due, now, received);
  row.flags.push(...flags);

  if (tampered.length > 0) return { ...row, status: 'tampered', detail: tampered.join('; '), goalMet: false };
  return { ...row, status: late ? 'late' : 'ok', goalMet: goalMet(goal, row.measured) };
}

/** At most this many names in one flag; the rest are counted ("and 5 more"): a cell stays short with 100 files. */
const NAMES_IN_FLAG = 3;

function listNames(names: string[]): string {
  const shown = names.slice(0, NAMES_IN_FLAG).join(', ');
  return names.length > NAMES_IN_FLAG ? `${shown} and ${names.length - NAMES_IN_FLAG} more` : shown;
}

/**
 * Flags submissions whose weights are byte-identical to another student's, one numbered group per set of identical
 * weights, with a short flag: the group, at most three other names, and, under per-student seeds, whose seed the
 * files were trained on (the student whose own seed appears in the group's configs). Two files of one student (a
 * resubmission) are not a copy. Under one locked seed, identical runs are expected and the flag says so.
 */
export function flagSharedWeights(rows: GradeRow[], assignment?: { id: string; seeding?: Seeding }): GradeRow[] {
  const groups = new Map<string, GradeRow[]>();
  for (const row of rows) if (row.weightsSha256 !== null) groups.set(row.weightsSha256, [...(groups.get(row.weightsSha256) ?? []), row]);
  const numbered = new Map<string, number>();
  for (const [sha, members] of groups) {
    if (new Set(members.map((r) => studentKey(r.student))).size > 1) numbered.set(sha, numbered.size + 1);
  }
  return rows.map((row) => {
    const group = row.weightsSha256 === null ? undefined : numbered.get(row.weightsSha256);
    if (group === undefined) return row;
    const members = groups.get(row.weightsSha256!)!;
    const others = [...new Set(members.filter((o) => studentKey(o.student) !== studentKey(row.student)).map((o) => o.student || o.file))];
    let why = '';
    if (assignment && perStudentSeeds(assignment)) {
      const seeds = new Set(members.map((m) => m.seed));
      const owners = [...new Set(members.map((m) => m.student).filter((s) => s && seeds.has(studentSeed(assignment.id, s))))];
      why = owners.length === 1 ? `; trained on ${owners[0]}’s seed` : owners.length > 1 ? `; the files claim the seeds of ${listNames(owners)}: one run has one seed` : '';
    } else if (assignment) why = '; one seed for the class: honest runs match too';
    return { ...row, sameWeightsGroup: group, flags: [...row.flags, `same weights (group ${group}) as ${listNames(others)}${why}`] };
  });
}
