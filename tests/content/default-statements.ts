/**
 * Finds the places where a chapter states the default of a config field, in prose ("`epsilon`, default 0.2",
 * "TRL's default is `beta = 0.1`", "`kl_coef` (0.05 by default)") and in tables with a "default" column, so a test
 * can compare each with the lab's config or the recorded TRL v1.13 default (v1.9's for PPOConfig). Heuristic by design: the test also
 * pins the statements it must find, so the scanner cannot quietly stop seeing them.
 */

export interface DefaultStatement {
  line: number;
  field: string;
  /** The value as written, backticks and quotes removed. */
  stated: string;
  /** The sentence (or table row) it came from. */
  text: string;
}

/** A stated value: a code span, a number, a boolean or None, or on/off; "equal to `x`" counts as `x`. */
const VALUE = String.raw`(?:equal to\s+)?(\x60[^\x60]+\x60|-?\d+(?:,\d{3})*(?:\.\d+)?(?:e-?\d+)?|True|False|None|on|off|"[^"]*"|'[^']*')`;

const AFTER = [
  // "`kl_coef` (0.05 by default)", "`whiten_rewards` option (off by default)"
  new RegExp(String.raw`^[^\x60.;]{0,15}?\(${VALUE} by default\)`),
  // "`epsilon`, default 0.2", "(the μ of the GRPO paper, default 1)", "which defaults to `epsilon`", "left at its default of `None`"
  new RegExp(String.raw`^[^\x60.;]{0,40}?\bdefaults?\b(?:\s+(?:of|is|to))?:?\s+${VALUE}`),
];
/** "TRL's default is `beta = 0.1`", "defaults to `vllm_mode="colocate"`", "TRL's default `beta` is 0". */
const BEFORE = /\bdefaults?(?:\s+today)?(?:\s+(?:is|of|to))?\s*$/i;
const IS_VALUE = new RegExp(String.raw`^\s+(?:is\s+)?${VALUE}`);

const strip = (v: string) => v.replace(/^`|`$/g, '').replace(/^(["'])(.*)\1$/, '$2').trim();

function codeSpans(sentence: string): { code: string; start: number; end: number }[] {
  return [...sentence.matchAll(/`([^`]+)`/g)].map((m) => ({ code: m[1], start: m.index, end: m.index + m[0].length }));
}

/** Lines of prose: outside code fences and frontmatter. */
function proseLines(source: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let fence = false;
  let frontmatter = 0;
  source.split('\n').forEach((text, i) => {
    if (frontmatter < 2 && text.trim() === '---') return void frontmatter++;
    if (frontmatter < 2) return;
    if (/^\s*```/.test(text)) return void (fence = !fence);
    if (!fence) out.push({ text, line: i + 1 });
  });
  return out;
}

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?;])\s+(?=[A-Z(`'*\[])/);
}

function fromSentence(sentence: string, line: number, fields: ReadonlySet<string>): DefaultStatement[] {
  if (!/default/i.test(sentence)) return [];
  const out: DefaultStatement[] = [];
  for (const span of codeSpans(sentence)) {
    const assigned = /^([a-z_][a-z0-9_]*)\s*=\s*(.+)$/.exec(span.code);
    const field = assigned ? assigned[1] : /^[a-z_][a-z0-9_]*$/.test(span.code) ? span.code : undefined;
    if (!field) continue;
    const after = sentence.slice(span.end);
    // A value that is itself `other_field=...` belongs to that field (read when the loop reaches its span).
    const stated = AFTER.map((re) => re.exec(after)?.[1]).find((v) => v !== undefined && !/^`[a-z_][a-z0-9_]*\s*=/.test(v));
    if (stated !== undefined) {
      out.push({ line, field, stated: strip(stated), text: sentence });
    } else if (BEFORE.test(sentence.slice(0, span.start)) && fields.has(field)) {
      const value = assigned ? assigned[2] : IS_VALUE.exec(after)?.[1];
      if (value !== undefined) out.push({ line, field, stated: strip(value), text: sentence });
    }
  }
  return out;
}

function cells(row: string): string[] {
  return row.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
}

/** Every default a chapter states. `fields` are the config names known anywhere (lab schemas and the TRL table). */
export function findDefaultStatements(source: string, fields: ReadonlySet<string>): DefaultStatement[] {
  const lines = proseLines(source);
  const out: DefaultStatement[] = [];
  let defaultColumn = -1;
  for (const [k, { text, line }] of lines.entries()) {
    if (text.trim().startsWith('|')) {
      const row = cells(text);
      const isHeader = /^\|[\s:|-]+\|$/.test(lines[k + 1]?.text.trim() ?? '');
      if (isHeader) defaultColumn = row.findIndex((c) => /^default$/i.test(c));
      else if (defaultColumn > 0 && !/^[\s:|-]+$/.test(text.replace(/\|/g, ''))) {
        const field = /^`([a-z_][a-z0-9_]*)`$/.exec(row[0])?.[1];
        if (field && row[defaultColumn] !== undefined) out.push({ line, field, stated: strip(row[defaultColumn]), text });
      }
      continue;
    }
    defaultColumn = -1;
    for (const sentence of sentences(text)) out.push(...fromSentence(sentence, line, fields));
  }
  return out;
}

/** Canonical form for comparing a stated value with a recorded one: 1,024 = 1024, 0.0 = 0, off = False. */
export function canonicalValue(value: string | number | boolean | null): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  const v = value.trim();
  if (/^(off|false)$/i.test(v)) return 'False';
  if (/^(on|true)$/i.test(v)) return 'True';
  if (/^none$/i.test(v)) return 'None';
  const n = Number(v.replace(/,/g, ''));
  if (v !== '' && /^-?[\d,.]+(e-?\d+)?$/.test(v) && Number.isFinite(n)) return String(n);
  return v;
}
