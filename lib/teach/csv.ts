/**
 * The grade table as CSV (RFC 4180 quoting). Text cells come from students' files, so a cell that a spreadsheet
 * would run as a formula (= + - @, or a tab or carriage return first) is prefixed with a quote, as OWASP advises.
 * Numbers are written by this file, never taken from text.
 */
import { statusText, type GradeRow } from './grade';
import { predictionStatus, type PredictionMark } from './prediction';

/**
 * seed: the seed in the run's config (under per-student seeds, the grader has checked it is the student's own);
 * submitted_self_reported: the time the file says it was made (the student's clock); received: the upload time from
 * the instructor's records, when given (`--received`), which is what lateness is judged on.
 */
export const CSV_HEADER = ['file', 'student', 'status', 'claimed', 'measured', 'goal_met', 'flags', 'seed', 'submitted_self_reported', 'received'] as const;

/**
 * The header for an assignment: CSV_HEADER, then, when it lists exercises, how many each file passed and one column
 * per exercise ("passed", "failed: …", "not handed in"); then, when it asks a prediction, `prediction` ("made", "not
 * made", or "not made (<the malformed field>)") and `prediction_choice` (the choice, as information: never graded).
 * Without either the CSV is exactly as before.
 */
export function csvHeader(exerciseIds: readonly string[] = [], asksPrediction = false): string[] {
  const exercises = exerciseIds.length === 0 ? [] : ['exercises_passed', ...exerciseIds.map((id) => `exercise:${id}`)];
  return [...CSV_HEADER, ...exercises, ...(asksPrediction ? PREDICTION_COLUMNS : [])];
}
export const PREDICTION_COLUMNS = ['prediction', 'prediction_choice'] as const;

/** A made prediction's choice as the table and the CSV show it: its id, then the words the student picked. */
export const choiceText = (m: PredictionMark) => (m.made ? `${m.choice}: ${m.label}` : '');

/** A measured or claimed number as the table and the CSV print it: at most 4 decimals, '' for none. */
export function gradeNumber(value: number | null): string {
  return value !== null && Number.isFinite(value) ? String(Number(value.toFixed(4))) : '';
}

/** A row's cells in csvHeader(exerciseIds, asksPrediction) order, raw: numbers stay numbers (csvCell quotes text, never a number). */
export function gradeRowCells(r: GradeRow, exerciseIds: readonly string[] = [], asksPrediction = false): (string | number | null)[] {
  // An exercises file or one that never parsed has no prediction: empty cells, not "not made".
  const prediction = asksPrediction ? (r.prediction ? [predictionStatus(r.prediction), choiceText(r.prediction)] : ['', '']) : [];
  return [...runCells(r, exerciseIds), ...prediction];
}

function runCells(r: GradeRow, exerciseIds: readonly string[]): (string | number | null)[] {
  const cells = [r.file, r.student, statusText(r), r.claimed, r.measured, r.goalMet === null ? '' : r.goalMet ? 'yes' : 'no', r.flags.join('; '), r.seed === null ? '' : String(r.seed), r.submitted ?? '', r.received ?? ''];
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

export function gradesCsv(rows: GradeRow[], exerciseIds: readonly string[] = [], asksPrediction = false): string {
  const lines = rows.map((r) => gradeRowCells(r, exerciseIds, asksPrediction).map(csvCell).join(','));
  return `${[csvHeader(exerciseIds, asksPrediction).join(','), ...lines].join('\n')}\n`;
}

export class CsvError extends Error {}

/**
 * Parses RFC 4180 CSV (quoted cells, doubled quotes, CRLF or LF, a UTF-8 byte-order mark) into rows of cells; throws a
 * CsvError on an unclosed quote. For the instructor's own files: upload times and rosters.
 */
export function parseCsv(text: string, maxRows = 100_000): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      row.push(cell);
      cell = '';
      if (row.some((x) => x.trim() !== '')) rows.push(row);
      row = [];
      if (rows.length > maxRows) throw new CsvError(`more than ${maxRows} rows`);
    } else cell += c;
  }
  if (quoted) throw new CsvError('a quoted cell is never closed');
  row.push(cell);
  if (row.some((x) => x.trim() !== '')) rows.push(row);
  return rows;
}

/** The rows of a CSV with a header as objects keyed by the lower-cased header names; `required` columns must exist. */
export function csvRecords(text: string, required: readonly string[], what: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new CsvError(`${what}: the file is empty`);
  const names = header.map((h) => h.trim().toLowerCase());
  const missing = required.find((r) => !names.includes(r));
  if (missing !== undefined) throw new CsvError(`${what}: no "${missing}" column (the first line must name the columns: ${required.join(',')})`);
  return rows.map((cells) => Object.fromEntries(names.map((n, i) => [n, (cells[i] ?? '').trim()])));
}
