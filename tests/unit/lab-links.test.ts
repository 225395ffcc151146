/**
 * Lab links are untrusted input: whatever the query holds, decodeSettings returns settings the trainer accepts and
 * a short list of what it ignored, and never throws.
 */
import { describe, expect, it } from 'vitest';
import { decodeSettings, encodeSettings, MAX_LINK_NOTICES } from '@/ui/settings';
import { resolve } from '@/lib/train/config';
import { TRAINER_NAMES, trainerSettings } from '@/lib/spec/registry';
import { labPresets, labs } from '@/content/labs';

const { schema, presets } = trainerSettings('grpo');
const decode = (query: string) => decodeSettings(schema, presets, query);

/** Hostile and clumsy links, as tried by a reviewer. */
const HOSTILE = [
  '?%ZZ=1',
  '?%E0%A4%A=1',
  '?loss_type=%ED%A0%80',
  '?beta=%',
  '?preset=__proto__',
  '?preset=constructor',
  '?constructor=x&toString=1&__proto__=1&valueOf=2',
  '?beta=0x10&num_generations=0b11&seed=+5&max_steps=007&temperature=%201',
  `?beta=${'9'.repeat(100_000)}`,
  `?${Array.from({ length: 1000 }, (_, i) => `beta=bad${i}`).join('&')}`,
  '?beta=0.5&beta=0.04',
  '?backend=quantum',
  '?learning_rate=1e400&epsilon=-1&loss_type=ppo&scale_rewards=',
  '?=&&&==&?&%00=%00',
];

describe('lab links', () => {
  it.each(HOSTILE.map((query) => [query.length > 60 ? `${query.slice(0, 60)}… (${query.length} chars)` : query, query]))('%s: valid settings, a few short notices, no throw', (_label, query) => {
    const { settings, preset, backend, problems } = decode(query);
    expect(() => resolve(schema, settings)).not.toThrow();
    expect(Object.hasOwn(presets, preset)).toBe(true);
    expect(['auto', 'webgpu', 'webgl', 'wasm', 'cpu']).toContain(backend);
    expect(problems.length).toBeLessThanOrEqual(MAX_LINK_NOTICES);
    for (const p of problems) expect(p.length, p.slice(0, 80)).toBeLessThan(300);
    expect(Object.getPrototypeOf(settings)).toBe(Object.prototype);
    expect(Object.keys(settings).sort()).toEqual(Object.keys(schema).sort());
  });

  it('refuses non-canonical numbers and says so', () => {
    const { settings, problems } = decode('?beta=0x10&seed=%2B5&max_steps=007'); // %2B is '+' (a bare + means a space)
    expect(settings.beta).toBe(0);
    expect(settings.seed).toBe(0);
    expect(problems).toEqual([expect.stringMatching(/^ignored beta="0x10"/), expect.stringMatching(/^ignored seed="\+5"/), expect.stringMatching(/^ignored max_steps="007"/)]);
  });

  it('uses the first of a repeated key, and says it was repeated', () => {
    const { settings, problems } = decode('?beta=0.5&beta=0.04&beta=7');
    expect(settings.beta).toBe(0.5);
    expect(problems).toEqual(['"beta" appears 3 times; the first value was used']);
  });

  it('summarises a flood of bad keys in a few lines', () => {
    const keys = Object.keys(schema);
    const { problems } = decode(`?${Array.from({ length: 1000 }, (_, i) => `${keys[i % keys.length]}=bad${i}`).join('&')}`);
    expect(problems).toHaveLength(MAX_LINK_NOTICES);
    expect(problems.at(-1)).toMatch(/^and \d+ more problems, all ignored$/);
  });

  it('ignores parameters that are not the lab’s (they belong to the page) and reads the backend', () => {
    expect(decode('?utm_source=x&backend=wasm')).toMatchObject({ problems: [], backend: 'wasm' });
  });

  it.each(TRAINER_NAMES)('%s: every preset round-trips through its link', (name) => {
    const t = trainerSettings(name);
    for (const [presetName, preset] of Object.entries(t.presets)) {
      const settings = { ...decodeSettings(t.schema, t.presets, '').settings, ...preset.overrides, seed: 7 } as Record<string, number | string | boolean>;
      const back = decodeSettings(t.schema, t.presets, `?${encodeSettings(t.schema, t.presets, settings, presetName)}`);
      expect(back.problems).toEqual([]);
      expect(back.preset).toBe(presetName);
      expect(back.settings).toEqual(settings);
    }
  });
});

describe('lab preset menus', () => {
  it('offer only presets their trainer has (a typo would offer a preset that crashes the menu and `npm run assign`)', () => {
    for (const lab of labs) {
      const { presets } = trainerSettings(lab.trainer);
      const offered = labPresets(lab, presets);
      expect(offered.length, lab.slug).toBeGreaterThan(0);
      for (const name of offered) expect(Object.hasOwn(presets, name), `${lab.slug} offers ${name}`).toBe(true);
    }
  });
});
