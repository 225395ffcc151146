'use client';

import { useEffect, useRef, useState, type DragEvent } from 'react';
import { MAX_ASSIGNMENT_FILE_BYTES, parseAssignmentFile, type AssignmentFile } from '@/lib/teach/assignment';
import { predictionStatus } from '@/lib/teach/prediction';
import { csvHeader, gradeNumber, gradeRowCells, gradesCsv } from '@/lib/teach/csv';
import { flagSharedWeights, invalidRow, type GradeRow } from '@/lib/teach/grade';
import { formatGoal } from '@/lib/teach/goal';
import { formatDue } from '@/lib/teach/due';
import { buildGradebook, GRADEBOOK_RULE, gradebookCsv, parseReceived, parseRoster, type GradebookFormat, type RosterEntry } from '@/lib/teach/gradebook';
import { clearSavedGrading, loadSavedGrading, saveGrading } from './savedGrades';
import { MAX_SUBMISSION_BYTES } from '@/lib/teach/submission';
import { isExerciseSubmissionText } from '@/lib/teach/exercise-submission';
import { errorMessage } from '@/lib/errors';
import { TRAINERS } from '@/lib/spec/registry';
import { downloadText } from '@/ui/download';
import { createWorkerRpc, type WorkerRpc } from '../worker-rpc';
import type { FromGrader, ToGrader } from './grade-protocol';

interface Entry {
  id: number;
  name: string;
  row: GradeRow | null;
}

/** Upload-time and roster files: a line per file or student. */
const MAX_TABLE_BYTES = 5_000_000;

/**
 * The grader: the instructor's assignment file (and, optionally, upload times and a roster), then any number of
 * submission files. Each is checked by size before it is read, then validated and evaluated in a worker; the table
 * shows every string from a file as text. An exercise submission's code runs here instead, in the browser sandbox (an
 * opaque-origin iframe with a time limit), on the cases of the assignment's exercise seed, one file at a time. What is
 * graded is kept in this browser, so a reload resumes it.
 */
