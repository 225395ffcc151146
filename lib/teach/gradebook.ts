/**
 * From graded files to one row per student, for an LMS gradebook. A student may hand in a lab run and an exercises
 * file, and may hand in again: per student (matched by student id, lib/teach/seeds.ts's studentKey) and per part,
 * the latest file that could be graded counts, by the time it was received when the instructor gave upload times,
 * else by its self-reported time; files that could not be graded are listed, never counted. The score is numeric:
 * 100 × points / possible, one point for the lab's goal met and one per exercise passed (a tampered file scores 0 for
 * its part). Lateness is reported, not deducted: the policy is the instructor's. A prediction the assignment asks is
 * reported as made or not made with the counted run, and scores nothing either way. No tfjs.
 */
import { TRAINERS } from '@/lib/spec/registry';
import { csvCell, csvRecords, CsvError } from './csv';
import type { AssignmentFile } from './assignment';
import { formatDue } from './due';
import { formatGoal } from './goal';
import { choiceText, gradeNumber, PREDICTION_COLUMNS } from './csv';
import { predictionStatus } from './prediction';
import { statusText, type GradeRow } from './grade';
import { studentKey } from './seeds';

export interface RosterEntry {
  id: string;
  name: string;
}

/** A roster file: CSV with an "id" column and, optionally, "name"; ids must be unique (as studentKey compares them). */
export function parseRoster(text: string): RosterEntry[] {
  const records = csvRecords(text, ['id'], 'roster');
  const seen = new Set<string>();
  return records.map((r, i) => {
    if (!r.id) throw new CsvError(`roster: line ${i + 2} has no id`);
    if (r.id.length > 100) throw new CsvError(`roster: line ${i + 2}: an id is at most 100 characters`);
    const key = studentKey(r.id);
    if (seen.has(key)) throw new CsvError(`roster: ${JSON.stringify(r.id)} is listed twice`);
    seen.add(key);
    return { id: r.id, name: (r.name ?? '').slice(0, 200) };
  });
}

/**
 * Upload times, e.g. exported from an LMS: CSV with a "file" column (the submission's file name) and a "received"
 * column (ISO 8601 with a time zone: a time without one means a different instant on every machine, so it is refused).
 */
export function parseReceived(text: string): Map<string, Date> {
  const records = csvRecords(text, ['file', 'received'], 'upload times');
  const times = new Map<string, Date>();
  records.forEach((r, i) => {
    if (!/(?:Z|[+-]\d{2}:?\d{2})$/i.test(r.received) || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(r.received)) {
      throw new CsvError(`upload times: line ${i + 2}: ${JSON.stringify(r.received.slice(0, 40))} is not an ISO 8601 time with a zone (e.g. 2026-12-10T17:03:00Z)`);
    }
    const at = new Date(r.received);
    if (Number.isNaN(at.getTime())) throw new CsvError(`upload times: line ${i + 2}: not a date: ${JSON.stringify(r.received.slice(0, 40))}`);
    if (times.has(r.file)) throw new CsvError(`upload times: ${JSON.stringify(r.file.slice(0, 80))} is listed twice`);
    times.set(r.file, at);
  });
  return times;
}

export interface GradebookEntry {
  /** The student id as the roster (or else the latest file) writes it. */
  id: string;
  name: string;
  /** 0–100, or null for a student on the roster who handed nothing in. */
  score: number | null;
  /** The run that counts, and the exercises file that counts. */
  lab: GradeRow | null;
  exercises: GradeRow | null;
  late: boolean;
  /** Every file of this student, counted or not (resubmissions, invalid files). */
  files: string[];
  onRoster: boolean;
  feedback: string;
}

const isExerciseRow = (r: GradeRow) => r.exercises !== undefined;
/** The time a file counts by: received when known, else self-reported. */
const timeOf = (r: GradeRow) => Date.parse(r.received ?? r.submitted ?? '') || 0;

