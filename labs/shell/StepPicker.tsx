'use client';

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
