/**
 * A lab run's settings as an exporter receives them: a preset of the lab's spec with overrides on top, validated by
 * its schema. Reads the lab as the spec describes it (types.ts ExportLab), never the registry above lib/export.
 */
import { ConfigError, ownEntry, resolve, type FieldValue } from '@/lib/train/config';
import type { ExportLab } from './types';

/**
 * The settings of a preset with overrides on top (a ConfigError names every problem). With epsilon set and
 * epsilon_high not, epsilon_high follows epsilon, as TRL and the labs do (lib/train/grpo-update.ts resolveGrpoLike).
 */
export function labSettings(lab: ExportLab, preset: string, overrides: Readonly<Record<string, FieldValue>> = {}): Record<string, FieldValue> {
  const { schema, presets } = lab;
  const chosen = ownEntry(presets, preset);
  if (!chosen) throw new ConfigError([`unknown preset "${preset.slice(0, 40)}" for ${lab.trainer} (known: ${Object.keys(presets).join(', ')})`]);
  const merged: Record<string, unknown> = { ...chosen.overrides, ...overrides };
  if ('epsilon_high' in schema && Object.hasOwn(overrides, 'epsilon') && !Object.hasOwn(overrides, 'epsilon_high') && !Object.hasOwn(chosen.overrides, 'epsilon_high')) {
    merged.epsilon_high = overrides.epsilon;
  }
  return resolve(schema, merged) as Record<string, FieldValue>;
}

/** The fields whose values differ from the preset's, as `name=value` (the README's first line says what was changed). */
export function changedFields(lab: ExportLab, preset: string, settings: Readonly<Record<string, FieldValue>>): string[] {
  const base = labSettings(lab, preset);
  return Object.keys(settings)
    .filter((k) => settings[k] !== base[k])
    .map((k) => `${k}=${String(settings[k])}`);
}

/** A project's folder name: trl-<trainer>-<preset>, the preset reduced to characters safe in a path. */
export const projectName = (trainer: string, preset: string) => `trl-${trainer}-${preset.replace(/[^a-z0-9_-]/gi, '_')}`;
