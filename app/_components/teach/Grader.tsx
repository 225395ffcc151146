'use client';

import { useEffect, useRef, useState, type DragEvent } from 'react';
import { MAX_ASSIGNMENT_FILE_BYTES, parseAssignmentFile, type AssignmentFile } from '@/lib/teach/assignment';
import { csvHeader, gradeNumber, gradeRowCells, gradesCsv } from '@/lib/teach/csv';
import { flagSharedWeights, invalidRow, type GradeRow } from '@/lib/teach/grade';
import { formatGoal } from '@/lib/teach/goal';
import { MAX_SUBMISSION_BYTES } from '@/lib/teach/submission';
import { isExerciseSubmissionText } from '@/lib/teach/exercise-submission';
import { errorMessage } from '@/lib/errors';
import { downloadText } from '@/labs/shell/download';
import { createWorkerRpc, type WorkerRpc } from '../worker-rpc';
import type { FromGrader, ToGrader } from './grade-protocol';

interface Entry {
  id: number;
  name: string;
  row: GradeRow | null;
}

/**
 * The grader: the instructor's assignment file, then any number of submission files. Each is checked by size before
 * it is read, then validated and evaluated in a worker; the table shows every string from a file as text. An exercise
 * submission's code runs here instead, in the browser sandbox (an opaque-origin iframe with a time limit), on cases
 * of a fresh seed, one file at a time.
 */
