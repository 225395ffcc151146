/**
 * The grade table as CSV (RFC 4180 quoting). Text cells come from students' files, so a cell that a spreadsheet
 * would run as a formula (= + - @, or a tab or carriage return first) is prefixed with a quote, as OWASP advises.
 * Numbers are written by this file, never taken from text.
 */
import { statusText, type GradeRow } from './grade';

export const CSV_HEADER = ['file', 'student', 'status', 'claimed', 'measured', 'goal_met', 'flags'] as const;

/**
 * The header for an assignment: CSV_HEADER, then, when it lists exercises, how many each file passed and one column
 * per exercise ("passed", "failed: …", "not handed in"). Without exercises the CSV is exactly as before.
 */
export function csvHeader(exerciseIds: readonly string[] = []): string[] {
  return exerciseIds.length === 0 ? [...CSV_HEADER] : [...CSV_HEADER, 'exercises_passed', ...exerciseIds.map((id) => `exercise:${id}`)];
}

/** A measured or claimed number as the table and the CSV print it: at most 4 decimals, '' for none. */
export function gradeNumber(value: number | null): string {
  return value !== null && Number.isFinite(value) ? String(Number(value.toFixed(4))) : '';
}

/** A row's cells in csvHeader(exerciseIds) order, raw: numbers stay numbers (csvCell quotes text, never a number). */
export function gradeRowCells(r: GradeRow, exerciseIds: readonly string[] = []): (string | number | null)[] {
  const cells = [r.file, r.student, statusText(r), r.claimed, r.measured, r.goalMet === null ? '' : r.goalMet ? 'yes' : 'no', r.flags.join('; ')];
  if (exerciseIds.length === 0) return cells;
  // A run submission (or a file that could not be read) has no exercise results: empty cells, not failures.
  const graded = r.exercises;
  if (!graded) return [...cells, '', ...exerciseIds.map(() => '')];
  const passed = exerciseIds.filter((id) => graded[id]?.passed).length;
  // "2 of 3", not "2/3", which a spreadsheet reads as a date.
  return [...cells, `${passed} of ${exerciseIds.length}`, ...exerciseIds.map((id) => graded[id]?.detail ?? '')];
}

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return gradeNumber(value);
  const text = /^[\s]*[=+\-@]|^[\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function gradesCsv(rows: GradeRow[], exerciseIds: readonly string[] = []): string {
  const lines = rows.map((r) => gradeRowCells(r, exerciseIds).map(csvCell).join(','));
  return `${[csvHeader(exerciseIds).join(','), ...lines].join('\n')}\n`;
}
