// validateTrajectory: the entry point. Takes a trajectory object, a JSON string of one, or JSONL (one per
// line), and returns every problem it finds as { line?, path, code, message }. Any input gets an answer:
// size caps are checked before parsing, and anything unexpected becomes an error rather than a crash.
import { errorMessage } from '@/lib/errors';
import { checkTrajectory } from './check';
import { boundsProblem, lineAt, parseJson, tooDeepAt } from './json';
import { fmt, MAX_DEPTH, MAX_LINES, MAX_TEXT_CHARS } from './limits';
import { ErrorSink } from './sink';
import type { ValidationResult } from './types';

export function validateTrajectory(input: unknown): ValidationResult {
  const sink = new ErrorSink();
  const trajectories: ValidationResult['trajectories'] = [];
  let checked = 0;
  const check = (value: unknown, line?: number) => {
    checked++;
    const t = checkTrajectory(value, sink, line);
    if (t) trajectories.push(line === undefined ? { trajectory: t } : { line, trajectory: t });
  };
  try {
    if (typeof input === 'string') checkText(input, sink, check, () => checked++);
    else {
      const problem = boundsProblem(input);
      if (problem) sink.add('too_large', '', `The trajectory is ${problem}. Nothing was checked.`);
      else check(input);
    }
  } catch (e) {
    // A last resort for inputs nobody foresaw (e.g. an object whose getter throws): report, never crash.
    sink.add('invalid_shape', '', `The input could not be read: ${errorMessage(e)}`);
  }
  return { ok: sink.total === 0, errors: sink.errors, omitted: sink.omitted, summary: sink.summary(), checked, trajectories };
}

const tooDeep = `Arrays and objects nest more than ${MAX_DEPTH} levels deep here. Nothing was checked.`;

/** `check` validates one parsed record; `countLine` counts a JSONL line that could not be parsed. */
function checkText(text: string, sink: ErrorSink, check: (value: unknown, line?: number) => void, countLine: () => void): void {
  if (text.length > MAX_TEXT_CHARS) {
    return sink.add('too_large', '', `The input is ${fmt(text.length)} characters; the limit is ${fmt(MAX_TEXT_CHARS)} (about 1 MB). Nothing was checked.`);
  }
  if (text.trim() === '') return sink.add('invalid_json', '', 'The input is empty: paste a trajectory object, or JSONL with one per line.');
  // Nesting is measured before each parse, so no parser or check ever recurses deeper than MAX_DEPTH.
  const deep = tooDeepAt(text);
  const whole = deep < 0 ? parseJson(text) : null;
  if (whole?.ok) {
    if (Array.isArray(whole.value)) {
      return sink.add('invalid_shape', '', 'Expected one trajectory object, or JSONL with one trajectory object per line; got a JSON array.');
    }
    return check(whole.value);
  }
  // Not one JSON document. If the first non-empty line is a complete value, read it as JSONL.
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const jsonl = tooDeepAt(lines[first]) < 0 && parseJson(lines[first]).ok;
  if (!jsonl && !whole) return sink.add('too_large', '', tooDeep, lineAt(text, deep));
  if (!jsonl && whole && !whole.ok) {
    const line = whole.position === undefined ? undefined : lineAt(text, whole.position);
    return sink.add('invalid_json', '', `Not valid JSON: ${whole.message}`, line);
  }
  let seen = 0;
  for (let i = first; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    if (++seen > MAX_LINES) {
      const rest = lines.slice(i).filter((l) => l.trim() !== '').length;
      return sink.add('too_large', '', `Only the first ${fmt(MAX_LINES)} lines are checked; ${fmt(rest)} more were not.`, i + 1);
    }
    if (tooDeepAt(lines[i]) >= 0) {
      countLine();
      sink.add('too_large', '', tooDeep, i + 1);
      continue;
    }
    const parsed = parseJson(lines[i]);
    if (parsed.ok) check(parsed.value, i + 1);
    else {
      countLine();
      sink.add('invalid_json', '', `Line ${i + 1} is not valid JSON: ${parsed.message}`, i + 1);
    }
  }
}
