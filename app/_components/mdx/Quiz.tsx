import katex from 'katex';
import { fixMathVariants } from '@/lib/content/mathml';
import type { QuizProps } from '@/lib/content/components';
import { Island } from '../islands/Island';
import { QuizWake } from './QuizWake';

/** Escape text and render `$...$` spans as MathML with KaTeX, at build time (as in chapters), so quiz strings can hold math. */
function renderInline(text: string): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .split(/(\$[^$]+\$)/g)
    .map((part) => (part.startsWith('$') && part.endsWith('$') && part.length > 2 ? fixMathVariants(katex.renderToString(part.slice(1, -1), { output: 'mathml', throwOnError: true })) : escape(part)))
    .join('');
}

/** A checked multiple-choice question. Props were validated when the chapter compiled. */
export function Quiz({ id, question, choices, answer, explanation }: QuizProps) {
  return (
    <>
      <Island
        name="Quiz"
        props={{ id, questionHtml: renderInline(question), choicesHtml: choices.map(renderInline), answer, explanationHtml: renderInline(explanation) }}
      />
      <QuizWake id={id} />
    </>
  );
}
