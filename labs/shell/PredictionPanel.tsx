'use client';

/**
 * Predict, run, explain. Before a run of a preset whose claim has a prediction (lib/claims: Claim.prediction), the
 * lab asks it, optionally: Train never waits for an answer. The answer is fixed when the run starts; once the run
 * finishes, the claim's own verdict (the function `npm run claims` checks it with) reads this run's log, and the box
 * says what the run measured, whether the claim held on this seed, on which seeds it is established, and why.
 * Under an assignment that asks a prediction (`assigned`, a claim id) that question is asked whatever the preset, and
 * the picks fixed at the run's start go to `onCommit`, which is what the hand-in records: a pick made later is the
 * next run's.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Claim, Prediction, PredictionVerdict } from '@/lib/claims/types';
import { predictionOutcome, predictionsFor, seedWords, type PredictionOutcome } from '@/lib/claims/predict';
import { ownEntry, presetSettings, type PresetTable, type Schema } from '@/lib/train/config';
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import { errorMessage } from '@/lib/errors';
import type { Settings } from '@/ui/settings';
import { progressActions } from '@/ui/useProgress';
import type { LogLine, RunState } from '@/lib/train/run';

type Asked = Claim & { prediction: Prediction };

/** Settings a claim's verdict does not depend on: the seed (a verdict is per seed) and the run's length and evaluations (it reads the steps it names). */
const FREE = new Set(['seed', 'max_steps', 'eval_steps']);

/** Whether the run trained its preset as shipped, the seed, length and evaluation interval aside. */
export function asShipped(schema: Schema, presets: PresetTable, preset: string, settings: Settings): boolean {
  const shipped = presetSettings(schema, ownEntry(presets, preset));
  return Object.entries(shipped).every(([key, value]) => FREE.has(key) || value === settings[key] || (typeof value === 'number' && Number(settings[key]) === value));
}

const OUTCOME_WORDS: Record<PredictionOutcome, string> = {
  matched: 'You predicted what this run showed.',
  missed: 'This run showed what the claim says, not what you predicted.',
  unsettled: 'The claim did not hold on this run, so the run cannot settle your prediction.',
};

/**
 * Whether the run went from `before` to `now` by starting afresh, the moment picks are fixed for it: running after
 * idle, a finished or failed run, or a log that started again. A paused run resumed keeps the prediction it started with.
 */
export function startsFreshRun(before: { state: RunState; length: number }, now: { state: RunState; length: number }): boolean {
  return now.state === 'running' && (before.state === 'idle' || before.state === 'done' || before.state === 'failed' || now.length < before.length);
}

export interface PredictionRun {
  /** The run's preset as it started, its settings, state and log. */
  preset: string;
  settings: Settings;
  state: RunState;
  history: LogLine[];
}

interface PanelProps {
  trainer: TrainerName;
  lab: string;
  formPreset: string;
  run: PredictionRun;
  schema: Schema;
  presets: PresetTable;
  /** The claim an assignment asks about, if it asks one. */
  assigned?: string;
  /** The picks fixed when a fresh run started, by claim id (empty when none was made). */
  onCommit?(picks: Record<string, string>): void;
}

export function PredictionPanel({ trainer, lab, formPreset, run, schema, presets, assigned, onCommit }: PanelProps) {
  const [claims, setClaims] = useState<readonly Claim[] | null>(null);
  useEffect(() => {
    let live = true;
    void TRAINERS[trainer].claims().then((loaded) => live && setClaims(loaded));
    return () => {
      live = false;
    };
  }, [trainer]);

  // The picks for the next run, by claim id; fixed into `committed` when a fresh run starts.
  const [picks, setPicks] = useState<Record<string, string>>({});
  const [committed, setCommitted] = useState<{ preset: string; picks: Record<string, string> } | null>(null);
  const previous = useRef<{ state: RunState; length: number }>({ state: run.state, length: run.history.length });
  useEffect(() => {
    const before = previous.current;
    previous.current = { state: run.state, length: run.history.length };
    if (!startsFreshRun(before, previous.current)) return;
    setCommitted({ preset: run.preset, picks });
    onCommit?.(picks);
    setPicks({});
  }, [run.state, run.history.length, run.preset, picks, onCommit]);

  if (!claims) return null;
  const assignedClaim = assigned === undefined ? undefined : claims.find((c): c is Asked => c.id === assigned && Boolean(c.prediction));
  const forPreset = predictionsFor(claims, formPreset);
  const asked = assignedClaim && !forPreset.includes(assignedClaim) ? [assignedClaim, ...forPreset] : forPreset;
  const graded = committed && committed.preset === run.preset ? predictionsFor(claims, run.preset) : [];
  const live = run.state === 'running' || run.state === 'paused';
  if (asked.length === 0 && graded.length === 0) return null;

  return (
    <div className="lab-predict">
      {graded.map((claim) =>
        run.state === 'done' ? (
          <VerdictBox key={claim.id} claim={claim} lab={lab} run={run} pick={committed!.picks[claim.id]} shipped={asShipped(schema, presets, run.preset, run.settings)} />
        ) : live && committed!.picks[claim.id] ? (
          <p key={claim.id} className="lab-predict-note">
            {`Your prediction for this run: ${claim.prediction.question} ${labelOf(claim.prediction, committed!.picks[claim.id])}. The verdict comes when it finishes.`}
          </p>
        ) : null,
      )}
      {live
        ? null
        : asked.map((claim) => (
            <Question key={claim.id} claim={claim} pick={picks[claim.id]} byAssignment={claim === assignedClaim} onPick={(choice) => setPicks((p) => ({ ...p, [claim.id]: choice }))} />
          ))}
    </div>
  );
}

