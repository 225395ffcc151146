import fs from 'node:fs';
import path from 'node:path';
import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { course } from '@/content/course';
import { notation } from '@/content/notation';
import { chapterFiles } from '@/lib/content/chapters';

const slugs = new Set(course.map((c) => c.slug));
const render = (tex: string) => katex.renderToString(tex, { throwOnError: true });
/** The separate symbols of an entry: "y_w,\ y_l" is two. */
const symbolsOf = (symbol: string) => symbol.split(/,\\\s*/).map((s) => s.replace(/\s+/g, ''));

describe('the notation table (content/notation.ts)', () => {
  it('has unique anchors, real chapters, and symbols and meanings KaTeX renders', () => {
    const ids = notation.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const n of notation) {
      expect(n.id, n.symbol).toMatch(/^[a-z0-9-]+$/);
      expect(slugs.has(n.chapter), `${n.id}: chapter ${n.chapter}`).toBe(true);
      for (const s of n.scope ?? []) expect(slugs.has(s), `${n.id}: scope ${s}`).toBe(true);
      expect(() => render(n.symbol), n.id).not.toThrow();
      const math = [...n.meaning.matchAll(/\$([^$]+)\$/g)].map((m) => m[1]);
      for (const m of math) expect(() => render(m), `${n.id}: ${m}`).not.toThrow();
      expect((n.meaning.match(/\$/g) ?? []).length % 2, `${n.id}: unbalanced $`).toBe(0);
    }
  });

  it('gives each course-wide symbol one meaning, and each chapter-local letter one meaning per chapter', () => {
    const owner = new Map<string, string>();
    for (const n of notation) {
      for (const s of symbolsOf(n.symbol)) {
        for (const where of n.scope ?? ['*']) {
          const key = `${where}:${s}`;
          expect(owner.get(key), `${s} is listed twice (${owner.get(key)} and ${n.id})`).toBeUndefined();
          owner.set(key, n.id);
        }
      }
    }
  });

  it('names the ratio, the prompt and the completion as the course does', () => {
    const byId = new Map(notation.map((n) => [n.id, n]));
    expect(byId.get('x')?.symbol).toBe('x');
    expect(byId.get('y')?.symbol).toBe('y');
    expect(byId.get('rho')?.symbol).toBe('\\rho_t(\\theta)');
    expect(byId.get('z')?.trl).toBe('delta_score');
    expect(byId.get('nu')?.trl).toBe('label_smoothing');
  });
});

/**
 * The spellings the papers use and the course does not. Each rule names what to write instead. Only math is
 * checked ($…$ and $$…$$, including quiz attributes), so prose can still quote a paper's symbols in words.
 */
const FORBIDDEN: { re: RegExp; use: string; only?: string }[] = [
  { re: /\\epsilon(?![a-z])/, use: '\\varepsilon for the clip range' },
  { re: /\\mid q\b|\(q,|(?<![a-zA-Z\\])[rVb]\(q\)/, use: 'x for the prompt, not q' },
  { re: /(?<![a-zA-Z\\])o_\{i|(?<![a-zA-Z\\])o_i\b|\(q, o\)/, use: 'y_i for a completion, not o_i' },
  { re: /w_\{i,t\}\(\\theta\)|r_t\(\\theta\)|r_\{i,t\}\(\\theta\)/, use: '\\rho_t(\\theta) or \\rho_{i,t}(\\theta) for the importance ratio' },
  { re: /\\rho_0/, use: 'P_0 for the initial-state distribution (\\rho is the ratio)' },
  { re: /(?<![a-zA-Z\\])h_[wl]\b/, use: '\\Delta_w, \\Delta_l for the DPO log-ratios (h_t is the history)' },
  { re: /(?<![a-zA-Z\\])x - \\log x/, use: 'u - \\log u for the k3 estimator (x is the prompt)' },
  { re: /\\varepsilon/, use: '\\nu for label smoothing (\\varepsilon is the clip range)', only: 'dpo' },
];

describe('chapters use the course notation', () => {
  const files = [...chapterFiles()];

  it('avoid the papers’ other spellings in math', () => {
    const problems: string[] = [];
    for (const [slug, { file }] of files) {
      const source = fs.readFileSync(path.join(process.cwd(), file), 'utf8');
      for (const m of source.matchAll(/\$\$[\s\S]*?\$\$|\$[^$\n]+\$/g)) {
        const line = source.slice(0, m.index).split('\n').length;
        for (const rule of FORBIDDEN) {
          if (rule.only && rule.only !== slug) continue;
          if (rule.re.test(m[0])) problems.push(`${file}:${line}: ${m[0].slice(0, 60)} — use ${rule.use}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('would catch a chapter that slips back to q/o and w', () => {
    const slipped = '$w_{i,t}(\\theta) = \\pi_\\theta(o_{i,t} \\mid q, o_{i,\\lt t})$';
    expect(FORBIDDEN.filter((r) => !r.only && r.re.test(slipped)).length).toBe(3);
  });
});
