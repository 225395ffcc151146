/**
 * What the site remembers about a reader, on their device only. Stored values are untrusted
 * (hand-edited, from an older version, truncated): anything that is not exactly this shape is discarded.
 *
 * Validated by hand rather than with zod: even zod/mini would add ~12 KB gzipped to a page that has stored progress
 * to read, for three small records.
 */
import { emptyProgress, PROGRESS_VERSION, type ChapterProgress, type ProgressData, type QuizAnswer } from './data';

const SLUG = /^[a-z0-9-]+$/;
const QUIZ_ID = /^ch\d{2}-[a-z0-9-]+$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const optionalTime = (v: unknown) => v === undefined || isTime(v);
const hasOnly = (v: Record<string, unknown>, keys: string[]) => Object.keys(v).every((k) => keys.includes(k));

function isChapterProgress(v: unknown): v is ChapterProgress {
  return isRecord(v) && hasOnly(v, ['openedAt', 'completedAt']) && optionalTime(v.openedAt) && optionalTime(v.completedAt);
}

function isQuizAnswer(v: unknown): v is QuizAnswer {
  return (
    isRecord(v) &&
    hasOnly(v, ['choice', 'correct', 'at']) &&
    Number.isInteger(v.choice) &&
    (v.choice as number) >= 0 &&
    (v.choice as number) <= 20 &&
    typeof v.correct === 'boolean' &&
    isTime(v.at)
  );
}

/** A record whose every key matches `key` (so never "__proto__") and every value passes `valid`. */
function recordOf<T>(v: unknown, key: RegExp, valid: (x: unknown) => x is T): Record<string, T> | null {
  if (!isRecord(v)) return null;
  const out: Record<string, T> = {};
  for (const [k, x] of Object.entries(v)) {
    if (!key.test(k) || !valid(x)) return null;
    out[k] = x;
  }
  return out;
}

export function parseProgressData(v: unknown): ProgressData | null {
  if (!isRecord(v) || !hasOnly(v, ['chapters', 'quizzes', 'lastVisited'])) return null;
  const chapters = recordOf(v.chapters, SLUG, isChapterProgress);
  const quizzes = recordOf(v.quizzes, QUIZ_ID, isQuizAnswer);
  if (!chapters || !quizzes) return null;
  const last = v.lastVisited;
  if (last === undefined) return { chapters, quizzes };
  if (!isRecord(last) || !hasOnly(last, ['slug', 'at']) || typeof last.slug !== 'string' || !SLUG.test(last.slug) || !isTime(last.at)) return null;
  return { chapters, quizzes, lastVisited: { slug: last.slug, at: last.at } };
}

/** Keep a stored value only if it is exactly our current shape and version; otherwise start afresh. */
export function parseStoredProgress(value: unknown, version: number): ProgressData {
  if (version !== PROGRESS_VERSION) return emptyProgress();
  return parseProgressData(value) ?? emptyProgress();
}
