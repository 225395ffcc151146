/**
 * Each self-improvement preset's note, as the lab shows it under the toolbar, names the numbers its own settings
 * train with: the target's digits ("3-digit") and the demonstrations' columns. A note that said "4-digit" for a
 * 3-digit target misled every reader of the default preset.
 */
import { describe, expect, it } from 'vitest';
import { resolve } from '@/lib/train/config';
import { selfImprovePresets, selfImproveSchema } from '@/lib/train/self-improve-config';

describe('self-improvement preset notes', () => {
  for (const [name, preset] of Object.entries(selfImprovePresets)) {
    it(`${name}: names its own target_digits and demonstration_digits, and no others`, () => {
      const config = resolve(selfImproveSchema, preset.overrides);
      const digits = [...preset.description.matchAll(/(\d+)-digit/g)].map((m) => Number(m[1]));
      expect(digits.length).toBeGreaterThan(0);
      expect(new Set(digits)).toEqual(new Set([config.target_digits]));
      for (const [, columns] of preset.description.matchAll(/(\d+) columns/g)) expect(Number(columns)).toBe(config.demonstration_digits);
    });
  }
});
