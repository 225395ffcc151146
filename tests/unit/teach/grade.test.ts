/**
 * Grading rules (lib/teach/grade.ts) with a stand-in evaluator, so each kind of broken or tampered file is checked
 * quickly; evaluate.test.ts grades real runs with the real evaluator.
 */
import { describe, expect, it } from 'vitest';
import { createAssignment, sharedPart, type AssignmentFile } from '@/lib/teach/assignment';
import { sha256Hex, toBase64 } from '@/lib/teach/canonical';
import { farApart, flagSharedWeights, gradeSubmission, reproduces, statusText, type EvalSet, type Evaluator } from '@/lib/teach/grade';
import { studentSeed } from '@/lib/teach/seeds';
import { actorCriticWeights, BASE_WEIGHTS, GRPO_INPUT, rehash, SFT_WEIGHTS, submissionJson } from './fixtures';

/** What each checkpoint scores: on the lab's test set (what a run logs) and on the instructor's seeded set. */
const SCORES = new Map<string, Record<EvalSet['kind'], number>>();
const calls: EvalSet[] = [];
const evaluate: Evaluator = async (_trainer, weights, _config, set) => {
  calls.push(set);
  const score = SCORES.get(await sha256Hex(weights));
  if (!score) throw new Error('unknown weights');
  return { 'eval/accuracy': score[set.kind], 'eval/format': 1 };
};
SCORES.set(await sha256Hex(SFT_WEIGHTS), { public: 0.275, seeded: 0.31 });
SCORES.set(await sha256Hex(BASE_WEIGHTS), { public: 0, seeded: 0.01 });

const assignment: AssignmentFile = await createAssignment({ ...GRPO_INPUT, goal: { metric: 'eval/accuracy', op: '>=', value: 0.3 } });
const shared = sharedPart(assignment);
const NOW = new Date('2031-04-21T00:00:00Z');
const grade = (json: unknown, name = 'sub.json', now = NOW) => gradeSubmission({ name, text: typeof json === 'string' ? json : JSON.stringify(json) }, assignment, evaluate, now);

