/**
 * Exercises in assignments: an assignment may list exercise ids (in its hash and its link, refused when unknown or
 * repeated); a student hands their code in as an exercise submission; the grader runs each source again in the Node
 * sandbox on fresh cases and reports each exercise's pass or failure in the row and the CSV.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exerciseNamed } from '@/content/exercises';
import { checkExercise } from '@/lib/exercises/check';
import { expectedValues } from '@/lib/exercises/reference';
import { createNodeSandbox } from '@/lib/sandbox/node';
import type { CodeSandbox } from '@/lib/sandbox/outcome';
import { assignmentHash, AssignmentError, createAssignment, exercisesLink, parseAssignmentFile, readAssignmentFragment, sharedPart } from '@/lib/teach/assignment';
import { canonicalJson } from '@/lib/teach/canonical';
import { csvHeader, gradesCsv } from '@/lib/teach/csv';
import {
  buildExerciseSubmission,
  exerciseSubmissionFileName,
  gradeExerciseSubmission,
  isExerciseSubmissionText,
  type ExerciseChecker,
} from '@/lib/teach/exercise-submission';
import { GRPO_INPUT } from './fixtures';

let sandbox: CodeSandbox;
const seeds: number[] = [];
beforeAll(() => {
  sandbox = createNodeSandbox();
});
afterAll(() => sandbox.dispose());

/** As `npm run grade` checks: the Node sandbox, the core's references, the seed the grader is given. */
const check: ExerciseChecker = (id, source, seed) => {
  seeds.push(seed);
  return checkExercise({ exercise: exerciseNamed(id)!, source, sandbox, expected: async (cases) => expectedValues(id, cases), seed });
};

const NOW = new Date('2031-04-10T00:00:00Z');
/** When the instructor grades: after every submission. */
const GRADED = new Date('2031-06-01T00:00:00Z');
const WRONG_DPO = 'function dpoLoss(pc, pr, rc, rr, beta) {\n  return 0;\n}';

