/**
 * Lab settings as a link: the fields that differ from the defaults, plus the seed and preset, go in the
 * URL query, so sharing the address reproduces the run. Parsing is validation: bad values are reported
 * and ignored, never evaluated.
 */
import { defaults, ownEntry, parseAssignment, presetSettings, resolve, type FieldValue, type PresetTable, type Schema } from '@/lib/train/config';

export type Settings = Record<string, FieldValue>;

export function encodeSettings(schema: Schema, settings: Settings, preset: string): string {
  const base = defaults(schema);
  const params = new URLSearchParams();
  if (preset !== 'default') params.set('preset', preset);
  for (const [key, value] of Object.entries(settings)) {
    if (key === 'seed' || value !== base[key]) params.set(key, String(value));
  }
  return params.toString();
}

/** Reads settings from a query string: defaults, then the preset's overrides, then each valid field. */
export function decodeSettings(
  schema: Schema,
  presets: PresetTable,
  query: string,
): { settings: Settings; preset: string; problems: string[] } {
  const params = new URLSearchParams(query);
  const problems: string[] = [];
  let preset = params.get('preset') ?? 'default';
  if (!ownEntry(presets, preset)) {
    problems.push(`unknown preset "${preset}"`);
    preset = 'default';
  }
  const settings: Settings = presetSettings(schema, ownEntry(presets, preset));
  for (const [key, text] of params) {
    if (key === 'preset') continue;
    if (!Object.hasOwn(schema, key)) continue; // other parameters belong to the page, not to the trainer
    try {
      const [, value] = parseAssignment(schema, `${key}=${text}`);
      resolve(schema, { ...settings, [key]: value });
      settings[key] = value;
    } catch (error) {
      problems.push(`ignored ${key}=${text}: ${(error as Error).message.replace(/^Invalid config: /, '')}`);
    }
  }
  return { settings, preset, problems };
}

/** Fields whose values differ between runs, for labels like "learning_rate=0.001, beta=0.04". */
export function describeDifferences(schema: Schema, settings: Settings, others: Settings[]): string {
  const keys = Object.keys(schema).filter((k) => k !== 'seed' && others.some((o) => o[k] !== settings[k]));
  const seedDiffers = others.some((o) => o.seed !== settings.seed);
  const parts = keys.map((k) => `${k}=${settings[k]}`);
  if (seedDiffers) parts.push(`seed=${settings.seed}`);
  return parts.join(', ') || 'same settings';
}
