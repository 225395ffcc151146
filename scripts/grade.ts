/**
 * npm run grade -- --assignment assignment.json [--backend cpu|wasm] [--received upload-times.csv]
 *                  [--gradebook gradebook.csv [--roster roster.csv] [--gradebook-format moodle|canvas]] sub1.json ... > grades.csv
 *
 * Grades submission files as the /teach/grade/ page does (lib/teach/grade.ts): each is validated, its weights are
 * re-evaluated on the run's own test set (to check the history) and measured on the instructor's seeded held-out
 * set. Exercise submissions (the code of an assignment's exercises, made on /exercises/) are run again in a sandbox
 * (lib/sandbox/node.ts) on the cases of the assignment's exercise seed, so a regrade gives the same rows. Prints CSV,
 * one row per file (lib/teach/csv.ts's header), then, when the assignment lists exercises, exercises_passed and one
 * exercise:<id> column each. --received: a CSV of upload times (file,received) from the instructor's LMS; lateness is
 * then judged on those, not on the student's clock. --gradebook: also writes one row per student
 * (lib/teach/gradebook.ts: the rule for resubmissions, a 0–100 score, feedback), with --roster (id,name) listing who
 * handed nothing in. A bad submission gets a row saying why and never stops the others; only a bad command line,
 * assignment, roster or upload-times file stops the run (one line on stderr, exit 2).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MAX_ASSIGNMENT_FILE_BYTES, parseAssignmentFile, type AssignmentFile } from '@/lib/teach/assignment';
import { buildGradebook, GRADEBOOK_FORMATS, GRADEBOOK_RULE, gradebookCsv, parseReceived, parseRoster, type GradebookFormat, type RosterEntry } from '@/lib/teach/gradebook';
import { gradesCsv } from '@/lib/teach/csv';
import { flagSharedWeights, gradeSubmission, invalidRow, statusText, type GradeRow } from '@/lib/teach/grade';
import { MAX_SUBMISSION_BYTES } from '@/lib/teach/submission';
import { gradeExerciseSubmission, isExerciseSubmissionText, type ExerciseChecker } from '@/lib/teach/exercise-submission';
import { exerciseNamed } from '@/content/exercises';
import { checkExercise } from '@/lib/exercises/check';
import { createNodeSandbox } from '@/lib/sandbox/node';
import { errorMessage } from '@/lib/errors';
import { checkSavePath, nodeBackendFlag, parseFlags, readFlagFile, UsageError } from './cli';

const USAGE =
  'usage: npm run grade -- --assignment assignment.json [--backend cpu|wasm] [--received upload-times.csv] [--gradebook gradebook.csv [--roster roster.csv] [--gradebook-format moodle|canvas]] submission.json ... > grades.csv';
/** Upload-time and roster files: a line per file or student, so 5 MB is thousands of times what a class needs. */
const MAX_TABLE_BYTES = 5_000_000;

/** A CSV flag's file, parsed; a problem in it stops the run with its line named. */
function readTable<T>(flag: string, file: string | undefined, parse: (text: string) => T): T | null {
  if (file === undefined) return null;
  try {
    return parse(readFlagFile(file, MAX_TABLE_BYTES, 'a CSV file'));
  } catch (error) {
    throw new UsageError(`--${flag} ${file}: ${(error as Error).message}`);
  }
}

