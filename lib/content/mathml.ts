/**
 * Formulas ship as MathML only (KaTeX output 'mathml'): browsers render it natively and screen readers read it, at a
 * fifth of the bytes of KaTeX's HTML+MathML. MathML Core, which Chromium implements, honours no `mathvariant` but
 * "normal", so \mathbb{E} would show as a plain E: letters in other variants become their Unicode mathematical
 * alphanumerics (𝔼, ℝ, 𝒟), which every browser and screen reader knows.
 */
import katex from 'katex';
import { visit } from 'unist-util-visit';

/** First code point of each variant's A–Z, a–z run in the Mathematical Alphanumeric Symbols block. */
const LETTERS: Record<string, number> = {
  bold: 0x1d400,
  italic: 0x1d434,
  'bold-italic': 0x1d468,
  script: 0x1d49c,
  'bold-script': 0x1d4d0,
  fraktur: 0x1d504,
  'double-struck': 0x1d538,
  'bold-fraktur': 0x1d56c,
  'sans-serif': 0x1d5a0,
  'bold-sans-serif': 0x1d5d4,
  'sans-serif-italic': 0x1d608,
  'sans-serif-bold-italic': 0x1d63c,
  monospace: 0x1d670,
};
const DIGITS: Record<string, number> = { bold: 0x1d7ce, 'double-struck': 0x1d7d8, 'sans-serif': 0x1d7e2, 'bold-sans-serif': 0x1d7ec, monospace: 0x1d7f6 };

/** Letters that were already in Letterlike Symbols: the block leaves a hole where each would be. */
const HOLES: Record<string, Record<string, string>> = {
  italic: { h: 'ℎ' },
  script: { B: 'ℬ', E: 'ℰ', F: 'ℱ', H: 'ℋ', I: 'ℐ', L: 'ℒ', M: 'ℳ', R: 'ℛ', e: 'ℯ', g: 'ℊ', o: 'ℴ' },
  fraktur: { C: 'ℭ', H: 'ℌ', I: 'ℑ', R: 'ℜ', Z: 'ℨ' },
  'double-struck': { C: 'ℂ', H: 'ℍ', N: 'ℕ', P: 'ℙ', Q: 'ℚ', R: 'ℝ', Z: 'ℤ' },
};

/** `text` in `variant` as Unicode, or null when the variant or a character has no mathematical form. */
export function toMathAlphanumerics(text: string, variant: string): string | null {
  const letters = LETTERS[variant];
  if (letters === undefined) return null;
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const hole = HOLES[variant]?.[ch];
    if (hole) out += hole;
    else if (ch >= 'A' && ch <= 'Z') out += String.fromCodePoint(letters + code - 65);
    else if (ch >= 'a' && ch <= 'z') out += String.fromCodePoint(letters + 26 + code - 97);
    else if (ch >= '0' && ch <= '9' && DIGITS[variant] !== undefined) out += String.fromCodePoint(DIGITS[variant] + code - 48);
    else return null;
  }
  return out;
}

interface Element {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: Element[];
}

const isUprightLetter = (node: Element) =>
  node.tagName === 'mi' && node.properties?.mathvariant === 'normal' && node.children?.length === 1 && node.children[0].type === 'text';

/**
 * Rehype plugin, after rehype-katex (output 'mathml'):
 * - letters in a styled variant become Unicode mathematical alphanumerics (see above);
 * - \mathrm{clip}, which KaTeX writes as one upright <mi> per letter, becomes one <mi>clip</mi> (a multi-letter <mi>
 *   is upright): a quarter of the bytes, and a screen reader says the word rather than spelling it;
 * - a display formula gets the .katex-display wrapper KaTeX's HTML output had; it scrolls sideways when the formula is
 *   wider than the screen, so it is focusable, as a scrollable region must be (axe's scrollable-region-focusable).
 */
export function rehypeMathml() {
  return (tree: Element) => {
    visit(tree as never, 'element', (node: Element, index: number | undefined, parent: Element | undefined) => {
      if (node.tagName === 'mi' || node.tagName === 'mn') {
        const variant = node.properties?.mathvariant;
        if (typeof variant !== 'string' || variant === 'normal') return;
        const text = node.children?.length === 1 && node.children[0].type === 'text' ? node.children[0].value! : null;
        const converted = text === null ? null : toMathAlphanumerics(text, variant);
        if (converted === null) return;
        node.children = [{ type: 'text', value: converted }];
        delete node.properties!.mathvariant;
      } else if (node.tagName === 'mrow' && node.children!.length > 1 && node.children!.every(isUprightLetter)) {
        const word = node.children!.map((c) => c.children![0].value).join('');
        Object.assign(node, { tagName: 'mi', properties: {}, children: [{ type: 'text', value: word }] });
      } else if (node.tagName === 'span' && parent && index !== undefined && isDisplayFormula(node)) {
        parent.children![index] = { type: 'element', tagName: 'span', properties: { className: ['katex-display'], tabIndex: 0 }, children: [node] };
      }
    });
  };
}

function isDisplayFormula(node: Element): boolean {
  const classes = node.properties?.className;
  const math = node.children?.[0];
  return Array.isArray(classes) && classes.includes('katex') && math?.tagName === 'math' && math.properties?.display === 'block';
}

/** rehypeMathml's first two rewrites on a rendered MathML string (quiz texts are rendered outside the MDX pipeline). */
export function fixMathVariants(html: string): string {
  return html
    .replace(/<mrow>((?:<mi mathvariant="normal">[^<]<\/mi>){2,})<\/mrow>/g, (_, run: string) => `<mi>${run.replace(/<[^>]+>/g, '')}</mi>`)
    .replace(/<(mi|mn) mathvariant="([a-z-]+)">([^<]*)<\/\1>/g, (whole, tag: string, variant: string, text: string) => {
      if (variant === 'normal') return whole;
      const converted = toMathAlphanumerics(text, variant);
      if (converted === null) return whole;
      return `<${tag}>${converted}</${tag}>`;
    });
}

/** One formula as MathML, as the chapters ship it: for text rendered outside the MDX pipeline (quizzes, reference pages). */
export function renderMathml(tex: string): string {
  return fixMathVariants(katex.renderToString(tex, { output: 'mathml', throwOnError: true }));
}

/** Escaped text whose `$…$` spans become MathML. */
export function renderInlineMath(text: string): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .split(/(\$[^$]+\$)/g)
    .map((part) => (part.startsWith('$') && part.endsWith('$') && part.length > 2 ? renderMathml(part.slice(1, -1)) : escape(part)))
    .join('');
}
