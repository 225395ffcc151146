import { exerciseNamed, signatureOf } from '@/content/exercises';
import './exercises.css';
import { renderStatement } from '@/lib/exercises/statement';
import { Island } from '../islands/Island';
import { ExercisePassed } from './ExercisePassed';

/**
 * <Exercise id="gae" />: the statement, rendered at build time with its math; the editor and its Check button as an
 * island; a hint and a worked solution the reader opens. The id was checked when the chapter compiled.
 */
export function Exercise({ id }: { id: string }) {
  const exercise = exerciseNamed(id)!;
  const title = `exercise-${id}-title`;
  return (
    <section className="exercise" id={`exercise-${id}`} data-exercise={id} aria-labelledby={title}>
      <p className="exercise-label">
        Exercise <ExercisePassed id={id} />
      </p>
      <h3 id={title}>{exercise.title}</h3>
      <div className="exercise-statement" dangerouslySetInnerHTML={{ __html: renderStatement(exercise.statement) }} />
      <p className="exercise-signature">
        Write <code>{signatureOf(exercise)}</code> in plain JavaScript. Check runs it on random cases, in a sandbox
        that cannot reach this page, against the course&apos;s own training code.
      </p>
      <Island name="Exercise" props={{ id }} />
      <details className="exercise-hint">
        <summary>Hint</summary>
        <p>{exercise.hint}</p>
      </details>
      <details className="exercise-solution">
        <summary>Show a worked solution</summary>
        {/* Focusable: a long line scrolls, and a keyboard must reach it (axe's scrollable-region-focusable). */}
        <pre tabIndex={0}>
          <code>{exercise.solution}</code>
        </pre>
      </details>
    </section>
  );
}
