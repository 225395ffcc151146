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
  it('are made from a preset plus overrides, with every setting, the due date in UTC and a content hash', async () => {
    const a = await createAssignment(GRPO_INPUT, new Date('2031-04-01T00:00:00Z'));
    expect(a.settings.beta).toBe(0.04); // from the preset
    expect(a.settings.max_steps).toBe(3);
    expect(Object.keys(a.settings).sort()).toEqual(Object.keys(grpoSchema).sort()); // every setting, not only the changed ones
    expect(a.due).toBe('2031-05-01T15:00:00.000Z');
    expect(a.created).toBe('2031-04-01T00:00:00.000Z');
    expect(a.id).toMatch(/^[0-9a-f]{12}$/);
    expect(a.hash).toBe(await assignmentHash(a));
    expect(a.grading).toEqual({ eval_seed: 1234, eval_samples: 200 });
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
    const forged = await readAssignmentFragment(await editedLink(link, (j) => (j.locked = []), true));
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
    ['has a due date that is not one', { due: 'next friday' }, /due: not a date/],
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
