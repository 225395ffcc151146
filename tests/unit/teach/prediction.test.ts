/**
 * An assignment that asks a prediction (lib/teach/prediction.ts): the field in the assignment and its link, files
 * without it read exactly as before, the hand-in's record of the choice fixed at the run's start, a malformed record
 * named and the run still graded, and the grade, the CSV and the gradebook saying made / not made, never right or
 * wrong (the goal does not move with the choice). A stand-in evaluator, as in grade.test.ts.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claims as grpoClaims } from '@/lib/claims/grpo';
import { predictionOutcome } from '@/lib/claims/predict';
import { assignmentHash, assignmentLink, createAssignment, parseAssignmentFile, readAssignmentFragment, sharedPart, type AssignmentFile } from '@/lib/teach/assignment';
import { sha256Hex, textToBase64Url } from '@/lib/teach/canonical';
import { csvHeader, gradesCsv, parseCsv } from '@/lib/teach/csv';
import { gradeSubmission, type Evaluator } from '@/lib/teach/grade';
import { buildGradebook, gradebookCsv } from '@/lib/teach/gradebook';
import { handInPrediction, markPrediction, presetPrediction } from '@/lib/teach/prediction';
import { startsFreshRun } from '@/labs/shell/PredictionPanel';
import { GRPO_INPUT, rehash, SFT_WEIGHTS, submissionJson } from './fixtures';

// GRPO_INPUT's preset (kl) asks nothing; the lab's default preset asks whether accuracy rises.
const ASKING = { ...GRPO_INPUT, preset: 'default', locked: ['max_steps', 'seed'], askPrediction: true };
const asked = (await presetPrediction('grpo', 'default'))!;
const [claimed, other] = [asked.prediction.claimed, asked.prediction.choices.find((c) => c.id !== asked.prediction.claimed)!.id];

const SFT_SHA = await sha256Hex(SFT_WEIGHTS);
const evaluate: Evaluator = async (_t, weights) => {
  if ((await sha256Hex(weights)) !== SFT_SHA) throw new Error('unknown weights');
  return { 'eval/accuracy': 0.275, 'eval/format': 1 };
};
const NOW = new Date('2031-04-21T00:00:00Z');
const grade = (a: AssignmentFile, json: unknown, name = 'sub.json') => gradeSubmission({ name, text: JSON.stringify(json) }, a, evaluate, NOW);

/** A hand-in for `a`, its prediction record as given (undefined: none), with the digest recomputed as Submit does. */
async function handIn(a: AssignmentFile, prediction: unknown, student = 'Ada Lovelace') {
  const json = await submissionJson(sharedPart(a), { student });
  if (prediction !== undefined) json.prediction = prediction;
  return rehash(json);
}

