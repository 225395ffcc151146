'use client';

import { useProgress } from '@/ui/useProgress';

/** "Passed" beside an exercise the reader has passed on this device (from stored progress; the island need not load). */
export function ExercisePassed({ id }: { id: string }) {
  const { value: passed, ready } = useProgress((s) => Boolean(s.exercises?.[id]));
  return ready && passed ? <span className="exercise-badge">Passed</span> : null;
}
