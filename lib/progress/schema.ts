/**
 * What the site remembers about a reader, on their device only. Stored values are untrusted
 * (hand-edited, from an older version, truncated): anything that is not exactly this shape is discarded.
 *
 * Validated by hand rather than with zod: even zod/mini would add ~12 KB gzipped to a page that has stored progress
 * to read, for three small records.
 */
import { PREDICTION_OUTCOMES } from '@/lib/claims/predict';
import { emptyProgress, MAX_KEPT_SOURCE, MAX_LAB_PRESETS, PROGRESS_VERSION, READABLE_PROGRESS_VERSIONS, type ChapterProgress, type ExercisePass, type LabRuns, type PredictionRecord, type ProgressData, type QuizAnswer } from './data';

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

function isExercisePass(v: unknown): v is ExercisePass {
  return isRecord(v) && hasOnly(v, ['passedAt', 'source']) && isTime(v.passedAt) && typeof v.source === 'string' && v.source.length <= MAX_KEPT_SOURCE;
}

const PRESET = /^[a-z0-9_]{1,40}$/;

function isLabRuns(v: unknown): v is LabRuns {
  return (
    isRecord(v) &&
    hasOnly(v, ['finishedAt', 'presets']) &&
    isTime(v.finishedAt) &&
    Array.isArray(v.presets) &&
    v.presets.length <= MAX_LAB_PRESETS &&
    v.presets.every((p) => typeof p === 'string' && PRESET.test(p))
  );
}

const CHOICE = /^[a-z0-9_-]{1,40}$/;
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

function isPredictionRecord(v: unknown): v is PredictionRecord {
  return (
    isRecord(v) &&
    hasOnly(v, ['lab', 'made', 'matched', 'choice', 'outcome', 'at']) &&
    typeof v.lab === 'string' &&
    SLUG.test(v.lab) &&
    isCount(v.made) &&
    isCount(v.matched) &&
    (v.matched as number) <= (v.made as number) &&
    typeof v.choice === 'string' &&
    CHOICE.test(v.choice) &&
    PREDICTION_OUTCOMES.includes(v.outcome as never) &&
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

/** The keys each version stores: 1 before exercises, 2 before lab runs, 3 before predictions. */
const KEYS: Record<number, string[]> = {
  1: ['chapters', 'quizzes', 'lastVisited'],
  2: ['chapters', 'quizzes', 'exercises', 'lastVisited'],
  3: ['chapters', 'quizzes', 'exercises', 'labs', 'lastVisited'],
  4: ['chapters', 'quizzes', 'exercises', 'labs', 'predictions', 'lastVisited'],
};

export function parseProgressData(v: unknown, version = PROGRESS_VERSION): ProgressData | null {
  if (!isRecord(v) || !hasOnly(v, KEYS[version] ?? [])) return null;
  const chapters = recordOf(v.chapters, SLUG, isChapterProgress);
  const quizzes = recordOf(v.quizzes, QUIZ_ID, isQuizAnswer);
  if (!chapters || !quizzes) return null;
  const out: ProgressData = { chapters, quizzes };
  if (v.exercises !== undefined) {
    const exercises = recordOf(v.exercises, SLUG, isExercisePass);
    if (!exercises) return null;
    out.exercises = exercises;
  }
  if (v.labs !== undefined) {
    const labs = recordOf(v.labs, SLUG, isLabRuns);
    if (!labs) return null;
    out.labs = labs;
  }
  if (v.predictions !== undefined) {
    const predictions = recordOf(v.predictions, SLUG, isPredictionRecord);
    if (!predictions) return null;
    out.predictions = predictions;
  }
  const last = v.lastVisited;
  if (last === undefined) return out;
  if (!isRecord(last) || !hasOnly(last, ['slug', 'at']) || typeof last.slug !== 'string' || !SLUG.test(last.slug) || !isTime(last.at)) return null;
  return { ...out, lastVisited: { slug: last.slug, at: last.at } };
}

/** Keep a stored value only if it is exactly the shape of its version, one this site reads; otherwise start afresh. */
export function parseStoredProgress(value: unknown, version: number): ProgressData {
  if (!READABLE_PROGRESS_VERSIONS.includes(version)) return emptyProgress();
  return parseProgressData(value, version) ?? emptyProgress();
}