export function Grader() {
  const [assignment, setAssignment] = useState<AssignmentFile | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [dragging, setDragging] = useState(false);
  const grader = useRef<WorkerRpc<Omit<ToGrader, 'id'>, FromGrader> | null>(null);
  const nextId = useRef(0);
  const checker = useRef<import('../exercises/page-checker').PageChecker | null>(null);
  const exerciseQueue = useRef<Promise<unknown>>(Promise.resolve());

  useEffect(
    () => () => {
      grader.current?.stop(new Error('the grader was closed'));
      checker.current?.dispose();
    },
    [],
  );

  /** Runs an exercise submission's code again (lib/teach/exercise-submission.ts); files wait their turn for the sandbox. */
  const gradeExercises = (name: string, text: string, a: AssignmentFile) => {
    const next = exerciseQueue.current.then(async () => {
      const [{ createPageChecker }, { gradeExerciseSubmission }, { exerciseNamed }] = await Promise.all([
        import('../exercises/page-checker'),
        import('@/lib/teach/exercise-submission'),
        import('@/content/exercises'),
      ]);
      checker.current ??= createPageChecker();
      const box = checker.current;
      return gradeExerciseSubmission({ name, text }, a, (id, source) => box.check(exerciseNamed(id)!, source));
    });
    exerciseQueue.current = next.catch(() => undefined);
    return next;
  };

  /**
   * Grades in the worker. A worker that crashes rejects its pending files with the reason (a failure of the tool, not
   * of the submission: the caller reports it and grades nothing), and the next file starts a new one.
   */
  const grade = (request: Omit<ToGrader, 'id'>) => {
    grader.current ??= createWorkerRpc(() => new Worker(new URL('./grade.worker.ts', import.meta.url), { type: 'module' }), { name: 'the grading worker' });
    return grader.current.call(request).then(({ row }) => row);
  };

  const loadAssignment = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    try {
      if (file.size > MAX_ASSIGNMENT_FILE_BYTES) throw new Error('it is too large to be an assignment');
      setAssignment(await parseAssignmentFile(await file.text()));
      setEntries([]);
    } catch (error) {
      setAssignment(null);
      setProblem(`Could not read ${file.name}: ${errorMessage(error)}.`);
    }
  };

  const addSubmissions = async (files: File[]) => {
    if (!assignment) return;
    for (const file of files) {
      const id = nextId.current++;
      if (file.size > MAX_SUBMISSION_BYTES) {
        const reason = `the file is ${(file.size / 1e6).toFixed(1)} MB; a submission is at most ${MAX_SUBMISSION_BYTES / 1e6} MB`;
        setEntries((all) => [...all, { id, name: file.name, row: invalidRow(file.name, reason) }]);
        continue;
      }
      setEntries((all) => [...all, { id, name: file.name, row: null }]);
      const text = await file.text();
      const graded = isExerciseSubmissionText(text) ? gradeExercises(file.name, text, assignment) : grade({ type: 'grade', name: file.name, text, assignment });
      void graded.then(
        (row) => setEntries((all) => all.map((e) => (e.id === id ? { ...e, row } : e))),
        (error: unknown) => {
          setEntries((all) => all.filter((e) => e.id !== id)); // not a grade: the CSV must not call the file invalid
          setProblem(`Could not grade ${file.name}: ${errorMessage(error)}. Drop it again.`);
        },
      );
    }
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void addSubmissions([...event.dataTransfer.files]);
  };

  const done = entries.filter((e) => e.row !== null);
  const rows = flagSharedWeights(done.map((e) => e.row!));
  const rowOf = new Map(done.map((e, i) => [e.id, rows[i]]));
  const exerciseIds = assignment?.exercises ?? [];
  const header = csvHeader(exerciseIds);
  const exportCsv = () => downloadText(gradesCsv(rows, exerciseIds), `grades-${assignment?.id ?? 'assignment'}.csv`, 'text/csv');

  return (
    <div className="grader">
      <section className="lab-section">
        <h2>1. The assignment file</h2>
        <label className="lab-file">
          Assignment file <input type="file" accept="application/json,.json" onChange={(e) => void loadAssignment(e.target.files?.[0]).finally(() => (e.target.value = ''))} />
        </label>
        {problem ? (
          <p className="lab-error" role="alert">
            {problem}
          </p>
        ) : null}
        {assignment ? (
          <p className="lab-notice">
            <strong>{assignment.title}</strong> ({assignment.lab} lab, id {assignment.id}): goal <code>{formatGoal(assignment.goal)}</code> on{' '}
            {assignment.grading.eval_samples} held-out {assignment.trainer === 'ppo' ? 'episodes' : 'problems'} (seed {assignment.grading.eval_seed})
            {assignment.due ? `, due ${new Date(assignment.due).toLocaleString()}` : ''}.
            {exerciseIds.length > 0 ? ` Code exercises: ${exerciseIds.join(', ')} (drop their exercise submission files here too).` : ''}
          </p>
        ) : null}
      </section>

      <section className="lab-section">
        <h2>2. The submissions</h2>
        <div
          className={`grader-drop${dragging ? ' grader-drop-active' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          <label className="lab-file">
            Submission files{' '}
            <input type="file" multiple accept="application/json,.json" disabled={!assignment} onChange={(e) => void addSubmissions([...(e.target.files ?? [])]).finally(() => (e.target.value = ''))} />
          </label>
          <p className="setting-help">{assignment ? 'Or drop a folder’s worth of files here. Each is checked and re-evaluated in your browser; nothing is uploaded.' : 'Load the assignment file first.'}</p>
        </div>
        <p role="status" className="lab-status">
          {entries.length === 0 ? 'No submissions yet.' : `Graded ${done.length} of ${entries.length}${done.length < entries.length ? '…' : '.'}`}
        </p>
        <div className="lab-runs-actions">
          <button type="button" onClick={exportCsv} disabled={rows.length === 0}>
            Export CSV
          </button>
          <button type="button" onClick={() => setEntries([])} disabled={entries.length === 0}>
            Clear
          </button>
        </div>
      </section>

      {entries.length > 0 ? (
        // Focusable, as a region that scrolls must be (a wide table on a phone).
        <div className="grade-scroll" tabIndex={0} role="region" aria-label="Grades, scrollable">
          <table className="grade-table" aria-label="Grades">
            <thead>
              <tr>
                {header.map((name) => (
                  <th scope="col" key={name}>
                    {name.replace('_', ' ')}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => {
                const row = rowOf.get(entry.id);
                // The CSV's cells, as text (React escapes every string from a file); a row still grading shows so.
                const cells = row
                  ? gradeRowCells(row, exerciseIds).map((c) => (typeof c === 'number' || c === null ? gradeNumber(c) : c))
                  : header.map((column) => (column === 'file' ? entry.name : column === 'status' ? 'grading…' : ''));
                return (
                  <tr key={entry.id} className={row ? `grade-${row.status}` : undefined}>
                    {cells.map((cell, i) => (
                      <td key={header[i]}>{cell}</td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
