/**
 * What the site remembers about a reader, on their device only: the shape and its version. Checking a stored value
 * against it is schema.ts, which a page loads only when there is a stored value to check.
 */
export const PROGRESS_VERSION = 1;

export interface ChapterProgress {
  openedAt?: number;
  completedAt?: number;
}

export interface QuizAnswer {
  choice: number;
  correct: boolean;
  at: number;
}

export interface ProgressData {
  chapters: Record<string, ChapterProgress>;
  quizzes: Record<string, QuizAnswer>;
  lastVisited?: { slug: string; at: number };
}

export const emptyProgress = (): ProgressData => ({ chapters: {}, quizzes: {} });