describe('assignments with exercises', () => {
  it('list them in the hash and the links; without them the file and its hash are as before', async () => {
    const plain = await createAssignment(GRPO_INPUT, NOW);
    expect('exercises' in plain).toBe(false);
    expect(plain.hash).toBe(await assignmentHash(plain));
    expect(exercisesLink(plain)).toBeNull();
    // The hash of an assignment without exercises covers exactly the fields it had before exercises existed.
    const { hash: _h, grading: _g, ...core } = plain;
    expect(canonicalJson(core)).not.toContain('exercises');

    const a = await createAssignment({ ...GRPO_INPUT, exercises: ['gae', 'dpo-loss'] }, NOW);
    expect(a.exercises).toEqual(['gae', 'dpo-loss']);
    expect(await parseAssignmentFile(JSON.stringify(a))).toEqual(a);
    const link = exercisesLink(a, 'https://course.example')!;
    expect(link).toMatch(/^https:\/\/course\.example\/exercises\/#assignment=[A-Za-z0-9_-]+$/);
    const read = await readAssignmentFragment(link.slice(link.indexOf('#')));
    expect(read).toEqual(sharedPart(a));
    expect(JSON.stringify(read)).not.toContain('eval_seed');
  });

  it('refuse an unknown or repeated exercise, and an edited list', async () => {
    await expect(createAssignment({ ...GRPO_INPUT, exercises: ['gae', 'no-such'] }, NOW)).rejects.toThrow(new AssignmentError('exercises: unknown exercise "no-such" (known: lora-forward, discounted-returns, gae, clipped-surrogate, dpo-loss, grpo-advantages, k3-kl, loss-aggregation, gspo-loss)'));
    await expect(createAssignment({ ...GRPO_INPUT, exercises: ['gae', 'gae'] }, NOW)).rejects.toThrow('exercises: an exercise is listed twice');
    const a = await createAssignment({ ...GRPO_INPUT, exercises: ['gae'] }, NOW);
    await expect(parseAssignmentFile(JSON.stringify({ ...a, exercises: ['gae', 'dpo-loss'] }))).rejects.toThrow('the assignment was edited');
  });
});

describe('exercise submissions', () => {
  it('are graded by running each source again: a pass, a failure with its case, a missing one', async () => {
    const a = await createAssignment({ ...GRPO_INPUT, exercises: ['gae', 'dpo-loss', 'grpo-advantages'] }, NOW);
    const sub = await buildExerciseSubmission({
      student: 'Ada Lovelace',
      assignment: sharedPart(a),
      sources: { gae: exerciseNamed('gae')!.solution, 'dpo-loss': WRONG_DPO, 'k3-kl': 'ignored: not listed' },
      submitted: new Date('2031-04-20T12:00:00Z'),
    });
    expect(Object.keys(sub.sources)).toEqual(['gae', 'dpo-loss']);
    expect(exerciseSubmissionFileName(sub)).toBe(`exercises-${a.id}-Ada-Lovelace.json`);
    const text = JSON.stringify(sub);
    expect(isExerciseSubmissionText(text)).toBe(true);
    expect(isExerciseSubmissionText('{"format":"agentic-rl-lab/submission"}')).toBe(false);

    seeds.length = 0;
    const row = await gradeExerciseSubmission({ name: 'ada.json', text }, a, check, GRADED);
    expect(row).toMatchObject({ file: 'ada.json', student: 'Ada Lovelace', status: 'ok', detail: '', claimed: null, measured: null, goalMet: null, flags: [] });
    expect(row.exercises!.gae).toEqual({ passed: true, detail: 'passed' });
    expect(row.exercises!['dpo-loss'].passed).toBe(false);
    expect(row.exercises!['dpo-loss'].detail).toMatch(/^failed: Case 1 of 20 failed: the value differs: expected [\d.]+, got 0$/);
    expect(row.exercises!['grpo-advantages']).toEqual({ passed: false, detail: 'not handed in' });
    // Every exercise on the assignment's own exercise seed, so a regrade gives the same rows.
    expect(seeds).toEqual([a.grading.exercise_seed, a.grading.exercise_seed]);
    expect(await gradeExerciseSubmission({ name: 'ada.json', text }, a, check, GRADED)).toEqual(row);

    const ids = a.exercises!;
    expect(csvHeader(ids)).toEqual(['file', 'student', 'status', 'claimed', 'measured', 'goal_met', 'flags', 'seed', 'submitted_self_reported', 'received', 'exercises_passed', 'exercise:gae', 'exercise:dpo-loss', 'exercise:grpo-advantages']);
    const csv = gradesCsv([row], ids).split('\n');
    expect(csv[1]).toMatch(/^ada\.json,Ada Lovelace,ok,,,,,,[\d-]+T[\d:.]+Z,,1 of 3,passed,"failed: Case 1 of 20 failed: the value differs: expected [\d.]+, got 0",not handed in$/);
    // Without exercise ids the CSV is the one instructors already have.
    expect(gradesCsv([row]).split('\n')[0]).toBe('file,student,status,claimed,measured,goal_met,flags,seed,submitted_self_reported,received');
  });

  it('flag an edit after the file was made, a link that was edited, a late file; refuse other assignments and unlisted code', async () => {
    const a = await createAssignment({ ...GRPO_INPUT, exercises: ['gae'] }, NOW);
    const made = await buildExerciseSubmission({ student: 'Ada', assignment: sharedPart(a), sources: { gae: exerciseNamed('gae')!.solution }, submitted: new Date('2031-04-20T12:00:00Z') });
    const grade = (json: unknown) => gradeExerciseSubmission({ name: 'f.json', text: JSON.stringify(json) }, a, check, GRADED);

    const edited = await grade({ ...made, student: 'Bob' });
    expect(edited).toMatchObject({ status: 'tampered', detail: 'file edited after it was made (its digest does not match)', student: 'Bob' });
    expect(edited.exercises?.gae.passed).toBe(true); // its code is still run and reported
    const other = await grade({ ...made, assignment: { ...made.assignment, id: 'zzz' } });
    expect(other).toMatchObject({ status: 'invalid', detail: 'made for another assignment ("zzz", not "' + a.id + '")' });
    const unlisted = await grade({ ...made, sources: { ...made.sources, 'k3-kl': 'x' } });
    expect(unlisted).toMatchObject({ status: 'invalid', detail: 'code for "k3-kl", which this assignment does not list' });
    const late = await buildExerciseSubmission({ student: 'Ada', assignment: sharedPart(a), sources: {}, submitted: new Date('2031-05-01T16:00:00Z') });
    expect(await grade(late)).toMatchObject({ status: 'late', flags: ['late by 1 h 0 min (self-reported time)'], exercises: { gae: { passed: false, detail: 'not handed in' } } });
    expect(await gradeExerciseSubmission({ name: 'f.json', text: '{"format":' }, a, check, NOW)).toMatchObject({ status: 'invalid', detail: 'not valid JSON (a truncated or damaged file)' });
    expect(await grade({ ...made, sources: { gae: 'x'.repeat(20_001) } })).toMatchObject({ status: 'invalid', detail: expect.stringMatching(/at most 20000 characters/) });
  });

  it('stop a student’s infinite loop and grade on', async () => {
    const a = await createAssignment({ ...GRPO_INPUT, exercises: ['gae', 'dpo-loss'] }, NOW);
    const sub = await buildExerciseSubmission({ student: 'Eve', assignment: sharedPart(a), sources: { gae: 'function gae() { while (true) {} }', 'dpo-loss': exerciseNamed('dpo-loss')!.solution } });
    const row = await gradeExerciseSubmission({ name: 'eve.json', text: JSON.stringify(sub) }, a, check, GRADED);
    expect(row.exercises!.gae.detail).toMatch(/stopped after 1000 ms: the code did not return/);
    expect(row.exercises!['dpo-loss']).toEqual({ passed: true, detail: 'passed' });
  });
});
