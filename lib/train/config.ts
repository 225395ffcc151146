/**
 * Typed trainer configs described as data: each field has its TRL name, default, a one-line reason for the
 * default, and its allowed range or choices. One description serves validation (trainers, CLI `--set`, lab
 * URLs), the labs' controls and their help text, so the three can never disagree.
 */
import { errorMessage } from '@/lib/errors';

export type FieldValue = number | string | boolean;

interface FieldBase<T extends FieldValue> {
  default: T;
  /** Why this default: one line, shown as help in the labs. */
  reason: string;
  /**
   * For a field added after complete configs were already written to files (assignments, submissions): the value a
   * run of such a file had, which lacks the field, and why. A file lacking the field then reads as complete and runs
   * with this value (settingsAsRun); a file lacking a field without it is refused (completeConfigProblem).
   */
  absentMeans?: AbsentMeans<T>;
}
export interface AbsentMeans<T extends FieldValue = FieldValue> {
  value: T;
  /** One line: what runs did before the field existed. */
  reason: string;
}
export interface NumberField extends FieldBase<number> {
  kind: 'number';
  min: number;
  max: number;
  integer?: boolean;
  /** Excludes `min` itself (e.g. learning_rate > 0). */
  exclusiveMin?: boolean;
}
export interface ChoiceField<T extends string = string> extends FieldBase<T> {
  kind: 'choice';
  choices: readonly T[];
}
export interface BooleanField extends FieldBase<boolean> {
  kind: 'boolean';
}
export type Field = NumberField | ChoiceField | BooleanField;

/**
 * The field of a trainer that starts from a shipped SFT checkpoint: 'sft' (the default) loads it, 'base' builds the
 * same model untrained. `reason` says what the checkpoint holds; `absentMeans` where the field came after files did.
 */
export function sftOrBase(reason: string, absentMeans?: AbsentMeans<'sft' | 'base'>): ChoiceField<'sft' | 'base'> {
  return { kind: 'choice', default: 'sft', choices: ['sft', 'base'] as const, reason, ...(absentMeans ? { absentMeans } : {}) };
}
export type Schema = Record<string, Field>;

/** The plain config object a schema describes. */
export type ConfigOf<S extends Schema> = {
  [K in keyof S]: S[K] extends { kind: 'choice'; choices: readonly (infer C)[] } ? C : S[K] extends NumberField ? number : boolean;
};

/** A preset: a few overrides of the defaults, each a claim its description makes (nanoGPT's config files). */
export interface Preset<S extends Schema = Schema> {
  description: string;
  overrides: Partial<ConfigOf<S>>;
}
/** Every trainer has a 'default' preset (no overrides). */
export type Presets<S extends Schema = Schema> = { default: Preset<S> } & Record<string, Preset<S>>;

/** Any trainer's presets as plain data, for code that handles every trainer alike (forms, links, run files). */
export type PresetTable = Readonly<Record<string, { description: string; overrides: Readonly<Record<string, FieldValue | undefined>> }>>;

/** The settings a preset stands for: the schema's defaults with the preset's overrides on top. */
export function presetSettings(schema: Schema, preset: PresetTable[string] | undefined): Record<string, FieldValue> {
  const settings: Record<string, FieldValue> = { ...defaults(schema) };
  for (const [key, value] of Object.entries(preset?.overrides ?? {})) if (value !== undefined) settings[key] = value;
  return settings;
}

/** Looks up a name that came from outside (a link, a flag, a file): own keys only, so "__proto__" or "toString" never match. */
export function ownEntry<T>(record: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid config: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The complete settings a run of a complete config read from a file (an assignment's settings, a submission's config)
 * uses: the file's own values, and each field it lacks that says what its absence means (`absentMeans`: a field the
 * file predates) filled with that value. Any other missing field stays missing (completeConfigProblem refuses it).
 * Read a file's settings through this wherever they start, rebuild or check a run; hash the file as written.
 */
export function settingsAsRun<T>(schema: Schema, config: Readonly<Record<string, T>>): Record<string, T | FieldValue> {
  const settings: Record<string, T | FieldValue> = { ...config };
  for (const [key, field] of Object.entries(schema)) {
    if (field.absentMeans !== undefined && !Object.hasOwn(config, key)) settings[key] = field.absentMeans.value;
  }
  return settings;
}

/**
 * What is wrong with a complete config read from a file (an assignment, a submission), or null: every field of the
 * schema present (or absent with an `absentMeans`: settingsAsRun fills it), no other, each value valid.
 */
