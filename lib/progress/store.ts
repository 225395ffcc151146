import type { PredictionOutcome } from '@/lib/claims/predict';
import { emptyProgress, MAX_KEPT_SOURCE, MAX_LAB_PRESETS, PROGRESS_VERSION, type ProgressData } from './data';

export const PROGRESS_STORAGE_KEY = 'agentic-rl-lab:progress';

export interface ProgressActions {
  markOpened(slug: string, now?: number): void;
  setCompleted(slug: string, completed: boolean, now?: number): void;
  /** Records an answer; a wrong one never replaces a right one already stored. */
  answerQuiz(id: string, choice: number, correct: boolean, now?: number): void;
  /** A code exercise passed with `source` (kept, so a submission can carry it). */
  passExercise(id: string, source: string, now?: number): void;
  /** A lab run trained to its last step, with the preset it started from. */
  finishLab(slug: string, preset: string, now?: number): void;
  /** A prediction made before a run of `lab`, graded by claim `claim`'s verdict on it once the run finished. */
  recordPrediction(lab: string, claim: string, choice: string, outcome: PredictionOutcome, now?: number): void;
  reset(): void;
}

export type ProgressState = ProgressData & ProgressActions;

/** What the store offers: the shape React's useSyncExternalStore reads, and explicit hydration from storage. */
export interface ProgressStore {
  getState(): ProgressState;
  /** The state before stored progress is read: what the server rendered. */
  getInitialState(): ProgressState;
  subscribe(listener: () => void): () => void;
  persist: { rehydrate(): Promise<void>; hasHydrated(): boolean };
}

function browserStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // access can throw when storage is blocked
  }
}

/**
 * A fresh store (tests make their own; the app makes one). Hydration is explicit: call persist.rehydrate().
 * Written by hand rather than with a store library, since it ships on every page. Stored as
 * {"state": {...}, "version": 2}, the format earlier versions of the site wrote (version 1 lacked exercises and is
 * still read), so readers keep their progress.
 * Storage never breaks the page: unreadable JSON is removed and reads as "nothing stored", and a full or forbidden
 * localStorage (private mode, quota) only loses the write.
 */
export function createProgressStore(storage: () => Storage | undefined = browserStorage): ProgressStore {
  const listeners = new Set<() => void>();
  let hydrated = false;
  const publish = (next: ProgressState) => {
    state = next;
    listeners.forEach((listener) => listener());
  };
  type Change = (s: ProgressState) => Partial<ProgressData>;
  // Changes made before the stored progress is read (a quiz answered while the checks load): shown at once, and
  // replayed over the stored progress when it arrives. Written then, not before, so they never overwrite it.
  let early: Change[] = [];
  const write = () => {
    const { chapters, quizzes, exercises, labs, predictions, lastVisited } = state;
    try {
      storage()?.setItem(PROGRESS_STORAGE_KEY, JSON.stringify({ state: { chapters, quizzes, exercises, labs, predictions, lastVisited }, version: PROGRESS_VERSION }));
    } catch {
      /* quota exceeded or storage disabled: progress stays in memory for this visit */
    }
  };
  const set = (change: Change) => {
    publish({ ...state, ...change(state) });
    if (hydrated) write();
    else early.push(change);
  };

  const initial: ProgressState = {
    ...emptyProgress(),
    markOpened(slug, now = Date.now()) {
      set((s) => ({
        chapters: { ...s.chapters, [slug]: { ...s.chapters[slug], openedAt: s.chapters[slug]?.openedAt ?? now } },
        lastVisited: { slug, at: now },
      }));
    },
    setCompleted(slug, completed, now = Date.now()) {
      set((s) => ({ chapters: { ...s.chapters, [slug]: { ...s.chapters[slug], completedAt: completed ? now : undefined } } }));
    },
    answerQuiz(id, choice, correct, now = Date.now()) {
      // A quiz once answered right stays answered right: trying the other options afterwards is exploring, not forgetting.
      set((s) => (s.quizzes[id]?.correct && !correct ? {} : { quizzes: { ...s.quizzes, [id]: { choice, correct, at: now } } }));
    },
    passExercise(id, source, now = Date.now()) {
      if (source.length > MAX_KEPT_SOURCE) return;
      set((s) => ({ exercises: { ...s.exercises, [id]: { passedAt: now, source } } }));
    },
    finishLab(slug, preset, now = Date.now()) {
      set((s) => {
        const before = s.labs?.[slug];
        const presets = before?.presets.includes(preset) ? before.presets : [...(before?.presets ?? []), preset].slice(-MAX_LAB_PRESETS);
        return { labs: { ...s.labs, [slug]: { finishedAt: now, presets } } };
      });
    },
    recordPrediction(lab, claim, choice, outcome, now = Date.now()) {
      set((s) => {
        const before = s.predictions?.[claim];
        const made = (before?.made ?? 0) + 1;
        const matched = (before?.matched ?? 0) + (outcome === 'matched' ? 1 : 0);
        return { predictions: { ...s.predictions, [claim]: { lab, made, matched, choice, outcome, at: now } } };
      });
    },
    reset() {
      set(() => ({ ...emptyProgress(), exercises: undefined, labs: undefined, predictions: undefined, lastVisited: undefined }));
    },
  };
  let state = initial;

  return {
    getState: () => state,
    getInitialState: () => initial,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    persist: {
      hasHydrated: () => hydrated,
      async rehydrate() {
        let stored: { state?: unknown; version?: unknown } | null = null;
        try {
          stored = JSON.parse(storage()?.getItem(PROGRESS_STORAGE_KEY) ?? 'null');
        } catch {
          storage()?.removeItem(PROGRESS_STORAGE_KEY);
        }
        // The checks load only when there is something to check (a first visit has nothing stored). Version 1 (no
        // exercises) is read as it is; foreign shapes are dropped rather than repaired: progress is cheap to rebuild.
        const found = stored === null ? emptyProgress() : (await import('./schema')).parseStoredProgress(stored?.state, stored?.version as number);
        let next: ProgressState = { ...initial, ...found };
        for (const change of early) next = { ...next, ...change(next) };
        const changed = early.length > 0;
        early = [];
        hydrated = true;
        publish(next);
        if (changed) write();
      },
    },
  };
}
