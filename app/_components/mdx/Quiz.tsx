import { renderInlineMath } from '@/lib/content/mathml';
import type { QuizProps } from '@/lib/content/components';
import { Island } from '../islands/Island';
import { QuizWake } from './QuizWake';

/** A checked multiple-choice question. Props were validated when the chapter compiled. */
export function Quiz({ id, question, choices, answer, explanation }: QuizProps) {
  return (
    <>
      <Island
        name="Quiz"
        props={{ id, questionHtml: renderInlineMath(question), choicesHtml: choices.map(renderInlineMath), answer, explanationHtml: renderInlineMath(explanation) }}
      />
      <QuizWake id={id} />
    </>
  );
}