export function Grader() {
  const [assignment, setAssignment] = useState<AssignmentFile | null>(null);
  const [assignmentText, setAssignmentText] = useState('');
  const [received, setReceived] = useState<Record<string, string>>({});
  const [roster, setRoster] = useState<RosterEntry[] | null>(null);
  const [restored, setRestored] = useState<string | null>(null);
  /** Set once the instructor loads an assignment file: a restore that finishes later must not replace it. */
  const chosen = useRef(false);
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

  // A reload resumes the grading kept in this browser.
  useEffect(() => {
    let live = true;
    void loadSavedGrading().then((saved) => {
      if (!live || !saved || saved.rows.length === 0 || chosen.current) return; // a file chosen meanwhile wins
      setAssignment(saved.assignment);
      setAssignmentText(saved.assignmentText);
      setReceived(saved.received);
      setEntries(saved.rows.map((row) => ({ id: nextId.current++, name: row.file, row })));
      setRestored(`Restored ${saved.rows.length} graded file${saved.rows.length === 1 ? '' : 's'} kept in this browser (saved ${saved.savedAt.slice(0, 16).replace('T', ' ')} UTC). Clear to start again.`);
    });
    return () => {
      live = false;
    };
  }, []);

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
      const at = received[name];
      return gradeExerciseSubmission({ name, text, received: at ? new Date(at) : null }, a, (id, source, seed) => box.check(exerciseNamed(id)!, source, seed));
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
      const text = await file.text();
      chosen.current = true;
      setAssignment(await parseAssignmentFile(text));
      setAssignmentText(text);
      setEntries([]);
      setRestored(null);
    } catch (error) {
      setAssignment(null);
      setProblem(`Could not read ${file.name}: ${errorMessage(error)}.`);
    }
  };

  /** An optional CSV the page reads whole: upload times or a roster; a problem is shown and nothing is kept. */
  const loadTable = async <T,>(file: File | undefined, parse: (text: string) => T, keep: (value: T) => void) => {
    if (!file) return;
    setProblem(null);
    try {
      if (file.size > MAX_TABLE_BYTES) throw new Error('it is too large');
      keep(parse(await file.text()));
    } catch (error) {
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
      const graded = isExerciseSubmissionText(text) ? gradeExercises(file.name, text, assignment) : grade({ type: 'grade', name: file.name, text, assignment, received: received[file.name] ?? null });
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
  const rows = flagSharedWeights(done.map((e) => e.row!), assignment ?? undefined);
  const rowOf = new Map(done.map((e, i) => [e.id, rows[i]]));
  const exerciseIds = assignment?.exercises ?? [];
  const asksPrediction = assignment?.prediction !== undefined;
  const header = csvHeader(exerciseIds, asksPrediction);
  const exportCsv = () => downloadText(gradesCsv(rows, exerciseIds, asksPrediction), `grades-${assignment?.id ?? 'assignment'}.csv`, 'text/csv');
  const book = assignment ? buildGradebook(rows, assignment, roster) : [];
  const exportGradebook = (format: GradebookFormat) => assignment && downloadText(gradebookCsv(book, assignment, format), `gradebook-${format}-${assignment.id}.csv`, 'text/csv');
  const counts = (['ok', 'late', 'tampered', 'invalid'] as const).map((status) => `${rows.filter((r) => r.status === status).length} ${status}`).join(', ');
  const groups = new Map<number, string[]>();
  for (const r of rows) if (r.sameWeightsGroup !== undefined) groups.set(r.sameWeightsGroup, [...(groups.get(r.sameWeightsGroup) ?? []), r.student || r.file]);

  // Each graded row is kept, so a reload resumes here (rows only: no weights, no code).
  const doneRows = done.map((e) => e.row!);
  const savedKey = `${assignment?.hash ?? ''}:${doneRows.length}:${doneRows.map((r) => r.file).join('|')}`;
  useEffect(() => {
    if (assignment && assignmentText && doneRows.length > 0) saveGrading(assignmentText, doneRows, received);
  }, [savedKey]); // the key names what changed: the rows themselves are new objects on every render

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
            {assignment.grading.eval_samples} held-out {TRAINERS[assignment.trainer].grading.evalSize.unit} (seed {assignment.grading.eval_seed})
            {assignment.due ? `, due ${formatDue(assignment.due)}` : ''}.
            {assignment.seeding === 'per_student' ? ' Each student trains on their own seed: identical weights from two students mean a copy.' : ' One seed for the class: honest runs can have identical weights.'}
            {exerciseIds.length > 0 ? ` Code exercises: ${exerciseIds.join(', ')} (drop their exercise submission files here too).` : ''}
            {asksPrediction ? ' It asks a prediction before the run: each row says whether it was made before the run started, and the choice, never whether it was right; the score does not depend on it.' : ''}
          </p>
        ) : null}
        {restored ? <p className="lab-notice">{restored}</p> : null}
        <label className="lab-file">
          Upload times (optional: CSV with columns file,received, e.g. from your LMS){' '}
          <input type="file" accept="text/csv,.csv" onChange={(e) => void loadTable(e.target.files?.[0], parseReceived, (times) => setReceived(Object.fromEntries([...times].map(([name, at]) => [name, at.toISOString()])))).finally(() => (e.target.value = ''))} />
        </label>
        <p className="setting-help">
          {Object.keys(received).length > 0
            ? `${Object.keys(received).length} upload times loaded: lateness of files added from now on is judged on them, not on the student’s clock.`
            : 'Without upload times, lateness rests on the time each file reports (the student’s clock), and the grades say so. Load them before the submissions.'}
        </p>
        <label className="lab-file">
          Roster (optional: CSV with columns id,name){' '}
          <input type="file" accept="text/csv,.csv" onChange={(e) => void loadTable(e.target.files?.[0], parseRoster, setRoster).finally(() => (e.target.value = ''))} />
        </label>
        {roster ? <p className="setting-help">{roster.length} students on the roster: the gradebook lists who handed nothing in.</p> : null}
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
        {rows.length > 0 ? (
          <p className="setting-help">
            {counts}.{' '}
            {[...groups].map(([group, names]) => `Same weights, group ${group}: ${names.length} files (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}).`).join(' ')}
          </p>
        ) : null}
        <div className="lab-runs-actions">
          <button type="button" onClick={exportCsv} disabled={rows.length === 0}>
            Export CSV
          </button>
          <button type="button" onClick={() => exportGradebook('moodle')} disabled={rows.length === 0}>
            Export gradebook (Moodle CSV)
          </button>
          <button type="button" onClick={() => exportGradebook('canvas')} disabled={rows.length === 0}>
            Export gradebook (Canvas CSV)
          </button>
          <button
            type="button"
            onClick={() => {
              setEntries([]);
              setRestored(null);
              clearSavedGrading();
            }}
            disabled={entries.length === 0}
          >
            Clear
          </button>
        </div>
        <p className="setting-help">Gradebook: {GRADEBOOK_RULE}.</p>
      </section>

      {entries.length > 0 ? (
        // Focusable, as a region that scrolls must be (a wide table on a phone).
        <div className="grade-scroll" tabIndex={0} role="region" aria-label="Grades, scrollable">
          <table className="grade-table" aria-label="Grades">
            <thead>
              <tr>
                {header.map((name) => (
                  <th scope="col" key={name}>
                    {name.replaceAll('_', ' ')}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => {
                const row = rowOf.get(entry.id);
                // The CSV's cells, as text (React escapes every string from a file); a row still grading shows so.
                const cells = row
                  ? gradeRowCells(row, exerciseIds, asksPrediction).map((c) => (typeof c === 'number' || c === null ? gradeNumber(c) : c))
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

      {book.length > 0 ? (
        <section className="lab-section">
          <h2>3. Per student</h2>
          <p className="setting-help">
            What each student gets back: the measured figure, on how many held-out problems, the goal, and the first exercise case that failed
            {asksPrediction ? ', and whether they made the prediction' : ''}.
          </p>
          <div className="grade-scroll" tabIndex={0} role="region" aria-label="Gradebook, scrollable">
            <table className="grade-table" aria-label="Gradebook">
              <thead>
                <tr>
                  <th scope="col">student</th>
                  <th scope="col">name</th>
                  <th scope="col">score</th>
                  <th scope="col">late</th>
                  {asksPrediction ? <th scope="col">prediction</th> : null}
                  <th scope="col">feedback</th>
                </tr>
              </thead>
              <tbody>
                {book.map((e) => (
                  <tr key={e.id}>
                    <td>{e.id}</td>
                    <td>{e.name}</td>
                    <td>{e.score === null ? 'nothing handed in' : e.score}</td>
                    <td>{e.late ? 'yes' : 'no'}</td>
                    {asksPrediction ? <td>{e.lab?.prediction ? predictionStatus(e.lab.prediction) : ''}</td> : null}
                    <td>{e.feedback}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </div>
  );
}
