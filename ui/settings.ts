/**
 * Lab settings as a link: the fields that differ from the defaults, plus the seed and preset, go in the
 * URL query, so sharing the address reproduces the run. Parsing is validation: bad values are reported
 * and ignored, never evaluated.
 */
import { BACKEND_ORDER, type BackendName } from '@/lib/tf/names';
import { configProblem, ownEntry, parseAssignment, presetSettings, quoteInput, resolve, type FieldValue, type PresetTable, type Schema } from '@/lib/train/config';

export type Settings = Record<string, FieldValue>;

/**
 * The link for `settings` under `preset`: the preset's name (unless it is the lab's first, `home`), the seed, and the
 * fields that differ from what the preset sets, so a link stays short and reads as "this preset, but…".
 */
export function encodeSettings(schema: Schema, presets: PresetTable, settings: Settings, preset: string, home = 'default'): string {
  const base = presetSettings(schema, ownEntry(presets, preset));
  const params = new URLSearchParams();
  if (preset !== home) params.set('preset', preset);
  for (const [key, value] of Object.entries(settings)) {
    if (key === 'seed' || value !== base[key]) params.set(key, String(value));
  }
  return params.toString();
}

/** At most this many problems are listed; the rest are counted in one more line. */
export const MAX_LINK_NOTICES = 5;

/**
 * Reads settings from a query string: defaults, then the preset's overrides, then each valid field. Whatever a link
 * holds (broken encoding, "__proto__", 100 KB values, a key repeated 1,000 times), this returns settings that the
 * trainer accepts and a short list of what was ignored; it never throws.
 */
export function decodeSettings(
  schema: Schema,
  presets: PresetTable,
  query: string,
  home = 'default',
): { settings: Settings; preset: string; backend: BackendName | 'auto'; problems: string[] } {
  const params = new URLSearchParams(query); // never throws: bad escapes stay as written, bad UTF-8 becomes U+FFFD
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const first: [string, string][] = [];
  for (const [key, value] of params) {
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count === 1) first.push([key, value]);
  }
  for (const [key, count] of seen) if (count > 1 && isLinkKey(schema, key)) problems.push(`${quoteInput(key)} appears ${count} times; the first value was used`);
  const firstValue = (key: string) => first.find(([k]) => k === key)?.[1];

  let preset = firstValue('preset') ?? home;
  if (!ownEntry(presets, preset)) {
    problems.push(`unknown preset ${quoteInput(preset)}`);
    preset = home;
  }
  let backend: BackendName | 'auto' = 'auto';
  const backendText = firstValue('backend');
  if (backendText !== undefined) {
    const parsed = BACKEND_ORDER.find((b) => b === backendText) ?? (backendText === 'auto' ? 'auto' : null);
    if (parsed) backend = parsed;
    else problems.push(`ignored backend=${quoteInput(backendText)}: expected auto, ${BACKEND_ORDER.join(', ')}`);
  }
  const settings: Settings = presetSettings(schema, ownEntry(presets, preset));
  for (const [key, text] of first) {
    if (!Object.hasOwn(schema, key)) continue; // other parameters belong to the page, not to the trainer
    try {
      const [, value] = parseAssignment(schema, `${key}=${text}`);
      resolve(schema, { ...settings, [key]: value });
      settings[key] = value;
    } catch (error) {
      problems.push(`ignored ${key}=${quoteInput(text)}: ${configProblem(error)}`);
    }
  }
  const shown = problems.length > MAX_LINK_NOTICES ? [...problems.slice(0, MAX_LINK_NOTICES - 1), `and ${problems.length - MAX_LINK_NOTICES + 1} more problems, all ignored`] : problems;
  return { settings, preset, backend, problems: shown };
}

/** Keys a lab reads from its link: the trainer's fields, the preset and the backend. */
const isLinkKey = (schema: Schema, key: string) => key === 'preset' || key === 'backend' || Object.hasOwn(schema, key);

/** Fields whose values differ between runs, for labels like "learning_rate=0.001, beta=0.04". */
export function describeDifferences(schema: Schema, settings: Settings, others: Settings[]): string {
  const keys = Object.keys(schema).filter((k) => k !== 'seed' && others.some((o) => o[k] !== settings[k]));
  const seedDiffers = others.some((o) => o.seed !== settings.seed);
  const parts = keys.map((k) => `${k}=${settings[k]}`);
  if (seedDiffers) parts.push(`seed=${settings.seed}`);
  return parts.join(', ') || 'same settings';
}
