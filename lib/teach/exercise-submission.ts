/**
 * The exercise part of an assignment: a student hands in the code of each exercise the assignment lists, as one
 * file made on /exercises/ (its link holds the assignment). The grader runs each source again, in a sandbox, on
 * cases drawn from the assignment's exercise seed (lib/exercises/check.ts; exerciseSeedOf), which students never
 * see: every regrade, on the page or the CLI, gives the same rows. Code that passed only the student's own cases, or a
 * file edited to claim a pass, gains nothing: the file holds code only, never a result. A digest recorded when the
 * file was made shows an edit made after; like the run submission's, it catches careless edits only. No tfjs.
 */
import { z } from 'zod';
import { exerciseNamed, isExerciseId } from '@/content/exercises';
import { describeResult, MAX_SOURCE_LENGTH, resultLine, type CheckResult } from '@/lib/exercises/check';
import { quoteInput } from '@/lib/train/config';
import { errorMessage } from '@/lib/errors';
import { exerciseSeedOf, firstIssue, MAX_ASSIGNED_EXERCISES, type AssignmentFile, type SharedAssignment } from './assignment';
import { canonicalJson, parseUntrustedJson, SHA256_HEX, sha256Hex } from './canonical';
import { invalidRow, judgeTime, type GradeInput, type GradeRow } from './grade';
import { MAX_STUDENT_LENGTH } from './submission';

export const EXERCISE_SUBMISSION_FORMAT = 'agentic-rl-lab/exercise-submission';
/** Every listed exercise at the longest source the checker accepts, with room to spare. */
export const MAX_EXERCISE_SUBMISSION_BYTES = 600_000;

export interface ExerciseSubmission {
  format: typeof EXERCISE_SUBMISSION_FORMAT;
  version: 1;
  student: string;
  assignment: { id: string; hash: string };
  /** By exercise id: the student's code, as typed. */
  sources: Record<string, string>;
  submitted: string;
  /** SHA-256 of the canonical JSON of every other field. */
  digest: string;
}

export const exerciseSubmissionSchema = z
  .object({
    format: z.literal(EXERCISE_SUBMISSION_FORMAT),
    version: z.literal(1, { error: 'unsupported exercise submission version (this site reads version 1)' }),
    student: z.string().trim().min(1, { error: 'no student name' }).max(MAX_STUDENT_LENGTH),
    assignment: z.object({ id: z.string().max(40), hash: z.string().regex(SHA256_HEX) }).strict(),
    sources: z
      .record(z.string().regex(/^[a-z0-9-]{1,40}$/, { error: 'not an exercise id' }), z.string().max(MAX_SOURCE_LENGTH, { error: `a source is at most ${MAX_SOURCE_LENGTH} characters` }))
      .refine((s) => Object.keys(s).length <= MAX_ASSIGNED_EXERCISES, { error: `at most ${MAX_ASSIGNED_EXERCISES} sources` }),
    submitted: z.iso.datetime({ offset: true }),
    digest: z.string().regex(SHA256_HEX),
  })
  .strict();

const digestOf = (json: Record<string, unknown>) => {
  const { digest: _, ...rest } = json;
  return sha256Hex(canonicalJson(rest));
};

/** The file a student hands in: the code of each of the assignment's exercises (missing ones are left out). */
export async function buildExerciseSubmission(parts: { student: string; assignment: SharedAssignment; sources: Record<string, string>; submitted?: Date }): Promise<ExerciseSubmission> {
  const student = parts.student.trim();
  if (!student) throw new Error('type your name or student id first');
  if (student.length > MAX_STUDENT_LENGTH) throw new Error(`a name is at most ${MAX_STUDENT_LENGTH} characters`);
  const listed = parts.assignment.exercises ?? [];
  if (listed.length === 0) throw new Error('this assignment lists no exercises');
  const sources: Record<string, string> = {};
  for (const id of listed) {
    const source = parts.sources[id];
    if (source === undefined) continue;
    if (source.length > MAX_SOURCE_LENGTH) throw new Error(`the code of ${id} is longer than ${MAX_SOURCE_LENGTH} characters`);
    sources[id] = source;
  }
  const body = {
    format: EXERCISE_SUBMISSION_FORMAT as typeof EXERCISE_SUBMISSION_FORMAT,
    version: 1 as const,
    student,
    assignment: { id: parts.assignment.id, hash: parts.assignment.hash },
    sources,
    submitted: (parts.submitted ?? new Date()).toISOString(),
  };
  return { ...body, digest: await digestOf(body) };
}