/** The rule, in words, for the page, the CLI and the README. */
export const GRADEBOOK_RULE =
  'one row per student id; per part (lab run, exercises) the latest file that could be graded counts (by upload time when given, else the self-reported time); score = 100 × points / possible: 1 point for the goal met, 1 per exercise passed, 0 for a tampered part; lateness is reported, not deducted';

function labFeedback(r: GradeRow, a: AssignmentFile): string {
  const unit = TRAINERS[a.trainer].grading.evalSize.unit;
  if (r.status === 'tampered') return `Lab: not scored: ${r.detail}.`;
  const measured = r.measured === null ? 'not measured' : gradeNumber(r.measured);
  const claimed = r.claimed === null ? '' : ` (your page showed ${gradeNumber(r.claimed)} on the lab’s own test set)`;
  return `Lab: ${a.goal.metric} ${measured} on ${a.grading.eval_samples} held-out ${unit} the instructor drew${claimed}; goal ${formatGoal(a.goal)}: ${r.goalMet ? 'met' : 'not met'}.`;
}

function exerciseFeedback(r: GradeRow, ids: readonly string[]): string {
  if (r.status === 'tampered') return `Exercises: not scored: ${r.detail}.`;
  const passed = ids.filter((id) => r.exercises?.[id]?.passed).length;
  const firstFailing = ids.find((id) => !r.exercises?.[id]?.passed);
  const grade = firstFailing === undefined ? undefined : r.exercises?.[firstFailing];
  const failing = firstFailing === undefined ? '' : ` First not passed: ${firstFailing}: ${grade?.detail ?? 'not handed in'}${grade?.inputs ? ` (inputs: ${grade.inputs})` : ''}.`;
  return `Exercises: ${passed} of ${ids.length} passed.${failing.length > 600 ? `${failing.slice(0, 600)}…` : failing}`;
}

/** Whether the counted run came with a prediction, and which: never whether it was right. */
function predictionFeedback(m: NonNullable<GradeRow['prediction']>): string {
  if (m.made) return `Prediction: made before your run (you chose “${m.label}”); only whether you made it is recorded.`;
  return `Prediction: not made before your run${m.problem ? ` (${m.problem})` : ''}.`;
}

/** One entry per student (roster order first, then students not on it), from graded rows. */
export function buildGradebook(rows: GradeRow[], assignment: AssignmentFile, roster: RosterEntry[] | null = null): GradebookEntry[] {
  const ids = assignment.exercises ?? [];
  const possible = 1 + ids.length;
  const byStudent = new Map<string, GradeRow[]>();
  for (const row of rows) {
    if (!row.student) continue; // a file with no readable name cannot be anyone's
    const key = studentKey(row.student);
    byStudent.set(key, [...(byStudent.get(key) ?? []), row]);
  }
  const latest = (list: GradeRow[], exercise: boolean) =>
    list.filter((r) => r.status !== 'invalid' && isExerciseRow(r) === exercise).reduce<GradeRow | null>((best, r) => (best === null || timeOf(r) >= timeOf(best) ? r : best), null);
  const entry = (id: string, name: string, list: GradeRow[], onRoster: boolean): GradebookEntry => {
    const lab = latest(list, false);
    const exercises = ids.length > 0 ? latest(list, true) : null;
    const files = list.map((r) => r.file);
    if (list.length === 0) return { id, name, score: null, lab, exercises, late: false, files, onRoster, feedback: 'Nothing handed in.' };
    const labPoints = lab && lab.status !== 'tampered' && lab.goalMet ? 1 : 0;
    const exercisePoints = exercises && exercises.status !== 'tampered' ? ids.filter((x) => exercises.exercises?.[x]?.passed).length : 0;
    const score = Math.round((1000 * (labPoints + exercisePoints)) / possible) / 10;
    const late = [lab, exercises].some((r) => r?.status === 'late');
    const parts = [lab ? labFeedback(lab, assignment) : 'Lab: no gradable run handed in.'];
    if (ids.length > 0) parts.push(exercises ? exerciseFeedback(exercises, ids) : 'Exercises: no gradable file handed in.');
    if (assignment.prediction !== undefined && lab?.prediction) parts.push(predictionFeedback(lab.prediction));
    const invalid = list.filter((r) => r.status === 'invalid');
    if (invalid.length > 0) parts.push(`Not gradable: ${invalid.map((r) => `${r.file} (${statusText(r).slice(0, 120)})`).join('; ')}.`);
    if (late) parts.push(`Late${assignment.due ? ` (due ${formatDue(assignment.due)})` : ''}: ${[lab, exercises].flatMap((r) => r?.flags.filter((f) => f.startsWith('late by')) ?? []).join('; ')}.`);
    return { id, name, score, lab, exercises, late, files, onRoster, feedback: parts.join(' ') };
  };
  const out: GradebookEntry[] = [];
  const done = new Set<string>();
  for (const r of roster ?? []) {
    const key = studentKey(r.id);
    done.add(key);
    out.push(entry(r.id, r.name, byStudent.get(key) ?? [], true));
  }
  for (const [key, list] of byStudent) {
    if (done.has(key)) continue;
    const newest = [...list].sort((a, b) => timeOf(b) - timeOf(a))[0];
    out.push(entry(newest.student, '', list, roster === null));
  }
  return out;
}

