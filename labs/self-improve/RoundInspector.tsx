'use client';

import { useId } from 'react';
import { useChosenSample } from '../shell/StepPicker';
import type { StepSample } from '../shell/useLabWorker';
import { ScrollBox } from '../shell/ScrollBox';

/** One decimal, as chapter 10 quotes these accuracies (9.5% after round 0): a whole percent would say 10%. */
export const percent = (v: number) => `${(v * 100).toFixed(1)}%`;

/** What round 0 was: trained in this run, or loaded (the default: the same SFT, done ahead of time). */
export function roundZeroWords({ roundZero, demonstrationDigits }: StepSample<'self_improve'>['data']): string {
  const sft = `${roundZero.steps.toLocaleString('en-US')} steps of SFT on the human-written demonstrations (up to ${demonstrationDigits} digits)`;
  return roundZero.loaded ? `was loaded, not trained in this run: ${sft}, done ahead of time and shipped with the lab (init_from sft; "base" trains it here).` : `fine-tuned from an untrained model: ${sft}.`;
}

/**
 * After each round: a heat map of held-out accuracy (rounds down, difficulties across), and the round's samples, each
 * marked kept or not, and right or wrong, so the wrong answers a filter let through (what a verifier would have
 * rejected) stand out.
 */
export function RoundInspector({ samples }: { samples: StepSample<'self_improve'>[] }) {
  const id = useId();
  const { entry, choose } = useChosenSample(samples);
  if (!entry) return <p className="inspector-empty">Train for a round to see accuracy by difficulty and the kept samples.</p>;
  const round = entry.data;
  const digits = Array.from({ length: round.targetDigits }, (_, i) => i + 1);
  const kept = round.samples.filter((s) => s.kept);
  const wrongKept = kept.filter((s) => !s.correct).length;
  return (
    <div className="inspector">
      <div className="inspector-pickers">
        {/* Picked by round, as the trainer numbers them: the run's step n is round n − 1. */}
        <label htmlFor={`${id}-round`}>Round</label>
        <select id={`${id}-round`} value={entry.step} onChange={(e) => choose(Number(e.target.value))}>
          {samples.map((s) => (
            <option key={s.step} value={s.step}>
              {s.data.round}
            </option>
          ))}
        </select>
      </div>
      <p className="inspector-summary">
        Round {round.round} {round.round === 0 ? roundZeroWords(round) : `sampled ${round.difficulty}-digit sums and kept them by ${round.filter === 'verifier' ? 'the verifier' : round.filter === 'majority' ? 'majority vote' : 'no filter'}.`}{' '}
        The target is {round.targetDigits} digits, which no demonstration has.
      </p>
      <ScrollBox label="Held-out accuracy by round and difficulty">
        <table className="inspector-table" aria-label="Held-out accuracy by round and difficulty">
          <thead>
            <tr>
              <th scope="col">round</th>
              {digits.map((d) => (
                <th scope="col" key={d}>
                  {d} digit{d === 1 ? '' : 's'}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {round.accuracy.map((row) => (
              <tr key={row.round}>
                <th scope="row">{row.round}</th>
                {row.byDifficulty.map((a, i) => (
                  // The cell's shade is its accuracy; the number is written too, so nothing rests on colour alone.
                  <td key={i} style={{ background: `color-mix(in srgb, var(--heat) ${Math.round(a * 70)}%, transparent)` }}>
                    {percent(a)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      {round.samples.length > 0 && (
        <>
          <p className="inspector-summary">
            First {round.samples.length} samples of this round: {kept.length} kept
            {round.filter === 'verifier' ? '.' : `, ${wrongKept} of them wrong: a verifier would have rejected ${wrongKept === 1 ? 'it' : 'them'}.`}
          </p>
          <ScrollBox label="Samples of the round">
            <table className="inspector-table" aria-label="Samples of the round">
              <thead>
                <tr>
                  <th scope="col">prompt</th>
                  <th scope="col">sampled completion</th>
                  <th scope="col">true answer</th>
                  <th scope="col">kept</th>
                  <th scope="col">verifier</th>
                </tr>
              </thead>
              <tbody>
                {round.samples.map((s, i) => (
                  <tr key={i} className={s.kept && !s.correct ? 'inspector-flagged' : undefined}>
                    <th scope="row" className="tokens">
                      {s.prompt}
                    </th>
                    <td className="tokens">{s.text}</td>
                    <td className="tokens">{s.answer}</td>
                    <td>{s.kept ? 'kept' : '–'}</td>
                    <td>{s.correct ? 'right' : s.kept ? 'wrong: would reject' : 'wrong'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        </>
      )}
      <p className="inspector-legend">
        Precision of the kept samples is what matters: every wrong answer kept becomes a demonstration in the next round.
      </p>
    </div>
  );
}
