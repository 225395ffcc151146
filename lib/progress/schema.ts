import { z } from 'zod';

/**
 * What the site remembers about a reader, on their device only. Stored values are untrusted
 * (hand-edited, from an older version, truncated): anything that fails this schema is discarded.
 */
export const PROGRESS_VERSION = 1;

export const chapterProgressSchema = z.object({
  openedAt: z.number().int().nonnegative().optional(),
  completedAt: z.number().int().nonnegative().optional(),
});

export const quizAnswerSchema = z.object({
  choice: z.number().int().min(0).max(20),
  correct: z.boolean(),
  at: z.number().int().nonnegative(),
});

export const progressDataSchema = z.object({
  chapters: z.record(z.string().regex(/^[a-z0-9-]+$/), chapterProgressSchema),
  quizzes: z.record(z.string().regex(/^ch\d{2}-[a-z0-9-]+$/), quizAnswerSchema),
  lastVisited: z.object({ slug: z.string().regex(/^[a-z0-9-]+$/), at: z.number().int().nonnegative() }).optional(),
});

export type ProgressData = z.infer<typeof progressDataSchema>;
export type QuizAnswer = z.infer<typeof quizAnswerSchema>;

export const emptyProgress = (): ProgressData => ({ chapters: {}, quizzes: {} });

/** Keep a stored value only if it is exactly our current shape; otherwise start afresh. */
export function parseStoredProgress(value: unknown, version: number): ProgressData {
  if (version !== PROGRESS_VERSION) return emptyProgress();
  const parsed = progressDataSchema.safeParse(value);
  return parsed.success ? parsed.data : emptyProgress();
}
