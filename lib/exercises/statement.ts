/**
 * An exercise's statement as HTML, rendered at build time (the <Exercise> server component): paragraphs, lists of
 * "- " lines, `code` and $math$ (MathML, as the chapters ship it). The text is the course's own (content/
 * exercises.ts), and everything outside code and math is escaped anyway.
 */
import { renderInlineMath } from '@/lib/content/mathml';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One line: `code` spans verbatim, $math$ as MathML, the rest escaped. */
export function renderInline(text: string): string {
  return text
    .split(/(`[^`]+`)/g)
    .map((part) => (part.length > 2 && part.startsWith('`') && part.endsWith('`') ? `<code>${escape(part.slice(1, -1))}</code>` : renderInlineMath(part)))
    .join('');
}

export function renderStatement(paragraphs: readonly string[]): string {
  return paragraphs
    .map((p) => {
      const lines = p.split('\n');
      if (lines.every((l) => l.startsWith('- '))) return `<ul>${lines.map((l) => `<li>${renderInline(l.slice(2))}</li>`).join('')}</ul>`;
      return `<p>${renderInline(p)}</p>`;
    })
    .join('');
}
