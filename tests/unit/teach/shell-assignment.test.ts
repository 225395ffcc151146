/** labs/shell/assignment.ts: where a lab's settings start under an assignment, and what its locks refuse. */
import { describe, expect, it } from 'vitest';
import { applyAssignment, presetUnderAssignment } from '@/labs/shell/assignment';
import { decodeSettings } from '@/ui/settings';
import { createAssignment, sharedPart } from '@/lib/teach/assignment';
import { presetSettings } from '@/lib/train/config';
import { trainerSettings } from '@/lib/spec/registry';
import { GRPO_INPUT } from './fixtures';

const { schema, presets } = trainerSettings('grpo');
const open = async (query: string) => {
  const a = sharedPart(await createAssignment(GRPO_INPUT));
  return { a, ...applyAssignment(a, schema, presets, decodeSettings(schema, presets, query), query, 'default') };
};

describe('a lab under an assignment', () => {
  it('starts from the assignment’s settings and preset when the link names none', async () => {
    const { a, settings, preset, problems } = await open('');
    expect(settings).toEqual(a.settings);
    expect(preset).toBe('kl');
    expect(problems).toEqual([]);
  });

  it('keeps the student’s own changes from the link, but never a locked field', async () => {
    const { settings, problems } = await open('?preset=kl&learning_rate=0.001&beta=0.5&seed=9&max_steps=3');
    expect(settings.learning_rate).toBe(0.001);
    expect(settings.beta).toBe(0.04);
    expect(settings.seed).toBe(5);
    expect(problems).toEqual(['ignored beta=0.5: locked by the assignment at 0.04', 'ignored seed=9: locked by the assignment at 5']);
  });

  it('refuses a preset whose overrides would change a locked field; another keeps the locked values', async () => {
    const { a } = await open('');
    expect(presetUnderAssignment(a, schema, presets, 'no_kl')).toEqual({ refusal: 'The preset "no_kl" would change beta, locked by the assignment: it was not applied.' });
    const other = presetUnderAssignment(a, schema, presets, 'dr_grpo');
    expect(other).toEqual({ settings: { ...presetSettings(schema, presets.dr_grpo), beta: 0.04, max_steps: 3, seed: 5 } });
    expect(presetUnderAssignment({ ...a, locked: ['loss_type'] }, schema, presets, 'dr_grpo')).toEqual({ refusal: expect.stringMatching(/would change loss_type/) });
  });
});
