'use client';

import { useEffect, useState } from 'react';
import type { TrainerName } from '@/lib/spec/registry';
import { presetPrediction, type AskedClaim } from '@/lib/teach/prediction';

/** The prediction a run of the lab's preset asks: undefined while the trainer's claims load, null when there is none. */
export function usePresetPrediction(trainer: TrainerName, preset: string): AskedClaim | null | undefined {
  const [found, setFound] = useState<{ key: string; claim: AskedClaim | null } | null>(null);
  const key = `${trainer}/${preset}`;
  useEffect(() => {
    let live = true;
    void presetPrediction(trainer, preset).then((claim) => live && setFound({ key, claim }));
    return () => {
      live = false;
    };
  }, [trainer, preset, key]);
  return found?.key === key ? found.claim : undefined;
}

/**
 * Whether the assignment asks students the preset's prediction. Offered only where the lab asks one before a run of
 * this preset; elsewhere it says so, rather than showing a box that could not be honoured.
 */
export function PredictionOption({ asked, preset, checked, onChange }: { asked: AskedClaim | null | undefined; preset: string; checked: boolean; onChange(ask: boolean): void }) {
  return (
    <fieldset className="teach-locks">
      <legend>Prediction (optional)</legend>
      {asked === undefined ? (
        <p className="setting-help">Looking for this preset’s prediction…</p>
      ) : asked === null ? (
        <p className="setting-help">The {preset} preset asks no prediction before a run, so this assignment cannot ask one: choose a preset that does (the lab’s page shows its question before Train).</p>
      ) : (
        <>
          <label>
            <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> Ask students to predict before their run
          </label>
          <p className="setting-help">
            “{asked.prediction.question}…” ({asked.prediction.choices.map((c) => c.label).join(' / ')}). Students may skip it and Train never waits; the grader shows each run’s prediction as made or not
            made before the run started, with the choice, never as right or wrong, and the score does not depend on it.
          </p>
        </>
      )}
    </fieldset>
  );
}
