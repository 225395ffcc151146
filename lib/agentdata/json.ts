// JSON helpers that never evaluate anything and never trust a key: properties are read only when they are
// the object's own (so `constructor` or `__proto__` in the data is just a key), nesting is measured before
// anything recurses, and parse errors become messages with a line number.
import { errorMessage } from '@/lib/errors';
import { fmt, MAX_DEPTH, MAX_NODES, MAX_TEXT_CHARS } from './limits';

export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** obj[key] only when it is the object's own property: never Object.prototype's `constructor` & co. */
export const own = (obj: JsonObject, key: string): unknown => (Object.hasOwn(obj, key) ? obj[key] : undefined);

export const describe = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : Number.isInteger(v) ? 'an integer' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

/** Index of the first character where arrays/objects nest deeper than MAX_DEPTH, or -1. Strings are skipped. */
export function tooDeepAt(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */ || c === 10 /* newline: JSON strings cannot hold one */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91 /* { [ */) {
      if (++depth > MAX_DEPTH) return i;
    } else if (c === 125 || c === 93 /* } ] */) depth = Math.max(0, depth - 1);
  }
  return -1;
}

/** 1-based line of a character index. */
export const lineAt = (text: string, index: number): number => {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
};

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string; position?: number };

/** JSON.parse with the error turned into a short message and, when the engine gives one, a position. */
export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const raw = errorMessage(e);
    const at = /position (\d+)/.exec(raw);
    const message = raw.length > 160 ? `${raw.slice(0, 157)}…` : raw;
    return { ok: false, message, position: at ? Number(at[1]) : undefined };
  }
}

/**
 * For a value handed over as an object rather than text: refuses cycles, deep nesting, too many nodes or too
 * much text before any check recurses into it. Returns the reason, or null when the value is within bounds.
 */
export function boundsProblem(value: unknown): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 0;
  let chars = 0;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (++nodes > MAX_NODES) return `more than ${fmt(MAX_NODES)} values; the limit keeps checking fast`;
    if (typeof v === 'string') {
      chars += v.length;
      if (chars > MAX_TEXT_CHARS) return `more than ${fmt(MAX_TEXT_CHARS)} characters of text (about 1 MB)`;
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= MAX_DEPTH) return `nested more than ${MAX_DEPTH} levels deep (or circular)`;
      const children = Array.isArray(v) ? v : Object.keys(v).map((k) => (v as JsonObject)[k]);
      for (const child of children) stack.push([child, depth + 1]);
    }
  }
  return null;
}

/** Deep equality of two JSON values (for `enum`); depth is already bounded by the checks above. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}
