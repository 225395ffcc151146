/**
 * The grade table as CSV (RFC 4180 quoting). Text cells come from students' files, so a cell that a spreadsheet
 * would run as a formula (= + - @, or a tab or carriage return first) is prefixed with a quote, as OWASP advises.
 * Numbers are written by this file, never taken from text.
 */
import { statusText, type GradeRow } from './grade';

export const CSV_HEADER = ['file', 'student', 'status', 'claimed', 'measured', 'goal_met', 'flags'] as const;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(Number(value.toFixed(4))) : '';
  const text = /^[\s]*[=+\-@]|^[\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function gradesCsv(rows: GradeRow[]): string {
  const lines = rows.map((r) =>
    [r.file, r.student, statusText(r), r.claimed, r.measured, r.goalMet === null ? '' : r.goalMet ? 'yes' : 'no', r.flags.join('; ')].map(csvCell).join(','),
  );
  return `${[CSV_HEADER.join(','), ...lines].join('\n')}\n`;
}
