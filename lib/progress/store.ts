import type { PredictionOutcome } from '@/lib/claims/predict';
import { createStore } from 'zustand/vanilla';
import { persist, type PersistStorage, type StorageValue } from 'zustand/middleware';
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

/** What the store offers: the shape zustand's useStore (and React's useSyncExternalStore) reads, and explicit hydration. */
export interface ProgressStore {
  getState(): ProgressState;
  /** The state before stored progress is read: what the server rendered. */
  getInitialState(): ProgressState;
  /** Called on every change, and when stored progress has been read. */
  subscribe(listener: (state: ProgressState, previous: ProgressState) => void): () => void;
  /** hasHydrated: stored progress has been read once (it stays true while a later re-read is under way). */
  persist: { rehydrate(): Promise<void>; hasHydrated(): boolean };
}

function browserStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // access can throw when storage is blocked
  }
}

type Change = (s: ProgressState) => Partial<ProgressData>;

/** Every data field, absent: what a stored value that lacks a field (an older version) reads as. */
const NOTHING: Pick<ProgressData, 'exercises' | 'labs' | 'predictions' | 'lastVisited'> = { exercises: undefined, labs: undefined, predictions: undefined, lastVisited: undefined };

/**
 * A fresh store (tests make their own; the app makes one): zustand's vanilla store with its persist middleware.
 * Hydration is explicit (skipHydration): call persist.rehydrate(). Stored as {"state": {...}, "version": 4}, the
 * format earlier versions of the site wrote (version 1 lacked exercises, version 2 lab runs, version 3 predictions;
 * all still read), so readers keep their progress.
 * Storage never breaks the page: unreadable JSON is removed and reads as "nothing stored", a value of the wrong shape
 * reads as no progress, and a full or forbidden localStorage (private mode, quota) only loses the write.
 */
export function createProgressStore(storage: () => Storage | undefined = browserStorage): ProgressStore {
  // Changes made before the stored progress is read (a quiz answered while the checks load): shown at once, and
  // replayed over the stored progress when it arrives. Written then, not before, so they never overwrite it.
  // null once stored progress has been read.
  let early: Change[] | null = [];

  // The checks run here rather than in persist's migrate/merge: migrate runs only when the stored version differs,
  // and merge cannot wait, but reading may, so the checks load only when something is stored (a first visit has
  // nothing, and its page never downloads them). Versions 1 to 3 are read as they are; foreign shapes are dropped
  // rather than repaired: progress is cheap to rebuild.
  const progressStorage: PersistStorage<ProgressData> = {
    getItem(name) {
      let stored: { state?: unknown; version?: unknown } | null = null;
      try {
        stored = JSON.parse(storage()?.getItem(name) ?? 'null');
      } catch {
        storage()?.removeItem(name);
      }
      if (stored === null) return null;
      return import('./schema').then(({ parseStoredProgress }): StorageValue<ProgressData> => ({
        state: parseStoredProgress(stored?.state, stored?.version as number),
        version: PROGRESS_VERSION,
      }));
    },
    setItem(name, value) {
      if (early) return; // before hydration: see `early`
      try {
        storage()?.setItem(name, JSON.stringify(value));
      } catch {
        /* quota exceeded or storage disabled: progress stays in memory for this visit */
      }
    },
    removeItem(name) {
      try {
        storage()?.removeItem(name);
      } catch {
        /* storage disabled: nothing to remove */
      }
    },
  };

  const api = createStore<ProgressState>()(
    persist(
      (set) => {
        const change = (c: Change) => {
          set(c); // persist's set: written once hydrated
          early?.push(c);
        };
        return {
          ...emptyProgress(),
          markOpened(slug, now = Date.now()) {
            change((s) => ({
              chapters: { ...s.chapters, [slug]: { ...s.chapters[slug], openedAt: s.chapters[slug]?.openedAt ?? now } },
              lastVisited: { slug, at: now },
            }));
          },
          setCompleted(slug, completed, now = Date.now()) {
            change((s) => ({ chapters: { ...s.chapters, [slug]: { ...s.chapters[slug], completedAt: completed ? now : undefined } } }));
          },
          answerQuiz(id, choice, correct, now = Date.now()) {
            // A quiz once answered right stays answered right: trying the other options afterwards is exploring, not forgetting.
            change((s) => (s.quizzes[id]?.correct && !correct ? {} : { quizzes: { ...s.quizzes, [id]: { choice, correct, at: now } } }));
          },
          passExercise(id, source, now = Date.now()) {
            if (source.length > MAX_KEPT_SOURCE) return;
            change((s) => ({ exercises: { ...s.exercises, [id]: { passedAt: now, source } } }));
          },
          finishLab(slug, preset, now = Date.now()) {
            change((s) => {
              const before = s.labs?.[slug];
              const presets = before?.presets.includes(preset) ? before.presets : [...(before?.presets ?? []), preset].slice(-MAX_LAB_PRESETS);
              return { labs: { ...s.labs, [slug]: { finishedAt: now, presets } } };
            });
          },
          recordPrediction(lab, claim, choice, outcome, now = Date.now()) {
            change((s) => {
              const before = s.predictions?.[claim];
              const made = (before?.made ?? 0) + 1;
              const matched = (before?.matched ?? 0) + (outcome === 'matched' ? 1 : 0);
              return { predictions: { ...s.predictions, [claim]: { lab, made, matched, choice, outcome, at: now } } };
            });
          },
          reset() {
            change(() => ({ ...emptyProgress(), ...NOTHING }));
          },
        };
      },
      {
        name: PROGRESS_STORAGE_KEY,
        version: PROGRESS_VERSION,
        storage: progressStorage,
        skipHydration: true,
        partialize: ({ chapters, quizzes, exercises, labs, predictions, lastVisited }): ProgressData => ({ chapters, quizzes, exercises, labs, predictions, lastVisited }),
        // What is stored replaces what is in memory (another tab's progress included), then the early changes replay.
        merge(stored, current) {
          let next: ProgressState = { ...current, ...NOTHING, ...((stored as ProgressData | undefined) ?? emptyProgress()) };
          for (const c of early ?? []) next = { ...next, ...c(next) };
          return next;
        },
        onRehydrateStorage: () => (_state, error) => {
          // A failed read (the checks' chunk did not load) keeps `early` set on purpose: writing now would replace the
          // stored progress this visit could not read; what the reader does stays in memory until the next visit.
          if (error || !early) return;
          const replayed = early.length > 0;
          early = null;
          if (replayed) api.setState({}); // persist's setState writes the merged progress
        },
      },
    ),
  );

  return {
    getState: api.getState,
    getInitialState: api.getInitialState,
    subscribe(listener) {
      const unsubscribe = api.subscribe(listener);
      // persist marks itself hydrated after it sets the stored state: without this, a reader of hasHydrated whose
      // selected value did not change would never hear it.
      const unsubscribeHydrated = api.persist.onFinishHydration((state) => listener(state, state));
      return () => {
        unsubscribe();
        unsubscribeHydrated();
      };
    },
    persist: { rehydrate: api.persist.rehydrate, hasHydrated: () => early === null },
  };
}
