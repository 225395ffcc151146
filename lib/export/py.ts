/** Python literals and the small pieces of Python source the export writes. */

export type Py = number | string | boolean | null | readonly Py[] | { readonly [key: string]: Py } | PyCode;

/** Source text written as is (a name or an expression), not quoted. */
export interface PyCode {
  code: string;
}
export const code = (text: string): PyCode => ({ code: text });

/** A number written as a Python float, for fields TRL types as float: 1 → 1.0, 3e-4 → 3e-4. */
export const float = (n: number): Py => (Number.isInteger(n) ? code(`${n}.0`) : n);

const isCode = (v: unknown): v is PyCode => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && typeof (v as PyCode).code === 'string';

/** A value as a Python literal: 1e-06 → 1e-06, true → True, 'a"b' → "a\"b" (JSON's escapes are valid in Python). */
export function py(value: Py): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} as a Python literal`);
    // Integers stay integers ("64"; float() below writes "64.0"); small numbers in exponent form ("1e-6", "3e-4").
    return value !== 0 && Math.abs(value) < 1e-3 ? value.toExponential() : String(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (isCode(value)) return value.code;
  if (Array.isArray(value)) return `[${value.map(py).join(', ')}]`;
  const object = value as { readonly [key: string]: Py };
  return `{${Object.entries(object).map(([k, v]) => `${JSON.stringify(k)}: ${py(v)}`).join(', ')}}`;
}

/** A number the way the tables show it: 3e-4, 0.2, 64. */
export function shortNumber(n: number): string {
  if (n !== 0 && Math.abs(n) < 1e-3) return n.toExponential().replace(/\.?0+e/, 'e').replace('e-', 'e-');
  return String(n);
}

/** Words wrapped to lines of at most `width` characters (a long word stays whole). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** How deep a config's keyword arguments sit in the generated scripts (inside main(), inside the config call). */
export const KWARG_INDENT = '        ';

/** `NAME = value` for each of a plan's constants that belongs in `file`, in the plan's order, leaving out those in `skip`. */
export function assignments(constants: Readonly<Record<string, { file: string; value: Py }>>, file: string, skip: readonly string[] = []): string[] {
  return Object.entries(constants)
    .filter(([name, c]) => c.file === file && !skip.includes(name))
    .map(([name, c]) => `${name} = ${py(c.value)}`);
}

/** Keyword arguments, one a line, each after its comment (wrapped at 116 columns). */
export function kwargLines(kwargs: readonly { name: string; value: Py; comment?: string }[], indent: string): string {
  return kwargs
    .map((k) => {
      const note = k.comment ? `${wrap(k.comment, 116 - indent.length - 2).map((l) => `${indent}# ${l}`).join('\n')}\n` : '';
      return `${note}${indent}${k.name}=${py(k.value)},`;
    })
    .join('\n');
}
