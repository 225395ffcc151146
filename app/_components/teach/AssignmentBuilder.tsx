'use client';

import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { labNamed, labPresets, labs } from '@/content/labs';
import { downloadText } from '@/ui/download';
import { Markdown } from '@/ui/Markdown';
import { SettingsForm } from '@/ui/SettingsForm';
import type { Settings } from '@/ui/settings';
import { ASSIGNMENT_LIMITS, assignmentLink, assignmentSettings, createAssignment, exercisesLink, MAX_ASSIGNMENT_FILE_BYTES, parseAssignmentFile, type AssignmentFile } from '@/lib/teach/assignment';
import { dueFromLocal, dueToLocal, formatDue, zoneName } from '@/lib/teach/due';
import { errorMessage } from '@/lib/errors';
import { exercises } from '@/content/exercises';
import { GOAL_OPS, goalMetrics, parseGoal, type GoalOp } from '@/lib/teach/goal';
import { ownEntry, presetSettings } from '@/lib/train/config';
import { trainerSettings } from '@/lib/spec/registry';
import { PredictionOption, usePresetPrediction } from './PredictionOption';

/** UTC-12:00 to UTC+14:00 in quarter hours: every offset in use. */
const OFFSETS = Array.from({ length: (840 + 720) / 15 + 1 }, (_, i) => -720 + 15 * i);
/** The lab the form opens on: the GRPO lab, whose SFT start (27.5% held-out) sits below the default goal of 0.45. */
const FIRST_LAB = labNamed('grpo') ? 'grpo' : labs[0].slug;

/**
 * The instructor's form: a lab, a preset, settings (some locked), a goal, an evaluation seed, a due date with its time
 * zone, instructions, code exercises to hand in too, and the preset's prediction where it has one. It makes nothing while a field shows an error, and it opens
 * an existing assignment file to edit and reissue it.
 */
