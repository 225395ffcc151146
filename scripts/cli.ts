// What the course's command lines (train, assign, grade) share: a usage error, strict flag parsing that turns Node's
// multi-line parse errors into one line plus the usage, and integer flags that refuse "1e3", "-1" and "07.5".
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake on the command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** parseArgs with positionals allowed and unknown flags refused; its errors become UsageErrors that end with `usage`. */
export function parseFlags<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O, usage: string) {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: true, options });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.replace(/\s*\n\s*/g, ' ')} ${usage}`);
  }
}

/** A comma-separated list of names from `known` (all of them when the flag is absent); an unknown one is a UsageError. */
export function namesFlag(flag: string, text: string | undefined, known: readonly string[]): string[] {
  const chosen = text ? text.split(',').map((s) => s.trim()) : [...known];
  const unknown = chosen.find((name) => !known.includes(name));
  if (unknown !== undefined) throw new UsageError(`${flag}: unknown ${JSON.stringify(unknown)} (known: ${known.join(', ')})`);
  return chosen;
}

/** A flag's decimal integer ≥ min, or undefined when the flag is absent. */
export function integerFlag(flag: string, text: string | undefined, min = 0): number | undefined {
  if (text === undefined) return undefined;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${flag} must be an integer ≥ ${min}, got ${JSON.stringify(text)}`);
  return n;
}

/** A file a flag names, refused unread above `maxBytes`; a missing or unreadable file is a UsageError with its code. */
export function readFlagFile(file: string, maxBytes: number, what: string): string {
  try {
    if (fs.statSync(file).size > maxBytes) throw new UsageError(`${file} is too large to be ${what}`);
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The tfjs backends Node has: a --backend flag's value, checked. */
export function nodeBackendFlag(value: string): 'cpu' | 'wasm' {
  if (value !== 'cpu' && value !== 'wasm') throw new UsageError(`--backend must be cpu or wasm in Node, got "${value}"`);
  return value;
}

/** Fails now, not after the work, if the file could not be written there. */
export function checkSavePath(flag: string, file: string): string {
  const target = path.resolve(file);
  if (fs.existsSync(target) && fs.statSync(target).isDirectory()) throw new UsageError(`--${flag} ${file} is a directory; give a file name`);
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.accessSync(path.dirname(target), fs.constants.W_OK);
  } catch (error) {
    throw new UsageError(`--${flag} ${file}: cannot write there (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return target;
}