export function completeConfigProblem(schema: Schema, config: Record<string, unknown>): string | null {
  const unknown = Object.keys(config).find((k) => !Object.hasOwn(schema, k));
  if (unknown !== undefined) return `unknown field ${quoteInput(unknown)}`;
  const missing = Object.entries(schema).find(([k, f]) => !Object.hasOwn(config, k) && f.absentMeans === undefined)?.[0];
  if (missing !== undefined) return `${missing} is missing`;
  try {
    resolve(schema, settingsAsRun(schema, config));
    return null;
  } catch (error) {
    return configProblem(error);
  }
}

/** What was wrong, without the "Invalid config: " prefix: the problems of a ConfigError, or any error's message. */
export function configProblem(error: unknown): string {
  if (error instanceof ConfigError) return error.problems.join('; ');
  return errorMessage(error);
}

export function defaults<S extends Schema>(schema: S): ConfigOf<S> {
  return Object.fromEntries(Object.entries(schema).map(([k, f]) => [k, f.default])) as ConfigOf<S>;
}

function checkField(key: string, field: Field, value: unknown): string | null {
  if (field.kind === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `${key} must be a finite number, got ${quoteInput(String(value))}`;
    if (field.integer && !Number.isInteger(value)) return `${key} must be an integer, got ${value}`;
    const belowMin = field.exclusiveMin ? value <= field.min : value < field.min;
    if (belowMin || value > field.max) {
      return `${key} must be in ${field.exclusiveMin ? '(' : '['}${field.min}, ${field.max}], got ${value}`;
    }
    return null;
  }
  if (field.kind === 'choice') {
    return field.choices.includes(value as string) ? null : `${key} must be one of ${field.choices.join(' | ')}, got ${quoteInput(String(value))}`;
  }
  return typeof value === 'boolean' ? null : `${key} must be true or false, got ${quoteInput(String(value))}`;
}

/** Why `value` is not allowed for field `key` of `schema`, or null when it is (the message names the field). */
export function fieldProblem(schema: Schema, key: string, value: unknown): string | null {
  const field = ownEntry(schema, key);
  return field ? checkField(key, field, value) : `unknown field ${quoteInput(key)}`;
}

/** Defaults overlaid with `overrides`; unknown keys and out-of-range values are all reported at once. */
export function resolve<S extends Schema>(schema: S, overrides: Record<string, unknown> = {}): ConfigOf<S> {
  const problems: string[] = [];
  for (const key of Object.keys(overrides)) if (!Object.hasOwn(schema, key)) problems.push(`unknown field ${quoteInput(key)} (known: ${Object.keys(schema).join(', ')})`);
  const config = { ...defaults(schema), ...Object.fromEntries(Object.entries(overrides).filter(([k]) => Object.hasOwn(schema, k))) };
  for (const [key, field] of Object.entries(schema)) {
    const problem = checkField(key, field, (config as Record<string, unknown>)[key]);
    if (problem) problems.push(problem);
  }
  if (problems.length) throw new ConfigError(problems);
  return config as ConfigOf<S>;
}

/** A number as written by String(n): no hex or binary, no '+', no leading zeros or spaces ("0.001", "3e-4", "-1"). */
const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:e[+-]?\d+)?$/i;

/** Shows a value from outside in a message: quoted, and cut short if long (a link can carry 100 KB). */
export function quoteInput(text: string, max = 40): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/**
 * Parse `key=value` text (CLI flags, URL parameters) into the field's type; throws with the field's rule. The text is
 * taken exactly as written: a value must look the way the site writes it, so a link cannot mean two things.
 */
export function parseAssignment(schema: Schema, assignment: string): [string, FieldValue] {
  const eq = assignment.indexOf('=');
  if (eq < 1) throw new ConfigError([`expected key=value, got ${quoteInput(assignment)}`]);
  const key = assignment.slice(0, eq);
  const text = assignment.slice(eq + 1);
  const field = ownEntry(schema, key);
  if (!field) throw new ConfigError([`unknown field ${quoteInput(key)} (known: ${Object.keys(schema).join(', ')})`]);
  if (field.kind === 'number') {
    if (!DECIMAL.test(text)) throw new ConfigError([`${key} must be a decimal number such as 0.001 or 3e-4, got ${quoteInput(text)}`]);
    const value = Number(text);
    if (!Number.isFinite(value)) throw new ConfigError([`${key} must be a finite number, got ${quoteInput(text)}`]);
    return [key, value];
  }
  if (field.kind === 'boolean') {
    if (text !== 'true' && text !== 'false') throw new ConfigError([`${key} must be true or false, got ${quoteInput(text)}`]);
    return [key, text === 'true'];
  }
  return [key, text];
}