const labelOf = (prediction: Prediction, id: string) => prediction.choices.find((c) => c.id === id)?.label ?? id;

function Question({ claim, pick, byAssignment, onPick }: { claim: Asked; pick: string | undefined; byAssignment: boolean; onPick(choice: string): void }) {
  const name = useId();
  const { prediction } = claim;
  return (
    <fieldset className="lab-predict-question">
      <legend>Predict first (optional)</legend>
      <p id={`${name}-q`}>{prediction.question}…</p>
      <div role="radiogroup" aria-labelledby={`${name}-q`}>
        {prediction.choices.map((choice) => (
          <label key={choice.id}>
            <input type="radio" name={name} value={choice.id} checked={pick === choice.id} onChange={() => onPick(choice.id)} /> {choice.label}
          </label>
        ))}
      </div>
      {byAssignment ? (
        <p className="lab-predict-note lab-predict-assigned">
          Your assignment asks for this prediction. It stays optional and Train does not wait, but your hand-in records whether you made it before the run started: one made later counts as not made. Your instructor sees whether you made it, never whether it was right.
        </p>
      ) : null}
      <p className="lab-predict-note">Train does not wait for an answer; after the run the lab grades this claim on it.</p>
    </fieldset>
  );
}

export function VerdictBox({ claim, lab, run, pick, shipped }: { claim: Asked; lab: string; run: PredictionRun; pick: string | undefined; shipped: boolean }) {
  const { prediction } = claim;
  let verdict: PredictionVerdict | null = null;
  let unmeasured = '';
  try {
    verdict = prediction.verdict(run.history);
  } catch (error) {
    unmeasured = errorMessage(error);
  }
  const outcome = verdict && pick ? predictionOutcome(prediction, pick, verdict.held) : null;

  // Each finished run with a prediction counts once on the learning path.
  const recorded = useRef<LogLine[] | null>(null);
  useEffect(() => {
    if (!pick || recorded.current === run.history) return;
    recorded.current = run.history;
    // A run that could not be measured grades nothing: the prediction counts as made, the run settles nothing.
    progressActions().recordPrediction(lab, claim.id, pick, outcome ?? 'unsettled');
  }, [pick, outcome, run.history, lab, claim.id]);

  const seed = String(run.settings.seed);
  const { section } = prediction;
  return (
    <section className="lab-section lab-verdict" aria-label="Your prediction and what this run measured">
      <h3>Prediction and verdict</h3>
      <p>
        {prediction.question}… <br />
        {pick ? (
          <>
            Your prediction: <strong>{labelOf(prediction, pick)}</strong>.
          </>
        ) : (
          'You made no prediction before this run.'
        )}{' '}
        The claim: <strong>{labelOf(prediction, prediction.claimed)}</strong>.
      </p>
      {verdict ? (
        <>
          <p>This run measured: {verdict.measured}.</p>
          <p>
            <strong>{verdict.held ? `The claim held on this run (seed ${seed}).` : `The claim did not hold on this run (seed ${seed}).`}</strong>{' '}
            {`It is established on ${seedWords(prediction.seeds)} of the preset as shipped (npm run claims); one seed can differ.`}
            {shipped ? '' : ' This run’s settings differ from the preset’s, so it tests another setting than the claim.'}
          </p>
        </>
      ) : (
        <p>Not measured: {unmeasured}. Train the preset through step {prediction.steps} to read the claim on your own run.</p>
      )}
      {outcome ? <p>{OUTCOME_WORDS[outcome]}</p> : null}
      <p>
        Why: {prediction.why} <a href={`/chapters/${section.chapter}/#${section.anchor}`}>Read “{section.heading}”</a>.
      </p>
    </section>
  );
}
