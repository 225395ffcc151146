/**
 * Whether a reader's answer matches the core's, and if not, one sentence saying where: a wrong type, a wrong length,
 * NaN, or the first number off by more than the tolerance. Values arrive from a sandbox by structured clone, so
 * anything may come back: a string, undefined, a typed array, an object.
 */
import { DEFAULT_TOLERANCE } from '@/content/exercises';

export type Tolerance = { abs: number; rel: number };

const asArray = (v: unknown): unknown[] | null => (Array.isArray(v) ? v : ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v as unknown as ArrayLike<number>) : null);

/** "a number", "an array of 3 numbers", "an array of 2 rows of 4 numbers": what `expected` is, for messages. */
export function describeShape(expected: unknown): string {
  const items = asArray(expected);
  if (items === null) return 'a number';
  const inner = asArray(items[0]);
  return inner === null ? `an array of ${items.length} numbers` : `an array of ${items.length} rows of ${inner.length} numbers`;
}

/** What the received value is, in a few words: "a string", "undefined", "an array of 2". */
function kindOf(v: unknown): string {
  if (v === undefined) return 'undefined (did the function return?)';
  if (v === null) return 'null';
  const items = asArray(v);
  if (items) return `an array of ${items.length}`;
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : 'a number';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

/** null when `received` matches `expected`; otherwise what is wrong, e.g. "element 2 differs: expected 0.5, got 0.48". */
export function compareValue(expected: unknown, received: unknown, tolerance: Tolerance = DEFAULT_TOLERANCE, where = ''): string | null {
  const at = where ? `${where}: ` : '';
  const wanted = asArray(expected);
  if (wanted === null) {
    const e = expected as number;
    if (typeof received !== 'number') return `${at}expected a number, got ${kindOf(received)}`;
    if (Number.isNaN(received)) return `${at}got NaN (a 0/0, a log of a negative number, or an undefined element in a sum?)`;
    if (!Number.isFinite(received)) return `${at}got ${received}`;
    if (Math.abs(received - e) > tolerance.abs + tolerance.rel * Math.abs(e)) {
      return `${where ? `${where} differs` : 'the value differs'}: expected ${formatNumber(e)}, got ${formatNumber(received)}`;
    }
    return null;
  }
  const got = asArray(received);
  if (got === null) return `${at}expected ${describeShape(expected)}, got ${kindOf(received)}`;
  if (got.length !== wanted.length) return `${at}expected ${describeShape(expected)}, got an array of ${got.length}`;
  const nested = asArray(wanted[0]) !== null;
  for (let i = 0; i < wanted.length; i++) {
    const problem = compareValue(wanted[i], got[i], tolerance, nested ? `row ${i}` : where ? `${where}, element ${i}` : `element ${i}`);
    if (problem) return problem;
  }
  return null;
}

/** Up to 6 significant digits, as a reader would type it. */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return String(Number(x.toPrecision(6)));
}

/** A value for a message: numbers to 6 digits, arrays in brackets, strings quoted; cut at `max` characters. */
export function formatValue(v: unknown, max = 400): string {
  const text = (x: unknown): string => {
    const items = asArray(x);
    if (items) return `[${items.map(text).join(', ')}]`;
    if (typeof x === 'number') return formatNumber(x);
    if (typeof x === 'string') return JSON.stringify(x);
    if (x === undefined) return 'undefined';
    try {
      return JSON.stringify(x) ?? String(x);
    } catch {
      return String(x);
    }
  };
  const out = text(v);
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}
