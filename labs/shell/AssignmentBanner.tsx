'use client';

import { useState } from 'react';
import { finalFigure, formatGoal } from '@/lib/teach/goal';
import { duration, formatDue } from '@/lib/teach/due';
import { perStudentSeeds, studentSeed } from '@/lib/teach/seeds';
import { buildSubmission, MAX_STUDENT_LENGTH, MAX_SUBMISSION_BYTES, submissionFileName } from '@/lib/teach/submission';
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import type { LogLine, RunState } from '@/lib/train/run';
import { downloadText } from '@/ui/download';
import { Markdown } from '@/ui/Markdown';
import type { Settings } from '@/ui/settings';
import type { AssignmentView } from './useAssignment';
import type { RunWeights } from './useLabWorker';
import type { SubmittedPrediction } from '@/lib/teach/prediction';

interface Props {
  view: AssignmentView;
  trainer: TrainerName;
  /** The current run: its state, backend, settings and history. */
  run: { state: RunState; backend: string | null; settings: Settings; history: LogLine[] };
  requestWeights(): Promise<RunWeights>;
  /** The student id typed here: under per-student seeds the lab trains on the seed it gives (LabShell sets it). */
  student: string;
  onStudentChange(student: string): void;
  /** Under an assignment that asks a prediction: the one fixed when this run started (choice null: none made). */
  prediction?: SubmittedPrediction;
}

/** An assignment's title, goal, due date and instructions above the lab, and Submit once the run has finished. */
export function AssignmentBanner({ view, trainer, run, requestWeights, student, onStudentChange: setStudent, prediction }: Props) {
  const [result, setResult] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  if (view.error) return <p className="lab-error" role="alert">{view.error}</p>;
  const assignment = view.assignment;
  if (!assignment) return null;

  const ownSeeds = perStudentSeeds(assignment);
  const ownSeed = ownSeeds && student.trim() ? studentSeed(assignment.id, student) : null;
  const blocker =
    ownSeeds && student.trim() === ''
      ? 'Type your student id first: your seed comes from it.'
      : run.state !== 'done'
        ? 'Train until the run finishes, then submit it.'
        : run.settings.eval_steps === 0
          ? 'Set eval_steps above 0 and train again: a submission carries its run’s final evaluation.'
          : student.trim() === ''
            ? 'Type your name or student id first.'
            : ownSeed !== null && run.settings.seed !== ownSeed
              ? `This run trained on seed ${String(run.settings.seed)}, not your seed ${ownSeed}: train again.`
              : null;
  const dueAt = assignment.due ? Date.parse(assignment.due) : null;
  const overdue = dueAt !== null && Date.now() > dueAt ? Date.now() - dueAt : null;
  const { field, unit } = TRAINERS[trainer].grading.evalSize;
  const figure = run.state === 'done' ? finalFigure(run.history, trainer, assignment.goal.metric, Number(run.settings[field])) : null;

  const submit = async () => {
    setBusy(true);
    setResult(null);
    try {
      const { bytes, tfjs } = await requestWeights();
      const submission = await buildSubmission({
        student,
        assignment,
        trainer,
        config: run.settings,
        history: run.history,
        weights: bytes,
        environment: { backend: run.backend ?? 'unknown', tfjs, runtime: navigator.userAgent.slice(0, 400) },
        prediction,
      });
      const text = JSON.stringify(submission);
      if (text.length > MAX_SUBMISSION_BYTES) throw new Error(`the submission would be ${(text.length / 1e6).toFixed(1)} MB, over the ${MAX_SUBMISSION_BYTES / 1e6} MB a grader reads; train fewer steps`);
      const name = submissionFileName(submission);
      downloadText(text, name, 'application/json');
      setResult({ text: `Downloaded ${name} (${(text.length / 1024).toFixed(0)} KB): hand this file in.`, error: false });
    } catch (error) {
      setResult({ text: `Could not submit: ${(error as Error).message}.`, error: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="assignment-banner" aria-label="Assignment">
      <h2>Assignment: {assignment.title}</h2>
      <dl className="assignment-facts">
        <dt>Goal</dt>
        <dd>
          <code>{formatGoal(assignment.goal)}</code>, measured by your instructor on held-out problems you do not see
        </dd>
        <dt>Due</dt>
        <dd>{assignment.due ? `${formatDue(assignment.due)}; your clock: ${new Date(assignment.due).toLocaleString()}` : 'no due date'}</dd>
        <dt>Locked</dt>
        <dd>{assignment.locked.length ? assignment.locked.join(', ') : 'nothing: every setting is yours to change'}</dd>
        <dt>Seed</dt>
        <dd>{ownSeeds ? (ownSeed === null ? 'your own, from your student id: type it below before you train' : `${ownSeed}, yours (from your student id)`) : `${String(assignment.settings.seed)}, the same for the whole class`}</dd>
        {assignment.prediction !== undefined ? (
          <>
            <dt>Prediction</dt>
            <dd>
              {/* Fixed when the run started (LabShell), so it speaks of this run from then on. */}
              {prediction && (run.state === 'running' || run.state === 'paused' || run.state === 'done')
                ? prediction.choice === null
                  ? 'asked, and not made before this run started: your hand-in records it as not made'
                  : 'made before this run started: your hand-in records it (made, never graded right or wrong)'
                : 'asked below, before you train: optional, but a run started without one is handed in as not made'}
            </dd>
          </>
        ) : null}
      </dl>
      {overdue !== null ? (
        <p className="lab-error" role="alert">
          The due date passed {duration(overdue)} ago: your instructor may count a submission made now as late.
        </p>
      ) : null}
      <Markdown source={assignment.instructions} className="assignment-instructions" />
      {figure ? (
        <p className="lab-notice">
          Your run’s final <code>{assignment.goal.metric}</code>: {figure.value.toFixed(3)}
          {figure.halfWidth !== null ? ` ± ${figure.halfWidth.toFixed(3)} (95% interval)` : ''} on the lab’s {String(run.settings[field])} test {unit}. Your instructor measures it on{' '}
          {unit} of their own that you do not see, so the grade can differ from this figure{figure.halfWidth !== null ? ' by about that much' : ''}.
        </p>
      ) : null}
      <div className="assignment-submit">
        <label>
          {ownSeeds ? 'Your student id (as on your class roster)' : 'Your name or student id'}{' '}
          <input type="text" value={student} maxLength={MAX_STUDENT_LENGTH} onChange={(e) => setStudent(e.target.value)} />
        </label>{' '}
        <button type="button" className="lab-primary" onClick={() => void submit()} disabled={blocker !== null || busy}>
          Submit
        </button>{' '}
        {blocker ? <span className="setting-help">{blocker}</span> : null}
      </div>
      {result ? (
        <p role="status" className={result.error ? 'lab-error' : 'lab-notice'}>
          {result.text}
        </p>
      ) : null}
    </section>
  );
}