describe('the assignment asks a prediction', () => {
  it('names the claim the preset’s runs ask, in the file and in the students’ link', async () => {
    expect(grpoClaims.some((c) => c.id === asked.id)).toBe(true);
    const a = await createAssignment(ASKING);
    expect(a.prediction).toBe(asked.id);
    expect((await parseAssignmentFile(JSON.stringify(a))).prediction).toBe(asked.id);
    const link = assignmentLink(a);
    expect((await readAssignmentFragment(link.slice(link.indexOf('#'))))!.prediction).toBe(asked.id);
  });

  it('is refused for a preset that asks none, naming the field', async () => {
    expect(await presetPrediction('grpo', 'kl')).toBeNull();
    await expect(createAssignment({ ...GRPO_INPUT, askPrediction: true })).rejects.toThrow(/^prediction: the grpo lab asks no prediction before a run of the preset "kl"/);
  });

  it('an edited or mismatched prediction field is caught: the hash first, then the claim it names', async () => {
    const a = await createAssignment(ASKING);
    await expect(parseAssignmentFile(JSON.stringify({ ...a, prediction: 'grpo-reward-hacking' }))).rejects.toThrow('the assignment was edited');
    const rehashed = async (patch: Partial<AssignmentFile>) => {
      const edited = { ...a, ...patch };
      return JSON.stringify({ ...edited, hash: await assignmentHash(edited) });
    };
    await expect(parseAssignmentFile(await rehashed({ prediction: 'no-such-claim' }))).rejects.toThrow('prediction: no grpo claim "no-such-claim" asks a prediction');
    const hacking = grpoClaims.find((c) => c.prediction && !c.prediction.presets.includes('default'))!;
    await expect(parseAssignmentFile(await rehashed({ prediction: hacking.id }))).rejects.toThrow(`prediction: the claim "${hacking.id}" is not asked before a run of the preset "default"`);
    // The link reads it the same way.
    const shared = JSON.parse(await rehashed({ prediction: 'no-such-claim' }));
    delete shared.grading;
    await expect(readAssignmentFragment(`#assignment=${textToBase64Url(JSON.stringify(shared))}`)).rejects.toThrow('prediction: no grpo claim');
  });

  it('files without the field read exactly as before: no prediction key, the same hash, the CSV and gradebook unchanged', async () => {
    for (const name of ['assignment-v1.json', 'assignment-v2.json']) {
      const text = fs.readFileSync(`tests/unit/teach/fixtures/${name}`, 'utf8');
      const a = await parseAssignmentFile(text);
      expect(a).toEqual(JSON.parse(text));
      expect('prediction' in a).toBe(false);
      expect(await assignmentHash(a)).toBe(a.hash);
    }
    const plain = await createAssignment(GRPO_INPUT);
    expect('prediction' in plain).toBe(false);
    const row = await grade(plain, await handIn(plain, undefined));
    expect(row.prediction).toBeUndefined();
    expect(csvHeader()).not.toContain('prediction');
    expect(gradesCsv([row]).split('\n')[0]).toBe(csvHeader().join(','));
    expect(gradebookCsv(buildGradebook([row], plain), plain).split('\n')[0]).not.toContain('prediction');
  });
});

describe('the hand-in records the choice fixed when the run started', () => {
  it('a pick made before the run starts is fixed with it; one made after is the next run’s, so the hand-in says none', () => {
    // The lab fixes picks at the moment startsFreshRun is true; a resumed pause is the same run.
    expect(startsFreshRun({ state: 'idle', length: 0 }, { state: 'running', length: 0 })).toBe(true);
    expect(startsFreshRun({ state: 'done', length: 40 }, { state: 'running', length: 0 })).toBe(true);
    expect(startsFreshRun({ state: 'paused', length: 10 }, { state: 'running', length: 10 })).toBe(false);
    expect(startsFreshRun({ state: 'running', length: 10 }, { state: 'running', length: 11 })).toBe(false);
    const fixedAtStart = { [asked.id]: other };
    expect(handInPrediction(asked.id, fixedAtStart)).toEqual({ claim: asked.id, choice: other });
    // Nothing picked when the run started (a pick made during or after it was kept for the next run).
    expect(handInPrediction(asked.id, {})).toEqual({ claim: asked.id, choice: null });
    // Only the asked claim counts, and an inherited key is no pick.
    expect(handInPrediction(asked.id, { 'another-claim': claimed })).toEqual({ claim: asked.id, choice: null });
    expect(handInPrediction('constructor', {}).choice).toBeNull();
  });

  it('reads made, not made (none, null, or a file from before predictions), and names a malformed field', () => {
    expect(markPrediction({ claim: asked.id, choice: other }, asked)).toEqual({ made: true, choice: other, label: asked.prediction.choices.find((c) => c.id === other)!.label, problem: '' });
    expect(markPrediction({ claim: asked.id, choice: null }, asked)).toMatchObject({ made: false, problem: '' });
    expect(markPrediction(undefined, asked)).toMatchObject({ made: false, problem: '' });
    expect(markPrediction({ claim: asked.id, choice: 3 }, asked)).toMatchObject({ made: false, problem: expect.stringMatching(/^prediction\.choice: /) });
    expect(markPrediction({ claim: asked.id }, asked).problem).toMatch(/^prediction\.choice: /);
    expect(markPrediction('rise', asked).problem).toMatch(/^prediction: /);
    expect(markPrediction({ claim: asked.id, choice: claimed, right: true }, asked).problem).toMatch(/^prediction: .*right/);
    expect(markPrediction({ claim: asked.id, choice: 'maybe' }, asked).problem).toBe(`prediction.choice: "maybe" is not one of ${asked.prediction.choices.map((c) => c.id).join(', ')}`);
    expect(markPrediction({ claim: 'grpo-reward-hacking', choice: claimed }, asked).problem).toBe(`prediction.claim: answers "grpo-reward-hacking", not the assignment’s "${asked.id}"`);
  });
});

