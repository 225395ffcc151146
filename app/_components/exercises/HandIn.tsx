'use client';

/**
 * The exercise part of an assignment, handed in: the link's assignment (checked against its hash), an editor per
 * exercise it lists, opening on the code that passed in the chapter on this device, and a button that saves the
 * submission file. The file holds code only; the instructor's grader runs it again on fresh cases.
 */
import { useCallback, useEffect, useState } from 'react';
import { exerciseNamed } from '@/content/exercises';
import { LINK_KEY, readAssignmentFragment, type SharedAssignment } from '@/lib/teach/assignment';
import { buildExerciseSubmission, exerciseSubmissionFileName } from '@/lib/teach/exercise-submission';
import { MAX_STUDENT_LENGTH } from '@/lib/teach/submission';
import { duration, formatDue } from '@/lib/teach/due';
import { errorMessage } from '@/lib/errors';
import { downloadText } from '@/ui/download';
import { Markdown } from '@/ui/Markdown';
import { ExerciseClient } from './ExerciseClient';
import { ExercisePassed } from './ExercisePassed';

type View = { kind: 'none' } | { kind: 'reading' } | { kind: 'error'; message: string } | { kind: 'ready'; assignment: SharedAssignment };

export function HandIn() {
  const [view, setView] = useState<View>({ kind: 'reading' });
  const [sources, setSources] = useState<Record<string, string>>({});
  const [student, setStudent] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  // The link's assignment, read again if the reader pastes another link into the address bar (a hash change).
  useEffect(() => {
    let latest = 0;
    const read = () => {
      const mine = ++latest;
      const settle = (next: View) => mine === latest && setView(next);
      if (!new URLSearchParams(window.location.hash.slice(1)).has(LINK_KEY)) return settle({ kind: 'none' });
      readAssignmentFragment(window.location.hash).then(
        (assignment) => {
          if (!assignment) settle({ kind: 'none' });
          else if (!assignment.exercises?.length) settle({ kind: 'error', message: 'This assignment lists no code exercises: hand it in from its lab.' });
          else settle({ kind: 'ready', assignment });
        },
        (error: unknown) => settle({ kind: 'error', message: `This link’s assignment cannot be used (${errorMessage(error)}). Ask your instructor for the link again.` }),
      );
    };
    read();
    window.addEventListener('hashchange', read);
    return () => {
      latest = -1;
      window.removeEventListener('hashchange', read);
    };
  }, []);
  const hear = useCallback((id: string) => (code: string) => setSources((all) => (all[id] === code ? all : { ...all, [id]: code })), []);
  const [listeners] = useState(() => new Map<string, (code: string) => void>());
  const listenerFor = (id: string) => {
    if (!listeners.has(id)) listeners.set(id, hear(id));
    return listeners.get(id)!;
  };

  if (view.kind === 'none') return <p className="lede">To hand in exercises for a course assignment, open the link your instructor gave you.</p>;
  if (view.kind === 'reading') return <p role="status">Reading the assignment…</p>;
  if (view.kind === 'error') {
    return (
      <p className="lab-error" role="alert">
        {view.message}
      </p>
    );
  }
  const { assignment } = view;
  const save = async () => {
    setProblem(null);
    setSaved(null);
    try {
      const submission = await buildExerciseSubmission({ student, assignment, sources });
      const name = exerciseSubmissionFileName(submission);
      downloadText(JSON.stringify(submission), name, 'application/json');
      setSaved(`Saved ${name}: hand this file in to your instructor.`);
    } catch (error) {
      setProblem(`Could not make the submission: ${errorMessage(error)}.`);
    }
  };
  return (
    <section className="assignment-banner hand-in" aria-labelledby="hand-in-title">
      <h2 id="hand-in-title">Assignment: {assignment.title}</h2>
      <dl className="assignment-facts">
        <dt>Exercises</dt>
        <dd>{assignment.exercises!.map((id) => exerciseNamed(id)?.title ?? id).join('; ')}</dd>
        <dt>Due</dt>
        <dd>{assignment.due ? `${formatDue(assignment.due)}; your clock: ${new Date(assignment.due).toLocaleString()}` : 'no due date'}</dd>
      </dl>
      {assignment.due && Date.now() > Date.parse(assignment.due) ? (
        <p className="lab-error" role="alert">
          The due date passed {duration(Date.now() - Date.parse(assignment.due))} ago: your instructor may count a file made now as late.
        </p>
      ) : null}
      {assignment.instructions ? <Markdown source={assignment.instructions} className="assignment-instructions" /> : null}
      <p className="setting-help">
        Each editor opens on the code that passed in the chapter on this device, or on the starter. Check it here if you
        like; your instructor’s grader runs it again on cases of its own, which you do not see: passing here is no promise of passing there.
      </p>
      {assignment.exercises!.map((id) => {
        const exercise = exerciseNamed(id);
        if (!exercise) return null;
        return (
          <section key={id} className="exercise" data-exercise={id} aria-labelledby={`hand-in-${id}`}>
            <p className="exercise-label">
              Exercise <ExercisePassed id={id} />
            </p>
            <h3 id={`hand-in-${id}`}>{exercise.title}</h3>
            <p>
              <a href={`/chapters/${exercise.chapter}/#exercise-${id}`}>Read it in its chapter</a>
            </p>
            <ExerciseClient id={id} onCode={listenerFor(id)} />
          </section>
        );
      })}
      <div className="assignment-submit">
        <label>
          Your name or student id <input type="text" value={student} maxLength={MAX_STUDENT_LENGTH} onChange={(e) => setStudent(e.target.value)} />
        </label>
        <button type="button" className="lab-primary" onClick={() => void save()}>
          Save my submission
        </button>
      </div>
      {problem ? (
        <p className="lab-error" role="alert">
          {problem}
        </p>
      ) : null}
      {saved ? <p role="status">{saved}</p> : null}
    </section>
  );
}
