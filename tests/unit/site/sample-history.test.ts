/** The inspectors' bounded history (labs/shell/sampleHistory.ts): the run's first steps stay inspectable. */
import { describe, expect, it } from 'vitest';
import { keepSample, MAX_SAMPLES } from '@/labs/shell/sampleHistory';

describe('keepSample', () => {
  it('keeps every step while there are few, then the first and latest ten and a thinned middle, in order', () => {
    let kept: { step: number }[] = [];
    for (let step = 1; step <= 500; step++) {
      kept = keepSample(kept, { step });
      expect(kept.length).toBeLessThanOrEqual(MAX_SAMPLES);
      if (step <= MAX_SAMPLES) expect(kept.map((k) => k.step)).toEqual(Array.from({ length: step }, (_, i) => i + 1));
    }
    const steps = kept.map((k) => k.step);
    expect(steps.slice(0, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(steps.slice(-10)).toEqual(Array.from({ length: 10 }, (_, i) => 491 + i));
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
    // The middle still spans the run: some step in every hundred.
    for (const hundred of [100, 200, 300, 400]) expect(steps.some((s) => s > hundred - 100 && s <= hundred)).toBe(true);
  });
});