describe('grading a submission', () => {
  it('ok: validated, re-evaluated twice (the lab’s test set, then the instructor’s seed), scored on the measurement', async () => {
    calls.length = 0;
    const row = await grade(await submissionJson(shared));
    expect(row).toEqual({
      file: 'sub.json', student: 'Ada Lovelace', status: 'ok', detail: '', claimed: 0.275, measured: 0.31, goalMet: true, flags: [], weightsSha256: await sha256Hex(SFT_WEIGHTS),
      seed: 5, submitted: '2031-04-20T12:00:00.000Z', received: null,
    });
    expect(calls).toEqual([{ kind: 'public' }, { kind: 'seeded', seed: 1234, samples: 200 }]);
  });

  it('late: submitted after the due date, with how late', async () => {
    const row = await grade(await submissionJson(shared, { submitted: new Date('2031-05-01T17:30:00Z') }), 'sub.json', new Date('2031-05-02T00:00:00Z'));
    expect(statusText(row)).toBe('late');
    expect(row.goalMet).toBe(true);
    expect(row.flags).toEqual(['late by 2 h 30 min (self-reported time)']);
  });

  it('late: judged on the upload time when the instructor has one, whatever the student’s clock says', async () => {
    const backdated = await submissionJson(shared, { submitted: new Date('2031-04-30T09:00:00Z') }); // before the due date, by the student's clock
    const received = new Date('2031-05-01T18:00:00Z'); // due 17:00+02:00 = 15:00Z
    const row = await gradeSubmission({ name: 'sub.json', text: JSON.stringify(backdated), received }, assignment, evaluate, NOW);
    expect(row).toMatchObject({ status: 'late', received: '2031-05-01T18:00:00.000Z', submitted: '2031-04-30T09:00:00.000Z', flags: ['late by 3 h 0 min (upload time)'] });
    const onTime = await gradeSubmission({ name: 'sub.json', text: JSON.stringify(backdated), received: new Date('2031-05-01T14:59:00Z') }, assignment, evaluate, NOW);
    expect(onTime).toMatchObject({ status: 'ok', flags: [] });
    // A self-reported time after the upload cannot be true: the student's clock is off (or the file was edited).
    const ahead = await submissionJson(shared, { submitted: new Date('2031-05-01T16:00:00Z') });
    const odd = await gradeSubmission({ name: 'sub.json', text: JSON.stringify(ahead), received: new Date('2031-05-01T14:00:00Z') }, assignment, evaluate, NOW);
    expect(odd).toMatchObject({ status: 'ok', flags: ['self-reported time after the upload time (the student’s clock)'] });
  });

  it('tampered: a locked setting changed, whether or not the digest was recomputed', async () => {
    const json = await submissionJson(shared);
    json.config.beta = 0.1;
    const careless = await grade(json);
    expect(careless.status).toBe('tampered');
    expect(careless.detail).toBe('file edited after Submit (its digest does not match); locked setting beta changed (0.04 → 0.1)');
    expect(careless.goalMet).toBe(false);
    expect((await grade(await rehash(json))).detail).toBe('locked setting beta changed (0.04 → 0.1)');
  });

  it('tampered: an edited claimed metric gains nothing, even with the digest recomputed', async () => {
    const json = await submissionJson(shared);
    json.history.at(-1).metrics['eval/accuracy'] = 0.95;
    const careless = await grade(json);
    expect(careless.detail).toMatch(/^file edited after Submit .*; the weights do not reproduce the history \(eval\/accuracy 0\.95 at step 3; the weights score 0\.275 on the lab’s test set\)$/);
    const careful = await grade(await rehash(json));
    expect(careful).toMatchObject({ status: 'tampered', claimed: 0.95, measured: 0.31, goalMet: false, flags: ['claimed far above measured (0.95 vs 0.31)'] });
    expect(careful.detail).toBe('the weights do not reproduce the history (eval/accuracy 0.95 at step 3; the weights score 0.275 on the lab’s test set)');
  });

  it('tampered: weights swapped from another run, caught by their hash, or by re-evaluation when re-hashed', async () => {
    const json = await submissionJson(shared);
    json.weights.data = toBase64(BASE_WEIGHTS);
    expect((await grade(json)).detail).toMatch(/^weights \(their SHA-256 is not the one recorded at Submit\); file edited after Submit/);
    json.weights.sha256 = await sha256Hex(BASE_WEIGHTS);
    const careful = await grade(await rehash(json));
    expect(careful.detail).toBe('the weights do not reproduce the history (eval/accuracy 0.275 at step 3; the weights score 0 on the lab’s test set)');
    expect(careful.measured).toBe(0.01);
  });

  it('tampered: made from an edited link (a re-hashed assignment is not the instructor’s)', async () => {
    const json = await submissionJson({ ...shared, hash: 'f'.repeat(64) });
    expect((await grade(json)).detail).toBe('assignment (made from an edited link: its hash is not this assignment’s)');
  });

  it.each([
    ['a truncated file', async () => JSON.stringify(await submissionJson(shared)).slice(0, 3000), 'not valid JSON (a truncated or damaged file)'],
    ['invalid JSON', async () => '{"student": "x",', 'not valid JSON (a truncated or damaged file)'],
    ['a 20 MB file', async () => `{"student": "${'x'.repeat(20_000_000)}"}`, 'the file is 20.0 MB; a submission is at most 5 MB'],
    ['an empty file', async () => '', 'not valid JSON (a truncated or damaged file)'],
    ['JSON that is not a submission', async () => '[1, 2, 3]', 'not a submission (a submission is a JSON object)'],
    ['another file format', async () => ({ ...(await submissionJson(shared)), format: 'agentic-rl-lab/run' }), 'format: not a submission (expected "format": "agentic-rl-lab/submission")'],
    ['another assignment', async () => submissionJson({ ...shared, id: 'aaaaaaaaaaaa' }), 'made for another assignment ("aaaaaaaaaaaa", not "' + assignment.id + '")'],
    ['another trainer', async () => ({ ...(await submissionJson(shared)), trainer: 'dpo' }), 'a "dpo" run; this assignment trains grpo'],
    ['a "__proto__" key', async () => JSON.stringify(await submissionJson(shared)).replace('"config":{', '"config":{"__proto__":{"beta":0},'), 'a "__proto__" key is not allowed'],
    ['an unknown setting', async () => { const j = await submissionJson(shared); j.config.toString = 1; return j; }, 'config: unknown field "toString"'],
    ['a setting out of range', async () => { const j = await submissionJson(shared); j.config.learning_rate = -1; return j; }, 'config: learning_rate must be in (0, 1], got -1'],
    ['a history cut before the final evaluation', async () => { const j = await submissionJson(shared); j.history.pop(); return j; }, 'the history does not end with the run’s final evaluation (submit a finished run, with eval_steps above 0)'],
    ['weights that are not base64', async () => { const j = await submissionJson(shared); j.weights.data = 'not base64!'; return j; }, 'weights: not base64'],
    ['weights that are not a checkpoint', async () => { const j = await submissionJson(shared); j.weights.data = toBase64(new TextEncoder().encode('hello world, not weights')); return j; }, /^weights: bad magic bytes/],
    ['a truncated checkpoint', async () => { const j = await submissionJson(shared); j.weights.data = toBase64(SFT_WEIGHTS.subarray(0, 5000)); return j; }, /^weights: truncated/],
    ['weights of another architecture', async () => submissionJson(shared, { weights: actorCriticWeights() }), "weights: the weights are a 'actor-critic' model; grpo trains a 'tiny-lm'"],
    ['no student name', async () => ({ ...(await submissionJson(shared)), student: '   ' }), 'student: no student name'],
  ] as [string, () => Promise<unknown>, string | RegExp][])('invalid: %s', async (_label, make, reason) => {
    const row = await grade(await make());
    expect(row.status).toBe('invalid');
    if (typeof reason === 'string') expect(row.detail).toBe(reason);
    else expect(row.detail).toMatch(reason);
    expect(row.goalMet).toBeNull();
  });

  it('keeps HTML or a formula in a name as plain text (the table and CSV show it as text)', async () => {
    const name = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const row = await grade(await submissionJson(shared, { student: name }));
    expect(row).toMatchObject({ status: 'ok', student: name });
  });

  it('invalid, never a crash, when the evaluator fails', async () => {
    const row = await gradeSubmission({ name: 'x.json', text: JSON.stringify(await submissionJson(shared)) }, assignment, async () => { throw new Error('out of memory'); });
    expect(statusText(row)).toBe('invalid: weights: could not be evaluated: out of memory');
  });

  it('flags a clock from the future, and weights identical to another submission’s', async () => {
    const future = await grade(await submissionJson(shared, { submitted: new Date('2031-04-22T00:00:00Z') }));
    expect(future.flags).toContain('submitted in the future (the student’s clock)');
    const [a, b, c] = await Promise.all([
      grade(await submissionJson(shared, { student: 'Ada' }), 'a.json'),
      grade(await submissionJson(shared, { student: 'Bob' }), 'b.json'),
      grade(await submissionJson(shared, { student: 'Cy', weights: BASE_WEIGHTS, finalAccuracy: 0 }), 'c.json'),
    ]);
    const flagged = flagSharedWeights([a, b, c], assignment);
    // One seed locked for the class: identical weights are what honest runs give, and the flag says so.
    expect(flagged.map((r) => r.flags)).toEqual([['same weights (group 1) as Bob; one seed for the class: honest runs match too'], ['same weights (group 1) as Ada; one seed for the class: honest runs match too'], []]);
    expect(flagged.map((r) => r.sameWeightsGroup)).toEqual([1, 1, undefined]);
  });
});

