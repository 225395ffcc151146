import type { ResultText } from '@/lib/exercises/check';

/** A check's outcome in words: the summary, and for a failing case its inputs, the expected and the received value. */
export function ExerciseResult({ text }: { text: ResultText }) {
  return (
    <>
      <p className="exercise-summary">{text.summary}</p>
      {text.inputs ? (
        <dl className="exercise-case">
          <dt>Inputs</dt>
          <dd>
            {text.inputs.map((line) => (
              <code key={line}>{line}</code>
            ))}
          </dd>
          <dt>Expected</dt>
          <dd>
            <code>{text.expected}</code>
          </dd>
          <dt>Received</dt>
          <dd>
            <code>{text.received}</code>
          </dd>
        </dl>
      ) : null}
      {text.hint ? <p className="exercise-mistake">{text.hint}</p> : null}
    </>
  );
}