/** A file name: the assignment id and the student's name reduced to safe characters. */
export function exerciseSubmissionFileName(s: Pick<ExerciseSubmission, 'student' | 'assignment'>): string {
  const who = s.student.normalize('NFKD').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'student';
  return `exercises-${s.assignment.id}-${who}.json`;
}

/** Whether a file's text is an exercise submission (by its format field): the grader sends it here, not to tfjs. */
export function isExerciseSubmissionText(text: string): boolean {
  try {
    const json = parseUntrustedJson(text);
    return typeof json === 'object' && json !== null && (json as { format?: unknown }).format === EXERCISE_SUBMISSION_FORMAT;
  } catch {
    return false;
  }
}

/** Runs one exercise's source on the cases of `seed`: the browser sandbox on the grader page, the Node one in the CLI. */
export type ExerciseChecker = (exerciseId: string, source: string, seed: number) => Promise<CheckResult>;

/** The per-exercise cells of a graded row: "passed", "failed: …", or "not handed in". */
export interface ExerciseGrade {
  passed: boolean;
  detail: string;
  /** The failing case's arguments by name ("rewards = [1, 0], gamma = 0.9"), for the student's feedback. */
  inputs?: string;
}

/**
 * Grades an exercise submission against the instructor's file; returns a row and never throws. Statuses as for run
 * submissions: invalid (cannot be graded), tampered (edited after it was made, or made from an edited link), late, ok.
 */
export async function gradeExerciseSubmission(file: GradeInput, assignment: AssignmentFile, check: ExerciseChecker, now = new Date()): Promise<GradeRow> {
  const row: GradeRow = { ...invalidRow(file.name, ''), status: 'ok', received: file.received ? file.received.toISOString() : null };
  const invalid = (reason: string): GradeRow => ({ ...row, status: 'invalid', detail: reason });
  try {
    if (file.text.length > MAX_EXERCISE_SUBMISSION_BYTES) return invalid(`the file is ${(file.text.length / 1e6).toFixed(1)} MB; an exercise submission is at most ${MAX_EXERCISE_SUBMISSION_BYTES / 1e6} MB`);
    let json: unknown;
    try {
      json = parseUntrustedJson(file.text);
    } catch (error) {
      return invalid(errorMessage(error) === 'not valid JSON' ? 'not valid JSON (a truncated or damaged file)' : errorMessage(error));
    }
    const named = (json as { student?: unknown } | null)?.student;
    if (typeof named === 'string') row.student = named.trim().slice(0, MAX_STUDENT_LENGTH);
    const parsed = exerciseSubmissionSchema.safeParse(json);
    if (!parsed.success) return invalid(firstIssue(parsed.error));
    const sub = parsed.data;
    row.submitted = sub.submitted;
    if (sub.assignment.id !== assignment.id) return invalid(`made for another assignment (${quoteInput(sub.assignment.id)}, not ${quoteInput(assignment.id)})`);
    const listed = assignment.exercises ?? [];
    if (listed.length === 0) return invalid('this assignment lists no exercises');
    const extra = Object.keys(sub.sources).find((id) => !listed.includes(id));
    if (extra !== undefined) return invalid(`code for ${quoteInput(extra)}, which this assignment does not list`);

    const tampered: string[] = [];
    if ((await digestOf(json as Record<string, unknown>)) !== sub.digest) tampered.push('file edited after it was made (its digest does not match)');
    if (sub.assignment.hash !== assignment.hash) tampered.push('assignment (made from an edited link: its hash is not this assignment’s)');

    const grades: Record<string, ExerciseGrade> = {};
    for (const id of listed) {
      const source = Object.hasOwn(sub.sources, id) ? sub.sources[id] : undefined;
      if (source === undefined || !isExerciseId(id) || !exerciseNamed(id)) {
        grades[id] = { passed: false, detail: 'not handed in' };
        continue;
      }
      const result = await check(id, source, exerciseSeedOf(assignment));
      const inputs = result.passed ? undefined : describeResult(result, exerciseNamed(id)!).inputs?.join(', ');
      grades[id] = { passed: result.passed, detail: resultLine(result, id), ...(inputs ? { inputs: inputs.length > 300 ? `${inputs.slice(0, 300)}…` : inputs } : {}) };
    }
    row.exercises = grades;

    const { late, flags } = judgeTime(sub.submitted, assignment.due, now, file.received);
    row.flags.push(...flags);
    if (tampered.length > 0) return { ...row, status: 'tampered', detail: tampered.join('; ') };
    return { ...row, status: late ? 'late' : 'ok' };
  } catch (error) {
    return invalid(`could not be graded: ${errorMessage(error)}`);
  }
}