const perStudent = await createAssignment({ ...GRPO_INPUT, locked: ['beta', 'max_steps'], goal: { metric: 'eval/accuracy', op: '>=', value: 0.3 } });
const sharedPs = sharedPart(perStudent);
const gradePs = (json: unknown, name: string) => gradeSubmission({ name, text: JSON.stringify(json) }, perStudent, evaluate, NOW);

describe('per-student seeds', () => {

  it('an honest run on the student’s own seed is ok; a file renamed to another student is caught by its seed', async () => {
    const bob = await submissionJson(sharedPs, { student: 'Bob' });
    expect(bob.config.seed).toBe(studentSeed(perStudent.id, 'Bob'));
    expect(bob.config.seed).not.toBe(studentSeed(perStudent.id, 'Cy'));
    expect((await gradePs(bob, 'bob.json')).status).toBe('ok');
    const renamed = await rehash({ ...(await submissionJson(sharedPs, { student: 'Bob' })), student: 'Cy' });
    const row = await gradePs(renamed, 'cy.json');
    expect(row.status).toBe('tampered');
    expect(row.detail).toBe(`seed ${studentSeed(perStudent.id, 'Bob')} is not this student’s seed (${studentSeed(perStudent.id, 'Cy')}): trained for another student id, or the name was changed`);
  });

  it('identical weights from two students are a real signal, and the flag says whose seed they were trained on', async () => {
    const bob = await gradePs(await submissionJson(sharedPs, { student: 'Bob' }), 'bob.json');
    const renamed = await gradePs(await rehash({ ...(await submissionJson(sharedPs, { student: 'Bob' })), student: 'Cy' }), 'cy.json');
    const [flaggedBob, flaggedCy] = flagSharedWeights([bob, renamed], perStudent);
    expect(flaggedBob.flags).toEqual(['same weights (group 1) as Cy; trained on Bob’s seed']);
    expect(flaggedCy.flags).toEqual(['same weights (group 1) as Bob; trained on Bob’s seed']);
    // A careful copier also writes their own seed into the config: two seeds for one set of weights.
    const forged = await submissionJson(sharedPs, { student: 'Cy' });
    forged.history = (await submissionJson(sharedPs, { student: 'Bob' })).history;
    const careful = await gradePs(await rehash(forged), 'cy2.json');
    expect(careful.status).toBe('ok'); // every hash and the seed check pass...
    expect(flagSharedWeights([bob, careful], perStudent)[1].flags).toEqual(['same weights (group 1) as Bob; the files claim the seeds of Bob, Cy: one run has one seed']); // ...the weights do not
    // Two files from one student (a resubmission) are not a copy.
    expect(flagSharedWeights([bob, { ...bob, file: 'bob-again.json' }], perStudent).map((r) => r.flags)).toEqual([[], []]);
  });

  it('flags stay short with 100 files: groups, at most three names and a count', async () => {
    const honest = await gradePs(await submissionJson(sharedPs, { student: 'S000' }), 's000.json');
    const rows = Array.from({ length: 100 }, (_, i) => ({ ...honest, student: `S${String(i).padStart(3, '0')}`, file: `s${i}.json`, weightsSha256: i < 40 ? 'a'.repeat(64) : i < 42 ? 'b'.repeat(64) : `${i}`.padStart(64, 'c') }));
    const flagged = flagSharedWeights(rows, perStudent);
    expect(flagged[0].flags).toEqual(['same weights (group 1) as S001, S002, S003 and 36 more; trained on S000’s seed']);
    expect(flagged[40].flags).toEqual(['same weights (group 2) as S041']);
    expect(flagged.slice(42).every((r) => r.flags.length === 0)).toBe(true);
    expect(Math.max(...flagged.map((r) => r.flags.join('; ').length))).toBeLessThan(120);
  });
});

describe('tolerances', () => {
  it('a re-evaluation reproduces a claim within 0.05, or 5% of a large one', () => {
    expect([reproduces(0.44, 0.4), reproduces(0.44, 0.38), reproduces(2, 1.91), reproduces(2, 1.89)]).toEqual([true, false, true, false]);
  });

  it('a claim is far from a measurement beyond 3 standard errors of a share (0.15 at 200 and 200), or 15% of a return', () => {
    expect(farApart('eval/accuracy', 0.31, 0.15, 200, 200)).toBe(true); // 0.16 apart
    expect(farApart('eval/accuracy', 0.3, 0.16, 200, 200)).toBe(false); // 0.14 apart
    expect(farApart('eval/accuracy', 0.5, 0.2, 20, 40)).toBe(false); // 3·√(0.25·(1/20 + 1/40)) = 0.41
    expect(farApart('eval/return', 0.95, 0.7, 8, 200)).toBe(true);
    expect(farApart('eval/return', 0.95, 0.85, 8, 200)).toBe(false);
  });
});
