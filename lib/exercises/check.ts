/**
 * Checking a reader's exercise code, the same way in a chapter, on the grader page and in `npm run grade`: draw
 * random cases from a seed, ask the core for the expected values (`expected`: a worker in a page, lib/exercises/
 * reference.ts in Node), run the reader's function on each case in a sandbox with a time limit, and stop at the first
 * case that fails. Never throws for anything the reader's code does; tfjs-free.
 */
import { exerciseNamed, signatureOf, type Exercise } from '@/content/exercises';
import { createRng } from '@/lib/random';
import { describeFailure, type CodeSandbox } from '@/lib/sandbox/outcome';
import { drawCase } from './cases';
import { compareValue, formatValue } from './compare';

export const CASES = 20;
/** Per call and for loading: the exercises are a few loops over a few numbers, so this is generous. */
export const TIME_LIMIT_MS = 1000;
/** The longest source a check or a submission accepts. */
export const MAX_SOURCE_LENGTH = 20_000;

export interface FailedCase {
  /** 0-based. */
  index: number;
  inputs: unknown[];
  expected: unknown;
  /** What came back; absent when the function threw or was stopped. */
  received?: unknown;
  /** One sentence: the mismatch, the error (with the reader's line) or the stop. */
  problem: string;
  /** When the value received is what a usual mistake gives (Exercise.mistakes): the hint for that mistake. */
  hint?: string;
}

export type CheckResult =
  | { passed: true; total: number; seed: number }
  | { passed: false; total: number; seed: number; load: string }
  | { passed: false; total: number; seed: number; failed: FailedCase };

/**
 * The `count` cases of `seed`: the arguments of each call, in order. The first is the exercise's own, the same at every
 * Check (so a reader fixing a bug sees the same failing case again); the others are drawn from the seed.
 */
export function drawCases(exercise: Exercise, seed: number, count = CASES): unknown[][] {
  const first = drawCase(exercise.id, createRng(`exercise/${exercise.id}/first`));
  const rng = createRng(`exercise/${exercise.id}/${seed}`);
  return [first, ...Array.from({ length: count - 1 }, () => drawCase(exercise.id, rng))].slice(0, count);
}

/** The hint of the usual mistake whose value is exactly what the reader's function returned, if any. */
function mistakeHint(exercise: Exercise, inputs: unknown[], received: unknown): string | undefined {
  return exercise.mistakes?.find((m) => {
    try {
      return compareValue((m.wrong as (...args: unknown[]) => unknown)(...structuredClone(inputs)), received, exercise.tolerance) === null;
    } catch {
      return false;
    }
  })?.hint;
}

/** A seed nobody chose: each check in a page, and each grading, draws its own. */
export function freshSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

export interface CheckOptions {
  exercise: Exercise;
  source: string;
  sandbox: CodeSandbox;
  /** The core's values for these cases. */
  expected(cases: unknown[][]): Promise<unknown[]>;
  seed: number;
  count?: number;
  timeoutMs?: number;
}

export async function checkExercise({ exercise, source, sandbox, expected, seed, count = CASES, timeoutMs = TIME_LIMIT_MS }: CheckOptions): Promise<CheckResult> {
  const base = { passed: false as const, total: count, seed };
  if (source.length > MAX_SOURCE_LENGTH) return { ...base, load: `the code is ${source.length} characters long; at most ${MAX_SOURCE_LENGTH} are checked` };
  const cases = drawCases(exercise, seed, count);
  const want = await expected(cases);
  const loaded = await sandbox.load(source, exercise.entry, timeoutMs);
  if (!loaded.ok) {
    const detail = loaded.kind === 'compile' && /must define a function/.test(loaded.message) ? `${loaded.message} (${signatureOf(exercise)})` : describeFailure(loaded);
    return { ...base, load: detail };
  }
  for (let index = 0; index < cases.length; index++) {
    const outcome = await sandbox.call(cases[index], timeoutMs);
    const failed = { index, inputs: cases[index], expected: want[index] };
    if (!outcome.ok) {
      const problem = outcome.kind === 'throw' ? `your function threw: ${describeFailure(outcome)}` : describeFailure(outcome);
      return { ...base, failed: { ...failed, problem } };
    }
    const mismatch = compareValue(want[index], outcome.value, exercise.tolerance);
    if (mismatch) return { ...base, failed: { ...failed, received: outcome.value, problem: mismatch, hint: mistakeHint(exercise, cases[index], outcome.value) } };
  }
  return { passed: true, total: count, seed };
}

export interface ResultText {
  summary: string;
  /** For a failing case: its inputs by parameter name, the expected value and the received one. */
  inputs?: string[];
  expected?: string;
  received?: string;
  /** What the usual mistake behind this value is, and how to fix it. */
  hint?: string;
}

/** The result in words, as the exercise's status line and the grader's report show it. */
export function describeResult(result: CheckResult, exercise: Pick<Exercise, 'params'>): ResultText {
  if (result.passed) return { summary: `All ${result.total} cases passed.` };
  if ('load' in result) return { summary: `Your code did not load: ${result.load}.` };
  const { index, inputs, expected, received, problem, hint } = result.failed;
  return {
    ...(hint ? { hint } : {}),
    summary: `Case ${index + 1} of ${result.total} failed: ${problem}.`,
    inputs: exercise.params.map((name, i) => `${name} = ${formatValue(inputs[i])}`),
    expected: formatValue(expected),
    received: 'received' in result.failed ? formatValue(received) : '(nothing: it did not return)',
  };
}

/** One line for a CSV cell or a log: "passed" or "failed: Case 3 of 20 failed: …". */
export function resultLine(result: CheckResult, exerciseId: string): string {
  const exercise = exerciseNamed(exerciseId);
  if (result.passed) return 'passed';
  const text = describeResult(result, exercise ?? { params: [] });
  return `failed: ${text.summary.replace(/\.$/, '')}`;
}