export function AssignmentBuilder() {
  const [slug, setSlug] = useState<string>(FIRST_LAB);
  const lab = labNamed(slug)!;
  const trainer = lab.trainer;
  const { schema, presets } = trainerSettings(trainer);
  const offered = labPresets(lab, presets);
  const [preset, setPreset] = useState(offered[0]);
  const [settings, setSettings] = useState<Settings>(() => presetSettings(schema, ownEntry(presets, offered[0])));
  const [locked, setLocked] = useState<Set<string>>(new Set());
  const [title, setTitle] = useState('');
  const [metric, setMetric] = useState(goalMetrics(trainer)[0]);
  const [op, setOp] = useState<GoalOp>('>=');
  const [threshold, setThreshold] = useState('0.45');
  const [evalSeed, setEvalSeed] = useState(() => String(Math.floor(Math.random() * 1_000_000)));
  const [due, setDue] = useState('');
  // The browser's offset is known only after mount (the page is prerendered); until the instructor picks one, it follows the due date's own (summer time).
  const [dueOffset, setDueOffset] = useState(0);
  const offsetChosen = useRef(false);
  useEffect(() => {
    if (!offsetChosen.current) setDueOffset(-new Date().getTimezoneOffset());
  }, []);
  // Typed values a field refused: the form keeps the last good one, so it must not make an assignment meanwhile.
  const [fieldProblems, setFieldProblems] = useState<Record<string, string>>({});
  const problemFields = Object.entries(fieldProblems).filter(([, problem]) => problem);
  const [formKey, setFormKey] = useState(0);
  const [exerciseSeed, setExerciseSeed] = useState<number | undefined>(undefined);
  const [opened, setOpened] = useState<string | null>(null);
  const [instructions, setInstructions] = useState('');
  const [chosenExercises, setChosenExercises] = useState<string[]>([]);
  const [askPrediction, setAskPrediction] = useState(false);
  const presetAsks = usePresetPrediction(trainer, preset);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<AssignmentFile | null>(null);
  const fields = useMemo(() => Object.keys(schema), [schema]);

  const chooseLab = (next: string) => {
    const nextLab = labNamed(next)!;
    const t = nextLab.trainer;
    const s = trainerSettings(t);
    const first = labPresets(nextLab, s.presets)[0];
    setSlug(next);
    setPreset(first);
    setSettings(presetSettings(s.schema, ownEntry(s.presets, first)));
    setLocked(new Set());
    setMetric(goalMetrics(t)[0]);
    setFieldProblems({});
    setMade(null);
  };

  /** An existing assignment file, back in the form: edit it and make it again (a reissue: a new id and link). */
  const openFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setMade(null);
    try {
      if (file.size > MAX_ASSIGNMENT_FILE_BYTES) throw new Error('it is too large to be an assignment');
      const a = await parseAssignmentFile(await file.text());
      setSlug(a.lab);
      setPreset(a.preset);
      setSettings(assignmentSettings(a)); // a field the file predates at what its runs had: the reissue runs the same
      setLocked(new Set(a.locked));
      setTitle(a.title);
      setMetric(a.goal.metric);
      setOp(a.goal.op);
      setThreshold(String(a.goal.value));
      setEvalSeed(String(a.grading.eval_seed));
      const local = a.due ? dueToLocal(a.due) : null;
      setDue(local?.local ?? '');
      if (local) {
        offsetChosen.current = true;
        setDueOffset(local.minutes);
      }
      setInstructions(a.instructions);
      setChosenExercises(a.exercises ?? []);
      setAskPrediction(a.prediction !== undefined);
      setExerciseSeed(a.grading.exercise_seed);
      setFieldProblems({});
      setFormKey((k) => k + 1);
      setOpened(`Opened ${a.title} (id ${a.id}, version ${a.version}). Making it again gives a new id and a new link: send students the new one; files made for the old one grade with the old file.`);
    } catch (e) {
      setOpened(null);
      setError(`Could not open ${file.name}: ${errorMessage(e)}.`);
    }
  };
  const choosePreset = (name: string) => {
    setPreset(name);
    setSettings(presetSettings(schema, ownEntry(presets, name)));
  };
  const toggleLock = (key: string) =>
    setLocked((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  const make = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setMade(null);
    try {
      if (problemFields.length > 0) throw new Error(`fix ${problemFields.map(([key]) => key).join(', ')} first: ${problemFields[0][1]}`);
      if (!/^\d+$/.test(evalSeed)) throw new Error('the evaluation seed must be a whole number');
      const file = await createAssignment({
        lab: slug,
        trainer,
        title,
        preset,
        overrides: settings,
        locked: fields.filter((k) => locked.has(k)),
        goal: parseGoal(`${metric} ${op} ${threshold}`, trainer),
        evalSeed: Number(evalSeed),
        due: due ? dueFromLocal(due, dueOffset) : null,
        instructions,
        // In the catalogue's order, whatever order they were ticked in.
        exercises: exercises.map((e) => e.id as string).filter((id) => chosenExercises.includes(id)),
        exerciseSeed,
        // A box ticked for an earlier preset is not carried to one that asks nothing.
        askPrediction: askPrediction && presetAsks !== null,
      });
      setMade(file);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const link = made ? `${window.location.origin}${assignmentLink(made)}` : '';
  const handIn = made ? exercisesLink(made, window.location.origin) : null;
  const toggleExercise = (id: string) => setChosenExercises((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id]));
  let duePreview = '';
  try {
    duePreview = due ? `Stored as ${formatDue(dueFromLocal(due, dueOffset))}: students and the grader see this zone.` : '';
  } catch (e) {
    duePreview = errorMessage(e);
  }
  return (
    <>
      <p>
        <label className="lab-file">
          Open an assignment file to edit or reissue{' '}
          <input type="file" accept="application/json,.json" onChange={(e) => void openFile(e.target.files?.[0]).finally(() => (e.target.value = ''))} />
        </label>
      </p>
      {opened ? <p className="lab-notice">{opened}</p> : null}
      <form className="teach-form" onSubmit={(e) => void make(e)}>
        <fieldset>
          <legend>The lab</legend>
          <label>
            Lab{' '}
            <select value={slug} onChange={(e) => chooseLab(e.target.value)}>
              {labs.map((lab) => (
                <option key={lab.slug} value={lab.slug}>
                  {lab.title}
                </option>
              ))}
            </select>
          </label>
          <label>
            Preset{' '}
            <select value={preset} onChange={(e) => choosePreset(e.target.value)}>
              {offered.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <p className="setting-help">{ownEntry(presets, preset)?.description}</p>
          <label>
            Title <input type="text" value={title} maxLength={ASSIGNMENT_LIMITS.title} onChange={(e) => setTitle(e.target.value)} />
          </label>
        </fieldset>

        <fieldset>
          <legend>Settings students start from</legend>
          <SettingsForm
            key={`${slug}-${formKey}`}
            schema={schema}
            fields={fields}
            settings={settings}
            onChange={(key, value) => setSettings((s) => ({ ...s, [key]: value }))}
            onProblem={(key, problem) => setFieldProblems((p) => ({ ...p, [key]: problem }))}
          />
        </fieldset>

        <fieldset className="teach-locks">
          <legend>Locked settings (students cannot change them)</legend>
          <p className="setting-help">Lock what defines the task (the steps, the dataset or map) so every student is measured alike.</p>
          <p className="setting-help" aria-live="polite">
            {locked.has('seed')
              ? 'Seed locked: the whole class trains on one seed, so honest students hand in identical weights and the grader cannot tell a copy from them.'
              : 'Seed not locked: each student trains on a seed of their own, derived from the assignment and their student id (the lab fills it in). Identical weights from two students then mean a copy.'}
          </p>
          {fields.map((key) => (
            <label key={key}>
              <input type="checkbox" checked={locked.has(key)} onChange={() => toggleLock(key)} /> lock <code>{key}</code>
            </label>
          ))}
        </fieldset>

        <fieldset>
          <legend>Goal and grading</legend>
          <label>
            Goal metric{' '}
            <select value={metric} onChange={(e) => setMetric(e.target.value)}>
              {goalMetrics(trainer).map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <label>
            Comparison{' '}
            <select value={op} onChange={(e) => setOp(e.target.value as GoalOp)}>
              {GOAL_OPS.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </label>
          <label>
            Threshold <input type="text" inputMode="decimal" value={threshold} onChange={(e) => setThreshold(e.target.value)} />
          </label>
          <label>
            Evaluation seed <input type="text" inputMode="numeric" value={evalSeed} onChange={(e) => setEvalSeed(e.target.value)} />
          </label>
          <p className="setting-help">
            Submissions are measured on held-out problems drawn with this seed. It stays in your assignment file and never appears in the students’ link.
          </p>
          <label>
            Due{' '}
            <input
              type="datetime-local"
              value={due}
              onChange={(e) => {
                setDue(e.target.value);
                const at = new Date(e.target.value); // the form's local time: its offset, summer time included
                if (!offsetChosen.current && !Number.isNaN(at.getTime())) setDueOffset(-at.getTimezoneOffset());
              }}
            />
          </label>
          <label>
            Time zone{' '}
            <select
              value={dueOffset}
              onChange={(e) => {
                offsetChosen.current = true;
                setDueOffset(Number(e.target.value));
              }}
            >
              {OFFSETS.map((m) => (
                <option key={m} value={m}>
                  {zoneName(m)}
                </option>
              ))}
            </select>
          </label>
          {duePreview ? <p className="setting-help">{duePreview}</p> : null}
        </fieldset>

        <fieldset className="teach-locks">
          <legend>Code exercises to hand in too (optional)</legend>
          <p className="setting-help">
            Students write each one in plain JavaScript and hand in a file of their code from a second link; the grader runs it again on fresh random cases.
          </p>
          {exercises.map((e) => (
            <label key={e.id}>
              <input type="checkbox" checked={chosenExercises.includes(e.id)} onChange={() => toggleExercise(e.id)} /> {e.title} <code>{e.id}</code>
            </label>
          ))}
        </fieldset>

        <PredictionOption asked={presetAsks} preset={preset} checked={askPrediction} onChange={setAskPrediction} />

        <fieldset>
          <legend>Instructions (Markdown: paragraphs, lists, **bold**, *italic*, `code`, links)</legend>
          <textarea aria-label="Instructions" rows={6} maxLength={ASSIGNMENT_LIMITS.instructions} value={instructions} onChange={(e) => setInstructions(e.target.value)} />
          {instructions ? (
            <div className="teach-preview" aria-label="Instructions preview">
              <Markdown source={instructions} />
            </div>
          ) : null}
        </fieldset>

        <button type="submit" className="lab-primary">
          Make the assignment
        </button>
        {problemFields.length > 0 ? <p className="setting-help">Nothing is made while {problemFields.map(([key]) => key).join(', ')} shows an error.</p> : null}
        {error ? (
          <p className="lab-error" role="alert">
            {error}
          </p>
        ) : null}
      </form>

      {made ? (
        <section className="teach-output" aria-label="Your assignment">
          <h2>Your assignment</h2>
          <label>
            Students’ link <input type="text" readOnly value={link} onFocus={(e) => e.target.select()} />
          </label>
          <p>
            <button type="button" onClick={() => void navigator.clipboard?.writeText(link)}>
              Copy the link
            </button>{' '}
            <a href={link} target="_blank" rel="noopener">
              Open it as a student
            </a>{' '}
            <button type="button" onClick={() => downloadText(JSON.stringify(made, null, 1), `assignment-${made.id}.json`, 'application/json')}>
              Download the assignment file
            </button>
          </p>
          {handIn ? (
            <>
              <label>
                Students’ link for the exercises <input type="text" readOnly value={handIn} onFocus={(e) => e.target.select()} />
              </label>
              <p>
                <button type="button" onClick={() => void navigator.clipboard?.writeText(handIn)}>
                  Copy the exercises link
                </button>{' '}
                <a href={handIn} target="_blank" rel="noopener">
                  Open the exercises as a student
                </a>
              </p>
            </>
          ) : null}
          <p>
            {made.due ? `Due ${formatDue(made.due)}. ` : 'No due date. '}
            {made.seeding === 'per_student' ? 'Each student trains on their own seed (from their student id): ask them to type the id your roster uses.' : `The class shares seed ${String(made.settings.seed)}.`}
            {made.prediction !== undefined ? ' Students are asked to predict before their run; the grader shows whether each made it.' : ''}
          </p>
          <p className="setting-help">Keep the assignment file: grading needs it, and it holds your evaluation seed and the seed of the exercise cases.</p>
        </section>
      ) : null}
    </>
  );
}
