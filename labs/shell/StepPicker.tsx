'use client';

import { useState } from 'react';

/** Choose which of the kept training steps an inspector shows; the newest by default. */
export function StepPicker({ id, steps, value, onChange }: { id: string; steps: number[]; value: number; onChange(step: number): void }) {
  return (
    <>
      <label htmlFor={id}>Step</label>
      <select id={id} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {steps.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </>
  );
}

/** The kept step an inspector shows: the one the reader picked, or else the newest (undefined before the first). */
export function useChosenSample<T extends { step: number }>(samples: T[]): { entry: T | undefined; choose(step: number): void } {
  const [chosen, setChosen] = useState<number | null>(null);
  return { entry: samples.find((s) => s.step === chosen) ?? samples.at(-1), choose: setChosen };
}