describe('grading says made / not made, never right or wrong', () => {
  it('the grade, the CSV and the gradebook: made with the choice, not made, and a malformed field named while the run still grades', async () => {
    const a = await createAssignment({ ...ASKING, goal: { metric: 'eval/accuracy', op: '>=', value: 0.2 } });
    const rows = [
      await grade(a, await handIn(a, { claim: asked.id, choice: claimed }, 'ada'), 'ada.json'),
      await grade(a, await handIn(a, { claim: asked.id, choice: other }, 'bo'), 'bo.json'),
      await grade(a, await handIn(a, { claim: asked.id, choice: null }, 'cy'), 'cy.json'),
      await grade(a, await handIn(a, undefined, 'di'), 'di.json'),
      await grade(a, await handIn(a, { claim: asked.id, choice: 7 }, 'ed'), 'ed.json'),
    ];
    // Every run grades the same whatever its prediction: the goal reads the weights alone.
    for (const row of rows) expect(row).toMatchObject({ status: 'ok', measured: 0.275, goalMet: true });
    expect(rows.map((r) => r.prediction?.made)).toEqual([true, true, false, false, false]);
    expect(rows[4].prediction!.problem).toMatch(/^prediction\.choice: /);

    const csv = parseCsv(gradesCsv(rows, [], true));
    const [header, ...lines] = csv;
    expect(header.slice(-2)).toEqual(['prediction', 'prediction_choice']);
    const cell = (line: string[], name: string) => line[header.indexOf(name)];
    const labelOf = (id: string) => asked.prediction.choices.find((c) => c.id === id)!.label;
    expect(lines.map((l) => cell(l, 'prediction'))).toEqual(['made', 'made', 'not made', 'not made', `not made (${rows[4].prediction!.problem})`]);
    expect(lines.map((l) => cell(l, 'prediction_choice'))).toEqual([`${claimed}: ${labelOf(claimed)}`, `${other}: ${labelOf(other)}`, '', '', '']);
    // Never a verdict on the choice: the outcome words the lab uses for itself appear nowhere.
    const text = gradesCsv(rows, [], true) + gradebookCsv(buildGradebook(rows, a), a);
    expect(predictionOutcome(asked.prediction, other, true)).toBe('missed'); // the lab would call bo's choice missed…
    expect(text).not.toMatch(/\b(missed|matched|correct|incorrect|wrong)\b/i); // …the grade does not

    const book = parseCsv(gradebookCsv(buildGradebook(rows, a), a));
    const bookHeader = book[0];
    expect(bookHeader.slice(-2)).toEqual(['prediction', 'prediction_choice']);
    const byId = Object.fromEntries(book.slice(1).map((l) => [l[0], l]));
    expect(byId.ada[bookHeader.indexOf('prediction')]).toBe('made');
    expect(byId.bo[bookHeader.indexOf('prediction_choice')]).toBe(`${other}: ${labelOf(other)}`);
    expect(byId.cy[bookHeader.indexOf('prediction')]).toBe('not made');
    // The score is the same for a made and a not-made prediction.
    expect(new Set(book.slice(1).map((l) => l[bookHeader.indexOf('score')]))).toEqual(new Set(['100']));
    expect(byId.bo[bookHeader.indexOf('feedback')]).toContain(`Prediction: made before your run (you chose “${labelOf(other)}”)`);
    expect(byId.di[bookHeader.indexOf('feedback')]).toContain('Prediction: not made before your run.');
    expect(byId.ed[bookHeader.indexOf('feedback')]).toContain('Prediction: not made before your run (prediction.choice: ');
  });

  it('a prediction edited after Submit is an edit like any other: the digest catches it', async () => {
    const a = await createAssignment(ASKING);
    const json = await handIn(a, { claim: asked.id, choice: null });
    json.prediction = { claim: asked.id, choice: claimed }; // "made" added afterwards, digest left as it was
    const row = await grade(a, json);
    expect(row.status).toBe('tampered');
    expect(row.detail).toContain('file edited after Submit');
  });
});
