/**
 * From graded files to one row per student (lib/teach/gradebook.ts), the CSV readers for upload times and rosters,
 * due dates with their zone, and goals outside their metric's range. Rows are built by hand: the rules, not the
 * evaluator, are under test.
 */
import { describe, expect, it } from 'vitest';
import { decodeWeightsFile, encodeWeightsFile } from '@/lib/models/weights-file';
import { createAssignment, sharedPart } from '@/lib/teach/assignment';
import { gradesCsv, parseCsv } from '@/lib/teach/csv';
import { dueFromLocal, dueToLocal, formatDue, parseDue } from '@/lib/teach/due';
import { finalFigure, goalRangeProblem, parseGoal } from '@/lib/teach/goal';
import { flagSharedWeights, gradeSubmission, invalidRow, type GradeRow } from '@/lib/teach/grade';
import { buildGradebook, gradebookCsv, parseReceived, parseRoster } from '@/lib/teach/gradebook';
import type { LogLine } from '@/lib/train/run';
import { GRPO_INPUT, SFT_WEIGHTS, submissionJson } from './fixtures';

const assignment = await createAssignment({ ...GRPO_INPUT, exercises: ['gae', 'dpo-loss'] });
const lab = (student: string, file: string, o: Partial<GradeRow> = {}): GradeRow => ({
  ...invalidRow(file, ''), student, status: 'ok', claimed: 0.3, measured: 0.5, goalMet: true, seed: 5, submitted: '2031-04-20T12:00:00.000Z', ...o,
});
const ex = (student: string, file: string, passed: string[], o: Partial<GradeRow> = {}): GradeRow => ({
  ...lab(student, file, { claimed: null, measured: null, goalMet: null, seed: null, ...o }),
  exercises: Object.fromEntries(['gae', 'dpo-loss'].map((id) => [id, passed.includes(id) ? { passed: true, detail: 'passed' } : { passed: false, detail: 'failed: Case 2 of 20 failed: the value differs', inputs: 'beta = 0.1' }])),
});

