import { describe, expect, it } from 'vitest';
import {
  assignmentHash,
  assignmentLink,
  AssignmentError,
  createAssignment,
  parseAnyAssignment,
  parseAssignmentFile,
  readAssignmentFragment,
  sharedPart,
  type AssignmentInput,
} from '@/lib/teach/assignment';
import { textToBase64Url } from '@/lib/teach/canonical';
import { parseGoal } from '@/lib/teach/goal';
import { grpoSchema } from '@/lib/train/grpo-config';
import { studentSeed } from '@/lib/teach/seeds';
import fs from 'node:fs';
import { GRPO_INPUT } from './fixtures';

const fragmentOf = (link: string) => link.slice(link.indexOf('#'));
/** A link whose JSON was changed (and, if asked, re-hashed as a careful forger would). */
async function editedLink(link: string, edit: (json: Record<string, unknown>) => void, rehash = false) {
  const json = JSON.parse(Buffer.from(fragmentOf(link).slice('#assignment='.length), 'base64url').toString('utf8'));
  edit(json);
  if (rehash) json.hash = await assignmentHash(json);
  return `#assignment=${textToBase64Url(JSON.stringify(json))}`;
}

describe('assignments', () => {
  it('are made from a preset plus overrides, with every setting, the due date with its zone and a content hash', async () => {
    const a = await createAssignment(GRPO_INPUT, new Date('2031-04-01T00:00:00Z'));
    expect(a.settings.beta).toBe(0.04); // from the preset
    expect(a.settings.max_steps).toBe(3);
    expect(Object.keys(a.settings).sort()).toEqual(Object.keys(grpoSchema).sort()); // every setting, not only the changed ones
    expect(a.due).toBe('2031-05-01T17:00:00+02:00'); // as given: the instant and the zone it was set in
    expect(a.version).toBe(2);
    expect(a.created).toBe('2031-04-01T00:00:00.000Z');
    expect(a.id).toMatch(/^[0-9a-f]{12}$/);
    expect(a.hash).toBe(await assignmentHash(a));
    expect(a.grading).toEqual({ eval_seed: 1234, eval_samples: 200, exercise_seed: expect.any(Number) });
    expect(a.seeding).toBe('locked'); // GRPO_INPUT locks seed: one seed for the class, on purpose
    expect((await createAssignment({ ...GRPO_INPUT, exerciseSeed: 42 })).grading.exercise_seed).toBe(42);
  });

  it('give each student their own seed unless the instructor locks one', async () => {
    const a = await createAssignment({ ...GRPO_INPUT, locked: ['beta', 'max_steps'] });
    expect(a.seeding).toBe('per_student');
    // Derived from the assignment and the student id: stable, different per student and per assignment, same id however typed.
    const ada = studentSeed(a.id, 'S1234');
    expect(studentSeed(a.id, '  s1234 ')).toBe(ada);
    expect(studentSeed(a.id, 'S1235')).not.toBe(ada);
    expect(studentSeed('another', 'S1234')).not.toBe(ada);
    expect(Number.isInteger(ada) && ada >= 0 && ada < 2 ** 31 - 1).toBe(true);
    // The two modes cannot be mixed by an edit, even a re-hashed one.
    const mixed = { ...a, locked: [...a.locked, 'seed'] };
    await expect(parseAssignmentFile(JSON.stringify({ ...mixed, hash: await assignmentHash(mixed) }))).rejects.toThrow(/"per_student" gives each student a seed/);
  });

  it('read version 1 files made before per-student seeds, zoned due dates and stored exercise seeds', async () => {
    const v1 = await parseAssignmentFile(fs.readFileSync('tests/unit/teach/fixtures/assignment-v1.json', 'utf8'));
    expect(v1).toMatchObject({ version: 1, due: '2031-05-01T17:00:00.000Z', exercises: ['gae', 'dpo-loss'] });
    expect(v1.seeding).toBeUndefined();
    expect(v1.grading.exercise_seed).toBeUndefined();
    const unversioned = { ...v1, version: 3 };
    await expect(parseAssignmentFile(JSON.stringify(unversioned))).rejects.toThrow(/unsupported assignment version \(this site reads versions 1 and 2\)/);
    const { exercise_seed: _, ...noSeed } = (await createAssignment(GRPO_INPUT)).grading;
    await expect(parseAssignmentFile(JSON.stringify({ ...(await createAssignment(GRPO_INPUT)), grading: noSeed }))).rejects.toThrow(/exercise_seed is missing/);
  });

  it('round-trip through the file and through the link, which leaves the evaluation seed out', async () => {
    const a = await createAssignment(GRPO_INPUT);
    expect(await parseAssignmentFile(JSON.stringify(a, null, 1))).toEqual(a);
    const link = assignmentLink(a, 'https://course.example');
    expect(link).toMatch(/^https:\/\/course\.example\/labs\/grpo\/#assignment=[A-Za-z0-9_-]+$/);
    const shared = await readAssignmentFragment(fragmentOf(link));
    expect(shared).toEqual(sharedPart(a));
    expect(JSON.stringify(shared)).not.toContain('1234');
    expect(link.length).toBeLessThan(4000);
    expect(await readAssignmentFragment('#some-heading')).toBeNull();
  });

  it('detect an edited link or file, even when the edit is re-hashed (the grader compares with its own file)', async () => {
    const a = await createAssignment(GRPO_INPUT);
    const link = assignmentLink(a);
    await expect(readAssignmentFragment(await editedLink(link, (j) => ((j.settings as Record<string, unknown>).beta = 0)))).rejects.toThrow(/this assignment link was edited/);
    await expect(readAssignmentFragment(await editedLink(link, (j) => (j.locked = [])))).rejects.toThrow(/edited/);
    const forged = await readAssignmentFragment(await editedLink(link, (j) => (j.locked = ['seed']), true));
    expect(forged!.hash).not.toBe(a.hash);
    await expect(parseAssignmentFile(JSON.stringify({ ...a, title: 'Easier' }))).rejects.toThrow(/the assignment was edited/);
  });

  it('refuse a read link or file whose lab does not train with its trainer, re-hashed or not', async () => {
    const a = await createAssignment(GRPO_INPUT);
    await expect(readAssignmentFragment(await editedLink(assignmentLink(a), (j) => (j.lab = 'dpo'), true))).rejects.toThrow(/lab: no lab "dpo" trains with grpo/);
    const file = { ...a, lab: 'nowhere' };
    await expect(parseAssignmentFile(JSON.stringify({ ...file, hash: await assignmentHash(file) }))).rejects.toThrow(/lab: no lab "nowhere" trains with grpo/);
  });

  it.each([
    ['locks an unknown field', { locked: ['beta', 'bogus'] }, /locked: unknown field "bogus"/],
    ['names an unknown preset', { preset: 'constructor' }, /unknown preset "constructor"/],
    ['sets an unknown field', { overrides: { toString: 1 } }, /settings: unknown field "toString"/],
    ['sets a value out of range', { overrides: { beta: 99 } }, /beta must be in \[0, 10\]/],
    ['turns evaluation off', { overrides: { eval_steps: 0 } }, /eval_steps must be above 0/],
    ['has a goal on another trainer’s metric', { goal: { metric: 'eval/return', op: '>=', value: 1 } }, /cannot be graded on "eval\/return"/],
    ['has a due date that is not one', { due: 'next friday' }, /due: not a date with a time and a zone/],
    ['has a due date without a zone', { due: '2026-12-10T17:00' }, /due: "2026-12-10T17:00" has no time zone.*2026-12-10T17:00Z/],
    ['has a due date with no time', { due: '2026-12-10' }, /has no time zone.*2026-12-10T23:59Z/],
    ['has a due date that does not exist', { due: '2026-02-30T17:00Z' }, /not a real date and time/],
    ['has a due date beyond any zone', { due: '2026-12-10T17:00+15:00' }, /offsets run from -14:00 to \+14:00/],
    ['has a goal above the metric’s range', { goal: { metric: 'eval/accuracy', op: '>=', value: 1.5 } }, /goal: eval\/accuracy >= 1\.5 can never be met: eval\/accuracy lies in \[0, 1\]/],
    ['has a goal every submission meets', { goal: { metric: 'eval/accuracy', op: '>=', value: 0 } }, /is met by every submission/],
    ['has a goal below the metric’s range', { goal: { metric: 'eval/format', op: '<', value: 0 } }, /can never be met/],
    ['has very long instructions', { instructions: 'x'.repeat(4001) }, /instructions/],
    ['has a negative evaluation seed', { evalSeed: -1 }, /grading/],
  ] as [string, Partial<AssignmentInput>, RegExp][])('refuses one that %s', async (_label, change, message) => {
    await expect(createAssignment({ ...GRPO_INPUT, ...change })).rejects.toThrow(message);
    await expect(createAssignment({ ...GRPO_INPUT, ...change })).rejects.toBeInstanceOf(AssignmentError);
  });

  it('accept a goal on the old task only where the lab measures it (the LoRA lab’s forgetting)', async () => {
    const lora = { ...GRPO_INPUT, lab: 'lora', trainer: 'sft' as const, preset: 'lora_r4', locked: [], overrides: {}, goal: parseGoal('eval/old_task_accuracy >= 0.8', 'sft') };
    expect((await createAssignment(lora)).goal.metric).toBe('eval/old_task_accuracy');
    await expect(createAssignment({ ...lora, overrides: { init_from: 'base' } })).rejects.toThrow(/eval\/old_task_accuracy is measured only with init_from addition_sft/);
  });

  it('offer only the presets the lab’s own menu offers (the SFT trainer’s "default" trains another task)', async () => {
    const lora = { ...GRPO_INPUT, lab: 'lora', trainer: 'sft' as const, locked: [], overrides: {}, goal: parseGoal('eval/accuracy >= 0.8', 'sft') };
    await expect(createAssignment({ ...lora, preset: 'default' })).rejects.toThrow(/unknown preset "default" for the lora lab \(offered: lora_r4, /);
    await expect(createAssignment({ ...lora, preset: 'full_ft' })).resolves.toMatchObject({ preset: 'full_ft' });
    await expect(createAssignment({ ...GRPO_INPUT, lab: 'lora' })).rejects.toThrow(/no lab "lora" trains with grpo/);
  });

  it('refuse hostile files and links with a reason, never a crash', async () => {
    const a = await createAssignment(GRPO_INPUT);
    const text = JSON.stringify(a);
    await expect(parseAssignmentFile(text.slice(0, 200))).rejects.toThrow('not valid JSON');
    await expect(parseAssignmentFile(text.replace('"settings":{', '"settings":{"__proto__":{"polluted":1},'))).rejects.toThrow('"__proto__" key is not allowed');
    await expect(parseAssignmentFile(JSON.stringify({ ...a, extra: 1 }))).rejects.toThrow(/Unrecognized key/);
    await expect(parseAssignmentFile(JSON.stringify({ ...a, format: 'agentic-rl-lab/run' }))).rejects.toThrow(/not an assignment/);
    await expect(parseAssignmentFile('x'.repeat(200_000))).rejects.toThrow(/too large/);
    await expect(readAssignmentFragment('#assignment=%%%')).rejects.toThrow(/damaged/);
    await expect(readAssignmentFragment(`#assignment=${'A'.repeat(50_000)}`)).rejects.toThrow(/too long/);
    await expect(readAssignmentFragment(`#assignment=${textToBase64Url(JSON.stringify(a))}`)).rejects.toThrow(/Unrecognized key.*grading/); // a link never carries the seed
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('are read from the file, the shared JSON or the link alike', async () => {
    const a = await createAssignment(GRPO_INPUT);
    const shared = sharedPart(a);
    expect(await parseAnyAssignment(JSON.stringify(a))).toEqual(a);
    expect(await parseAnyAssignment(JSON.stringify(shared))).toEqual(shared);
    expect(await parseAnyAssignment(`${assignmentLink(a, 'https://x.example')}\n`)).toEqual(shared);
  });
});