export const GRADEBOOK_FORMATS = ['moodle', 'canvas'] as const;
export type GradebookFormat = (typeof GRADEBOOK_FORMATS)[number];

/**
 * The gradebook as CSV.
 *  - moodle: `id,name,score,lab_status,measured,goal_met,exercises_passed,late,files,on_roster,feedback`. Moodle's
 *    "Import grades: CSV file" maps an identifier column (map `id` to the users' ID number or username) to a grade
 *    item (`score`) and to its feedback (`feedback`); other columns are left unmapped.
 *  - canvas: Canvas's gradebook layout, `Student,ID,SIS User ID,SIS Login ID,Section,<title>`, with the student id in
 *    SIS User ID and the score in the assignment's column (named by the title; Canvas offers to create it).
 * Scores are 0–100; an empty score is a student on the roster who handed nothing in. When the assignment asks a
 * prediction, the moodle layout ends with `prediction` and `prediction_choice` from the run that counts (left
 * unmapped on import: information, not a grade).
 */
export function gradebookCsv(entries: GradebookEntry[], assignment: AssignmentFile, format: GradebookFormat = 'moodle'): string {
  const score = (e: GradebookEntry) => (e.score === null ? '' : String(e.score));
  if (format === 'canvas') {
    const header = ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', assignment.title];
    const lines = entries.map((e) => [csvCell(e.name || e.id), '', csvCell(e.id), '', '', score(e)].join(','));
    return `${[header.map(csvCell).join(','), ...lines].join('\n')}\n`;
  }
  const ids = assignment.exercises ?? [];
  const asksPrediction = assignment.prediction !== undefined;
  const header = ['id', 'name', 'score', 'lab_status', 'measured', 'goal_met', 'exercises_passed', 'late', 'files', 'on_roster', 'feedback', ...(asksPrediction ? PREDICTION_COLUMNS : [])];
  const lines = entries.map((e) =>
    [
      csvCell(e.id),
      csvCell(e.name),
      score(e),
      csvCell(e.lab ? statusText(e.lab).slice(0, 200) : e.files.length ? '' : 'not handed in'),
      e.lab ? gradeNumber(e.lab.measured) : '',
      e.lab?.goalMet === null || !e.lab ? '' : e.lab.goalMet ? 'yes' : 'no',
      ids.length && e.exercises ? `${ids.filter((x) => e.exercises!.exercises?.[x]?.passed).length} of ${ids.length}` : '',
      e.late ? 'yes' : 'no',
      csvCell(e.files.join('; ')),
      e.onRoster ? 'yes' : 'no',
      csvCell(e.feedback),
      ...(asksPrediction ? [csvCell(e.lab?.prediction ? predictionStatus(e.lab.prediction) : ''), csvCell(e.lab?.prediction ? choiceText(e.lab.prediction) : '')] : []),
    ].join(','),
  );
  return `${[header.join(','), ...lines].join('\n')}\n`;
}