async function parseCommandLine(argv: string[]) {
  const { values, positionals } = parseFlags(
    argv,
    {
      assignment: { type: 'string' },
      backend: { type: 'string', default: 'wasm' },
      received: { type: 'string' },
      gradebook: { type: 'string' },
      roster: { type: 'string' },
      'gradebook-format': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  if (values.help) return null;
  if (values.assignment === undefined) throw new UsageError(`--assignment is required: the file npm run assign or the /teach/ page made. ${USAGE}`);
  if (positionals.length === 0) throw new UsageError('name the submission files to grade');
  const backend = nodeBackendFlag(values.backend!);
  const text = readFlagFile(values.assignment, MAX_ASSIGNMENT_FILE_BYTES, 'an assignment');
  let assignment: AssignmentFile;
  try {
    assignment = await parseAssignmentFile(text);
  } catch (error) {
    throw new UsageError(`--assignment ${values.assignment}: ${(error as Error).message}`);
  }
  const received = readTable('received', values.received, parseReceived);
  if (values.gradebook === undefined && (values.roster !== undefined || values['gradebook-format'] !== undefined)) throw new UsageError('--roster and --gradebook-format go with --gradebook FILE');
  const format = (values['gradebook-format'] ?? 'moodle') as GradebookFormat;
  if (!GRADEBOOK_FORMATS.includes(format)) throw new UsageError(`--gradebook-format must be ${GRADEBOOK_FORMATS.join(' or ')}, got ${JSON.stringify(format)}`);
  const roster: RosterEntry[] | null = readTable('roster', values.roster, parseRoster);
  const gradebook = values.gradebook === undefined ? null : { file: checkSavePath('gradebook', values.gradebook), format, roster };
  if (received) {
    const names = new Set(positionals.map((f) => path.basename(f)));
    const unknown = [...received.keys()].filter((name) => !names.has(name));
    if (unknown.length > 0) console.error(`grade: --received lists ${unknown.length} file(s) not being graded, e.g. ${JSON.stringify(unknown[0].slice(0, 80))}`);
  }
  return { assignment, files: positionals, backend, received, gradebook };
}

/** The file's text, or the row that says why it cannot be read (checked by size before reading). */
function readSubmission(file: string): { text: string } | { reason: string } {
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_SUBMISSION_BYTES) return { reason: `the file is ${(size / 1e6).toFixed(1)} MB; a submission is at most ${MAX_SUBMISSION_BYTES / 1e6} MB` };
    return { text: fs.readFileSync(file, 'utf8') };
  } catch (error) {
    return { reason: `cannot read the file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

async function main() {
  let options;
  try {
    options = await parseCommandLine(process.argv.slice(2));
  } catch (error) {
    console.error(`grade: ${(error as Error).message.split('\n')[0]}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
  if (options === null) {
    console.log(USAGE);
    return;
  }
  // tfjs loads from here on.
  const [{ selectBackend }, { evaluateCheckpoint }, { expectedValues }] = await Promise.all([import('@/lib/tf/backend'), import('@/lib/teach/evaluate'), import('@/lib/exercises/reference')]);
  await selectBackend({ requested: options.backend as 'cpu' | 'wasm', order: [options.backend as 'cpu' | 'wasm'] });
  // Students' exercise code runs in a worker thread with an empty context and a time limit, on the assignment's seed.
  const sandbox = createNodeSandbox();
  const checkSource: ExerciseChecker = (id, source, seed) => checkExercise({ exercise: exerciseNamed(id)!, source, sandbox, expected: async (cases) => expectedValues(id, cases), seed });
  const rows: GradeRow[] = [];
  for (const file of options.files) {
    const name = path.basename(file);
    const read = readSubmission(file);
    const received = options.received?.get(name) ?? null;
    if (options.received && !received) console.error(`grade: ${name}: no upload time in --received: lateness from its self-reported time`);
    const row =
      'text' in read
        ? isExerciseSubmissionText(read.text)
          ? await gradeExerciseSubmission({ name, text: read.text, received }, options.assignment, checkSource)
          : await gradeSubmission({ name, text: read.text, received }, options.assignment, evaluateCheckpoint)
        : { ...invalidRow(name, read.reason), received: received?.toISOString() ?? null };
    rows.push(row);
    console.error(`grade: ${name}: ${statusText(row).slice(0, 200)}`);
  }
  sandbox.dispose();
  const flagged = flagSharedWeights(rows, options.assignment);
  process.stdout.write(gradesCsv(flagged, options.assignment.exercises ?? [], options.assignment.prediction !== undefined));
  if (options.gradebook) {
    const { file, format, roster } = options.gradebook;
    const entries = buildGradebook(flagged, options.assignment, roster);
    fs.writeFileSync(file, gradebookCsv(entries, options.assignment, format));
    const missing = entries.filter((e) => e.score === null).length;
    console.error(`grade: wrote ${file} (${format} CSV): ${entries.length} students${roster ? `, ${missing} on the roster handed nothing in` : ''}. Rule: ${GRADEBOOK_RULE}.`);
  }
}

main().catch((error: unknown) => {
  console.error(`grade: unexpected error: ${errorMessage(error)}`);
  process.exit(1);
});
