/**
 * The grade table as CSV (RFC 4180 quoting). Text cells come from students' files, so a cell that a spreadsheet
 * would run as a formula (= + - @, or a tab or carriage return first) is prefixed with a quote, as OWASP advises.
 * Numbers are written by this file, never taken from text.
 */
import { statusText, type GradeRow } from './grade';

export const CSV_HEADER = ['file', 'student', 'status', 'claimed', 'measured', 'goal_met', 'flags'] as const;

/** A measured or claimed number as the table and the CSV print it: at most 4 decimals, '' for none. */
export function gradeNumber(value: number | null): string {
  return value !== null && Number.isFinite(value) ? String(Number(value.toFixed(4))) : '';
}

/** A row's cells in CSV_HEADER order, raw: numbers stay numbers (csvCell quotes text, never a number). */
export function gradeRowCells(r: GradeRow): (string | number | null)[] {
  return [r.file, r.student, statusText(r), r.claimed, r.measured, r.goalMet === null ? '' : r.goalMet ? 'yes' : 'no', r.flags.join('; ')];
}

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return gradeNumber(value);
  const text = /^[\s]*[=+\-@]|^[\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function gradesCsv(rows: GradeRow[]): string {
  const lines = rows.map((r) => gradeRowCells(r).map(csvCell).join(','));
  return `${[CSV_HEADER.join(','), ...lines].join('\n')}\n`;
}