describe('the gradebook', () => {
  it('one row per student: lab and exercises merged, the latest gradable file counting, a 0–100 score', () => {
    const rows = [
      lab('Ada', 'ada-1.json', { goalMet: false, measured: 0.2, submitted: '2031-04-19T12:00:00.000Z' }),
      lab('ada ', 'ada-2.json', { submitted: '2031-04-20T12:00:00.000Z' }), // the same student id, typed differently; later: counts
      lab('Ada', 'ada-3.json', { status: 'invalid', detail: 'not valid JSON', submitted: '2031-04-21T12:00:00.000Z' }), // latest but not gradable: listed, not counted
      ex('Ada', 'ada-ex.json', ['gae']),
      lab('Bob', 'bob.json', { status: 'tampered', detail: 'locked setting beta changed (0.04 → 0.1)', goalMet: false }),
      ex('Bob', 'bob-ex.json', ['gae', 'dpo-loss']),
      invalidRow('nobody.json', 'not valid JSON'), // no readable name: nobody's
    ];
    const book = buildGradebook(rows, assignment);
    expect(book.map((e) => [e.id, e.score, e.lab?.file, e.exercises?.file])).toEqual([
      ['Ada', 66.7, 'ada-2.json', 'ada-ex.json'], // the id as its newest file writes it; (1 goal + 1 exercise) / 3
      ['Bob', 66.7, 'bob.json', 'bob-ex.json'], // tampered lab: 0 for it; both exercises
    ]);
    expect(book[0].files).toEqual(['ada-1.json', 'ada-2.json', 'ada-3.json', 'ada-ex.json']);
    expect(book[0].feedback).toBe(
      'Lab: eval/accuracy 0.5 on 200 held-out problems the instructor drew (your page showed 0.3 on the lab’s own test set); goal eval/accuracy >= 0.45: met. ' +
        'Exercises: 1 of 2 passed. First not passed: dpo-loss: failed: Case 2 of 20 failed: the value differs (inputs: beta = 0.1). ' +
        'Not gradable: ada-3.json (invalid: not valid JSON).',
    );
    expect(book[1].feedback).toMatch(/^Lab: not scored: locked setting beta changed/);
  });

  it('the latest by upload time when the instructor has one, not by the student’s clock', () => {
    const early = lab('Ada', 'a.json', { submitted: '2031-04-25T00:00:00.000Z', received: '2031-04-20T00:00:00.000Z', measured: 0.9 });
    const late = lab('Ada', 'b.json', { submitted: '2031-04-01T00:00:00.000Z', received: '2031-04-22T00:00:00.000Z', goalMet: false, measured: 0.1 });
    expect(buildGradebook([early, late], assignment)[0].lab?.file).toBe('b.json');
  });

  it('a roster gives every student a row, in its order, and says who handed nothing in', () => {
    const roster = parseRoster('\uFEFFid,name\r\nS1,"Lovelace, Ada"\r\nS2,Grace Hopper\r\n');
    const book = buildGradebook([lab('s1', 'a.json'), lab('Eve', 'e.json')], assignment, roster);
    expect(book.map((e) => [e.id, e.name, e.score, e.onRoster])).toEqual([
      ['S1', 'Lovelace, Ada', 33.3, true],
      ['S2', 'Grace Hopper', null, true],
      ['Eve', '', 33.3, false],
    ]);
    const csv = gradebookCsv(book, assignment).split('\n');
    expect(csv[0]).toBe('id,name,score,lab_status,measured,goal_met,exercises_passed,late,files,on_roster,feedback');
    expect(csv[2]).toBe('S2,Grace Hopper,,not handed in,,,,no,,yes,Nothing handed in.');
    expect(csv[1]).toMatch(/^S1,"Lovelace, Ada",33\.3,ok,0\.5,yes,,no,a\.json,yes,"?Lab: /);
    const canvas = gradebookCsv(book, assignment, 'canvas').split('\n');
    expect(canvas.slice(0, 3)).toEqual(['Student,ID,SIS User ID,SIS Login ID,Section,"GRPO, week 3"', '"Lovelace, Ada",,S1,,,33.3', 'Grace Hopper,,S2,,,']);
  });

  it('refuses a roster or upload times it cannot trust, with the line', () => {
    expect(() => parseRoster('name\nAda\n')).toThrow('roster: no "id" column');
    expect(() => parseRoster('id\nS1\ns1 \n')).toThrow('roster: "s1" is listed twice');
    expect(() => parseReceived('file,received\na.json,2031-04-20 12:00\n')).toThrow('upload times: line 2: "2031-04-20 12:00" is not an ISO 8601 time with a zone');
    expect(() => parseReceived('file,received\na.json,2031-04-20T12:00Z\na.json,2031-04-20T13:00Z\n')).toThrow('"a.json" is listed twice');
    expect(parseReceived('File,Received\n"a,b.json",2031-04-20T12:00:00+02:00\n').get('a,b.json')?.toISOString()).toBe('2031-04-20T10:00:00.000Z');
    expect(() => parseCsv('a,"b\n')).toThrow('a quoted cell is never closed');
    expect(parseCsv('a,"say ""hi""",\n\n1,2,3')).toEqual([['a', 'say "hi"', ''], ['1', '2', '3']]);
  });
});

describe('due dates keep their zone', () => {
  it('are stored as written and shown in their own zone, not the reader’s', () => {
    expect(parseDue('2026-12-10T17:00+01:00')).toBe('2026-12-10T17:00:00+01:00');
    expect(parseDue('2026-12-10T17:00:30.5z')).toBe('2026-12-10T17:00:30Z');
    expect(formatDue('2026-12-10T17:00:00+01:00')).toBe('2026-12-10 17:00 (UTC+01:00)');
    expect(formatDue('2026-12-10T17:00:00-09:30')).toBe('2026-12-10 17:00 (UTC-09:30)');
    expect(formatDue('2031-05-01T17:00:00.000Z')).toBe('2031-05-01 17:00 (UTC)'); // a version 1 file's UTC date
    expect(Date.parse(parseDue('2026-12-10T17:00+01:00'))).toBe(Date.parse('2026-12-10T16:00:00Z'));
    expect(dueFromLocal('2026-12-10T17:00', -300)).toBe('2026-12-10T17:00:00-05:00');
    expect(dueFromLocal('2026-12-10T17:00', 0)).toBe('2026-12-10T17:00:00Z');
    expect(dueToLocal('2026-12-10T17:00:00+05:30')).toEqual({ local: '2026-12-10T17:00', minutes: 330 });
  });
});

describe('goals inside their metric’s range', () => {
  it.each([
    ['eval/accuracy >= 1.5', 'eval/accuracy >= 1.5 can never be met: eval/accuracy lies in [0, 1]'],
    ['eval/accuracy > 1', 'eval/accuracy > 1 can never be met: eval/accuracy lies in [0, 1]'],
    ['eval/accuracy < 0', 'eval/accuracy < 0 can never be met: eval/accuracy lies in [0, 1]'],
    ['eval/accuracy >= 0', 'eval/accuracy >= 0 is met by every submission: eval/accuracy lies in [0, 1]'],
    ['eval/accuracy <= 1', 'eval/accuracy <= 1 is met by every submission: eval/accuracy lies in [0, 1]'],
    ['eval/accuracy >= 1', null],
    ['eval/accuracy > 0', null],
    ['eval/format <= 0.99', null],
  ])('%s', (text, problem) => {
    const goal = { metric: text.split(' ')[0], op: text.split(' ')[1], value: Number(text.split(' ')[2]) } as Parameters<typeof goalRangeProblem>[0];
    expect(goalRangeProblem(goal, 'grpo')).toBe(problem);
    if (problem) expect(() => parseGoal(text, 'grpo')).toThrow(problem);
  });

  it('a return has no bound; turns and lengths none above', () => {
    expect(goalRangeProblem({ metric: 'eval/return', op: '>=', value: -500 }, 'ppo')).toBeNull();
    expect(goalRangeProblem({ metric: 'eval/length', op: '<', value: 0 }, 'ppo')).toMatch(/can never be met/);
    expect(goalRangeProblem({ metric: 'eval/mean_turns', op: '<=', value: 3 }, 'agent')).toBeNull();
    expect(goalRangeProblem({ metric: 'eval/mean_turns', op: '<', value: 1 }, 'agent')).toMatch(/can never be met/);
    // The team lab's message length counts tokens: no upper bound the grader can state, but never below 0.
    expect(goalRangeProblem({ metric: 'eval/message_length', op: '<=', value: 3 }, 'team')).toBeNull();
    expect(goalRangeProblem({ metric: 'eval/message_length', op: '<', value: 0 }, 'team')).toMatch(/can never be met/);
  });
});

describe('the figure a student sees, with its uncertainty', () => {
  it('the final evaluation’s share and its 95% interval, 1.96·√(p(1−p)/n); none for a return', () => {
    const history: LogLine[] = [
      { step: 0, kind: 'eval', metrics: { 'eval/accuracy': 0.275 } },
      { step: 60, kind: 'train', metrics: { loss: 0.1 } },
      { step: 60, kind: 'eval', metrics: { 'eval/accuracy': 0.415, 'eval/return': 0.8 } },
    ];
    const figure = finalFigure(history, 'grpo', 'eval/accuracy', 200)!;
    expect(figure.value).toBe(0.415);
    expect(figure.halfWidth).toBeCloseTo(0.068288, 5); // 1.96 × √(0.415 × 0.585 / 200) = 1.96 × 0.0348407
    expect(finalFigure(history, 'ppo', 'eval/return', 8)).toEqual({ value: 0.8, halfWidth: null });
    expect(finalFigure(history.slice(1, 2), 'grpo', 'eval/accuracy', 200)).toBeNull();
  });
});

describe('a class of 100', () => {
  it('100 files graded into 100 rows and a gradebook: honest runs unflagged, one copy grouped, the absent student listed', async () => {
    const perStudent = await createAssignment({ ...GRPO_INPUT, locked: ['beta', 'max_steps'] });
    // Honest students train on their own seeds, so their weights differ: here, one value of the first tensor each.
    const base = decodeWeightsFile(SFT_WEIGHTS);
    const weightsOf = (i: number) => {
      const [first, ...rest] = base.tensors;
      const values = Float32Array.from(first.values);
      values[0] += (i + 1) * 1e-3;
      return encodeWeightsFile({ ...base, tensors: [{ ...first, values }, ...rest] });
    };
    const evaluate = async () => ({ 'eval/accuracy': 0.5, 'eval/format': 1 });
    const ids = Array.from({ length: 101 }, (_, i) => `s${String(i).padStart(4, '0')}`);
    const rows = [];
    for (let i = 0; i < 100; i++) {
      // s0099 copied s0098's file and put their own name (and the digest) on it.
      const json = i === 99 ? { ...(await submissionJson(sharedPart(perStudent), { student: ids[98], weights: weightsOf(98), finalAccuracy: 0.5 })), student: ids[99] } : await submissionJson(sharedPart(perStudent), { student: ids[i], weights: weightsOf(i), finalAccuracy: 0.5 });
      rows.push(await gradeSubmission({ name: `${ids[i]}.json`, text: JSON.stringify(json) }, perStudent, evaluate, new Date('2031-04-21T00:00:00Z')));
    }
    const flagged = flagSharedWeights(rows, perStudent);
    expect(flagged.filter((r) => r.status === 'ok')).toHaveLength(99);
    expect(flagged[99]).toMatchObject({ status: 'tampered', sameWeightsGroup: 1 });
    expect(flagged[98].flags).toEqual(['same weights (group 1) as s0099; trained on s0098’s seed']);
    expect(flagged.filter((r) => r.flags.length > 0)).toHaveLength(2);
    expect(gradesCsv(flagged).trim().split('\n')).toHaveLength(101);
    const book = buildGradebook(flagged, perStudent, ids.map((id) => ({ id, name: '' })));
    expect(book).toHaveLength(101);
    expect(book.filter((e) => e.score === 100)).toHaveLength(99);
    expect(book[99].score).toBe(0);
    expect(book[100]).toMatchObject({ id: 's0100', score: null, feedback: 'Nothing handed in.' });
  }, 30_000);
});
