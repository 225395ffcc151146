'use client';

/**
 * An exercise's editor, its Check button and the result (an island: its code loads when the reader comes to it).
 * The checker, the sandbox and the reference worker load on the first Check. A pass is kept in the reader's progress
 * with the code that passed, which the editor shows again on return.
 */
import { useEffect, useRef, useState } from 'react';
import { exerciseNamed } from '@/content/exercises';
import { CASES, describeResult, type ResultText } from '@/lib/exercises/check';
import { errorMessage } from '@/lib/errors';
import { CodeEditor } from '@/ui/CodeEditor';
import { progressActions, useProgress } from '@/ui/useProgress';
import { ExerciseResult } from './ExerciseResult';
import type { PageChecker } from './page-checker';

type Status = { kind: 'idle' } | { kind: 'checking' } | { kind: 'done'; passed: boolean; text: ResultText } | { kind: 'error'; message: string };

/** `onCode` hears the editor's code (on the hand-in page, which puts it in the submission). */
export function ExerciseClient({ id, onCode }: { id: string; onCode?: (code: string) => void }) {
  const exercise = exerciseNamed(id)!;
  const { value: saved } = useProgress((s) => s.exercises?.[id]);
  const [code, setCode] = useState(exercise.starter);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const edited = useRef(false);
  const checker = useRef<PageChecker | null>(null);

  // The code that passed, once stored progress is read, unless the reader has started typing.
  useEffect(() => {
    if (saved?.source && !edited.current) setCode(saved.source);
  }, [saved?.source]);
  useEffect(() => () => checker.current?.dispose(), []);
  useEffect(() => onCode?.(code), [code, onCode]);

  const check = async () => {
    if (status.kind === 'checking') return;
    setStatus({ kind: 'checking' });
    try {
      const { createPageChecker } = await import('./page-checker');
      checker.current ??= createPageChecker();
      const result = await checker.current.check(exercise, code);
      if (result.passed) progressActions().passExercise(id, code);
      setStatus({ kind: 'done', passed: result.passed, text: describeResult(result, exercise) });
    } catch (error) {
      setStatus({ kind: 'error', message: `Could not check the code (${errorMessage(error)}). Try again.` });
    }
  };

  return (
    <div className="exercise-work">
      <CodeEditor
        label={`Your ${exercise.entry} function`}
        value={code}
        onChange={(text) => {
          edited.current = true;
          setCode(text);
        }}
      />
      <div className="exercise-actions">
        {/* aria-disabled, not disabled: a keyboard user who pressed it keeps focus on it while it runs. */}
        <button type="button" className="lab-primary" aria-disabled={status.kind === 'checking'} onClick={() => void check()}>
          Check
        </button>
        <button
          type="button"
          onClick={() => {
            edited.current = true;
            setCode(exercise.starter);
          }}
        >
          Reset to the starter
        </button>
      </div>
      <div role="status" className={`exercise-status${status.kind === 'done' ? (status.passed ? ' passed' : ' failed') : ''}`}>
        {status.kind === 'checking' ? <p>Checking {CASES} random cases…</p> : null}
        {status.kind === 'done' ? <ExerciseResult text={status.text} /> : null}
        {status.kind === 'error' ? <p>{status.message}</p> : null}
      </div>
    </div>
  );
}
