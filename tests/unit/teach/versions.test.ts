/**
 * Files made by earlier versions still grade, and so do today's (the version 2 fixtures, made by this version's CLI,
 * pin them for the next change). The version 1 fixtures were made by the version 1 code (commit e69a845) with its
 * own `npm run assign`, `npm run train -- --submit` and exercise submission builder: an assignment with one locked
 * seed, a due date in UTC and two exercises, Ada's run and Ada's exercises file. They grade as they always did,
 * through today's evaluator and sandbox, and a regrade of the exercises gives the same rows (their cases now come
 * from a seed derived from the file, not a fresh one).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exerciseNamed } from '@/content/exercises';
import { expectedValues } from '@/lib/exercises/reference';
import { checkExercise } from '@/lib/exercises/check';
import { createNodeSandbox } from '@/lib/sandbox/node';
import { exerciseSeedOf, parseAssignmentFile } from '@/lib/teach/assignment';
import { evaluateCheckpoint } from '@/lib/teach/evaluate';
import { gradeExerciseSubmission, type ExerciseChecker } from '@/lib/teach/exercise-submission';
import { flagSharedWeights, gradeSubmission } from '@/lib/teach/grade';
import { buildGradebook } from '@/lib/teach/gradebook';
import { selectBackend } from '@/lib/tf/backend';
import { studentSeed } from '@/lib/teach/seeds';

const read = (name: string) => fs.readFileSync(`tests/unit/teach/fixtures/${name}`, 'utf8');
let sandbox: ReturnType<typeof createNodeSandbox>;
beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
  sandbox = createNodeSandbox();
});
afterAll(() => sandbox.dispose());

describe('files of every version', () => {
  it('grade as before: the run re-evaluated, the exercises run again on the same cases at every regrade', async () => {
    const assignment = await parseAssignmentFile(read('assignment-v1.json'));
    expect(assignment.version).toBe(1);
    const graded = new Date('2031-04-01T00:00:00Z'); // before the fixture's due date
    const run = await gradeSubmission({ name: 'submission-v1.json', text: read('submission-v1.json') }, assignment, evaluateCheckpoint, graded);
    expect(run).toMatchObject({ status: 'ok', student: 'Ada', seed: 0, flags: [] });
    expect(run.measured).toEqual(expect.any(Number));
    expect(run.claimed).toBe(JSON.parse(read('submission-v1.json')).history.at(-1).metrics['eval/accuracy']);

    const seeds: number[] = [];
    const check: ExerciseChecker = (id, source, seed) => {
      seeds.push(seed);
      return checkExercise({ exercise: exerciseNamed(id)!, source, sandbox, expected: async (cases) => expectedValues(id, cases), seed });
    };
    const file = { name: 'exercises-v1.json', text: read('exercises-v1.json') };
    const first = await gradeExerciseSubmission(file, assignment, check, graded);
    const again = await gradeExerciseSubmission(file, assignment, check, graded);
    expect(again).toEqual(first);
    expect(new Set(seeds)).toEqual(new Set([exerciseSeedOf(assignment)]));
    expect(first.exercises).toEqual({ gae: { passed: true, detail: 'passed' }, 'dpo-loss': { passed: false, detail: expect.stringMatching(/^failed: Case 1 of 20 failed: /), inputs: expect.stringMatching(/^policyChosen = /) } });

    // One seed for the class in version 1: no per-student seed check, and the gradebook merges Ada's two files.
    const [book] = buildGradebook(flagSharedWeights([run, first], assignment), assignment);
    expect(book).toMatchObject({ id: 'Ada', files: ['submission-v1.json', 'exercises-v1.json'] });
    expect(book.score).toBe(Math.round((1000 * ((run.goalMet ? 1 : 0) + 1)) / 3) / 10);
  }, 30_000);

  it('version 2: per-student seeds and a zoned due date, as made today', async () => {
    const assignment = await parseAssignmentFile(read('assignment-v2.json'));
    expect(assignment).toMatchObject({ version: 2, seeding: 'per_student', due: '2031-05-01T17:00:00+02:00', grading: { exercise_seed: expect.any(Number) } });
    const run = await gradeSubmission({ name: 'submission-v2.json', text: read('submission-v2.json') }, assignment, evaluateCheckpoint, new Date('2031-04-01T00:00:00Z'));
    expect(run).toMatchObject({ status: 'ok', student: 'S0001', seed: studentSeed(assignment.id, 'S0001'), flags: [] });
  }, 30_000);
});
