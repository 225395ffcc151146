import katex from 'katex';
import type { QuizProps } from '@/lib/content/components';
import { QuizClient } from './QuizClient';

/** Escape text and render `$...$` spans with KaTeX, at build time, so quiz strings can hold math. */
function renderInline(text: string): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .split(/(\$[^$]+\$)/g)
    .map((part) => (part.startsWith('$') && part.endsWith('$') && part.length > 2 ? katex.renderToString(part.slice(1, -1), { throwOnError: true }) : escape(part)))
    .join('');
}

/** A checked multiple-choice question. Props were validated when the chapter compiled. */
export function Quiz({ id, question, choices, answer, explanation }: QuizProps) {
  return (
    <QuizClient
      id={id}
      questionHtml={renderInline(question)}
      choicesHtml={choices.map(renderInline)}
      answer={answer}
      explanationHtml={renderInline(explanation)}
    />
  );
}
