'use client';

import { useMemo, useState, type FormEvent } from 'react';
import { labNamed, labPresets, labs } from '@/content/labs';
import { downloadText } from '@/labs/shell/download';
import { Markdown } from '@/labs/shell/Markdown';
import { SettingsForm } from '@/labs/shell/SettingsForm';
import type { Settings } from '@/labs/shell/settings';
import { ASSIGNMENT_LIMITS, assignmentLink, createAssignment, exercisesLink, type AssignmentFile } from '@/lib/teach/assignment';
import { exercises } from '@/content/exercises';
import { GOAL_METRICS, GOAL_OPS, parseGoal, type GoalOp } from '@/lib/teach/goal';
import { ownEntry, presetSettings } from '@/lib/train/config';
import { trainerSettings } from '@/lib/train/registry';

/**
 * The instructor's form: a lab, a preset, settings (some locked), a goal, an evaluation seed, a due date, instructions,
 * and code exercises to hand in too.
 */
export function AssignmentBuilder() {
  const [slug, setSlug] = useState<string>(labs[0].slug);
  const lab = labNamed(slug)!;
  const trainer = lab.trainer;
  const { schema, presets } = trainerSettings(trainer);
  const offered = labPresets(lab, presets);
  const [preset, setPreset] = useState(offered[0]);
  const [settings, setSettings] = useState<Settings>(() => presetSettings(schema, ownEntry(presets, offered[0])));
  const [locked, setLocked] = useState<Set<string>>(new Set());
  const [title, setTitle] = useState('');
  const [metric, setMetric] = useState(GOAL_METRICS[trainer][0]);
  const [op, setOp] = useState<GoalOp>('>=');
  const [threshold, setThreshold] = useState('0.45');
  const [evalSeed, setEvalSeed] = useState(() => String(Math.floor(Math.random() * 1_000_000)));
  const [due, setDue] = useState('');
  const [instructions, setInstructions] = useState('');
  const [chosenExercises, setChosenExercises] = useState<string[]>([]);
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
    setMetric(GOAL_METRICS[t][0]);
    setMade(null);
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
        due: due || null,
        instructions,
        // In the catalogue's order, whatever order they were ticked in.
        exercises: exercises.map((e) => e.id as string).filter((id) => chosenExercises.includes(id)),
      });
      setMade(file);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const link = made ? `${window.location.origin}${assignmentLink(made)}` : '';
  const handIn = made ? exercisesLink(made, window.location.origin) : null;
  const toggleExercise = (id: string) => setChosenExercises((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id]));
  return (
    <>
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
          <SettingsForm key={slug} schema={schema} fields={fields} settings={settings} onChange={(key, value) => setSettings((s) => ({ ...s, [key]: value }))} />
        </fieldset>

        <fieldset className="teach-locks">
          <legend>Locked settings (students cannot change them)</legend>
          <p className="setting-help">Lock what defines the task (the seed, the steps, the dataset or map) so every student is measured alike.</p>
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
              {GOAL_METRICS[trainer].map((m) => (
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
            Due <input type="datetime-local" value={due} onChange={(e) => setDue(e.target.value)} />
          </label>
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
          <p className="setting-help">Keep the assignment file: grading needs it, and it holds your evaluation seed.</p>
        </section>
      ) : null}
    </>
  );
}
