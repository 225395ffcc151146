/**
 * npm run grade -- --assignment assignment.json [--backend cpu|wasm] sub1.json sub2.json ... > grades.csv
 *
 * Grades submission files as the /teach/grade/ page does (lib/teach/grade.ts): each is validated, its weights are
 * re-evaluated on the run's own test set (to check the history) and measured on the instructor's seeded held-out
 * set. Exercise submissions (the code of an assignment's exercises, made on /exercises/) are run again in a sandbox
 * (lib/sandbox/node.ts) on fresh random cases. Prints CSV: file,student,status,claimed,measured,goal_met,flags, then,
 * when the assignment lists exercises, exercises_passed and one exercise:<id> column each. A bad submission gets a row saying why and
 * never stops the others; only a bad command line or assignment file stops the run (one line on stderr, exit 2).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MAX_ASSIGNMENT_FILE_BYTES, parseAssignmentFile, type AssignmentFile } from '@/lib/teach/assignment';
import { gradesCsv } from '@/lib/teach/csv';
import { flagSharedWeights, gradeSubmission, invalidRow, statusText, type GradeRow } from '@/lib/teach/grade';
import { MAX_SUBMISSION_BYTES } from '@/lib/teach/submission';
import { gradeExerciseSubmission, isExerciseSubmissionText, type ExerciseChecker } from '@/lib/teach/exercise-submission';
import { exerciseNamed } from '@/content/exercises';
import { checkExercise, freshSeed } from '@/lib/exercises/check';
import { createNodeSandbox } from '@/lib/sandbox/node';
import { errorMessage } from '@/lib/errors';
import { nodeBackendFlag, parseFlags, readFlagFile, UsageError } from './cli';

const USAGE = 'usage: npm run grade -- --assignment assignment.json [--backend cpu|wasm] submission.json ... > grades.csv';

async function parseCommandLine(argv: string[]) {
  const { values, positionals } = parseFlags(
    argv,
    { assignment: { type: 'string' }, backend: { type: 'string', default: 'wasm' }, help: { type: 'boolean', short: 'h' } },
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
  return { assignment, files: positionals, backend };
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
  // Students' exercise code runs in a worker thread with an empty context and a time limit, each on a fresh seed.
  const sandbox = createNodeSandbox();
  const checkSource: ExerciseChecker = (id, source) =>
    checkExercise({ exercise: exerciseNamed(id)!, source, sandbox, expected: async (cases) => expectedValues(id, cases), seed: freshSeed() });
  const rows: GradeRow[] = [];
  for (const file of options.files) {
    const name = path.basename(file);
    const read = readSubmission(file);
    const row =
      'text' in read
        ? isExerciseSubmissionText(read.text)
          ? await gradeExerciseSubmission({ name, text: read.text }, options.assignment, checkSource)
          : await gradeSubmission({ name, text: read.text }, options.assignment, evaluateCheckpoint)
        : invalidRow(name, read.reason);
    rows.push(row);
    console.error(`grade: ${name}: ${statusText(row).slice(0, 200)}`);
  }
  sandbox.dispose();
  process.stdout.write(gradesCsv(flagSharedWeights(rows), options.assignment.exercises ?? []));
}

main().catch((error: unknown) => {
  console.error(`grade: unexpected error: ${errorMessage(error)}`);
  process.exit(1);
});
