'use client';

import { useEffect } from 'react';
import { wakeIslands } from '../islands/Island';
import { useProgress } from '@/ui/useProgress';

/** A quiz is an island that wakes when the reader comes to it, or at once if it holds a stored answer to show. */
export function QuizWake({ id }: { id: string }) {
  const { value: saved } = useProgress((s) => s.quizzes[id]);
  useEffect(() => {
    if (saved) wakeIslands('Quiz');
  }, [saved]);
  return null;
}
