'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { progressActions, useProgress } from '@/ui/useProgress';

interface Props {
  id: string;
  questionHtml: string;
  choicesHtml: string[];
  answer: number;
  explanationHtml: string;
}

/** Pick a choice, check it; the answer is remembered on this device and shown again on return. */
export function QuizClient({ id, questionHtml, choicesHtml, answer, explanationHtml }: Props) {
  const { value: saved } = useProgress((s) => s.quizzes[id]);
  const [picked, setPicked] = useState<number | null>(null);
  const name = useId();
  const form = useRef<HTMLFormElement>(null);
  // A quiz's code loads when the reader comes to it (islands/Island.tsx): keep a choice ticked before it arrived.
  useEffect(() => {
    const ticked = form.current?.querySelector<HTMLInputElement>('input[type=radio]:checked');
    if (ticked) setPicked(Number(ticked.value));
  }, []);
  const selected = picked ?? saved?.choice ?? null;
  const checked = saved !== undefined && saved.choice === selected;
  // Correctness comes from the chapter's answer, never from the stored flag: a hand-edited store gains nothing.
  const correct = checked && selected === answer;

  const check = () => {
    if (selected === null) return;
    progressActions().answerQuiz(id, selected, selected === answer);
    setPicked(null);
  };

  return (
    <form
      ref={form}
      className="quiz"
      data-quiz-id={id}
      onSubmit={(event) => {
        event.preventDefault();
        check();
      }}
    >
      <fieldset>
        <legend>
          <span className="quiz-label">Check yourself</span>
          <span dangerouslySetInnerHTML={{ __html: questionHtml }} />
        </legend>
        {choicesHtml.map((html, index) => {
          const state = checked && index === selected ? (index === answer ? 'right' : 'wrong') : '';
          return (
            <label key={index} className={`quiz-choice ${state}`}>
              <input type="radio" name={name} value={index} checked={selected === index} onChange={() => setPicked(index)} />
              <span dangerouslySetInnerHTML={{ __html: html }} />
            </label>
          );
        })}
      </fieldset>
      <button type="submit" disabled={selected === null || checked}>
        Check answer
      </button>
      <div aria-live="polite">
        {checked ? (
          <div className={`quiz-feedback ${correct ? 'right' : 'wrong'}`}>
            <strong>{correct ? 'Correct.' : 'Not quite.'}</strong>{' '}
            {correct ? <span dangerouslySetInnerHTML={{ __html: explanationHtml }} /> : 'Think again and pick another answer.'}
          </div>
        ) : null}
      </div>
    </form>
  );
}
