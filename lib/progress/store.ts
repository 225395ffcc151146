import { createStore } from 'zustand/vanilla';
import { persist, type StateStorage } from 'zustand/middleware';
import { emptyProgress, parseStoredProgress, PROGRESS_VERSION, type ProgressData } from './schema';

export const PROGRESS_STORAGE_KEY = 'agentic-rl-lab:progress';

export interface ProgressActions {
  markOpened(slug: string, now?: number): void;
  setCompleted(slug: string, completed: boolean, now?: number): void;
  answerQuiz(id: string, choice: number, correct: boolean, now?: number): void;
  reset(): void;
}

export type ProgressState = ProgressData & ProgressActions;

/**
 * Storage that never throws at the page: unreadable JSON is removed and reads as "nothing stored",
 * and a full or forbidden localStorage (private mode, quota) only loses the write.
 */
export function safeStorage(backing: () => Storage | undefined): StateStorage {
  return {
    getItem(name) {
      const raw = backing()?.getItem(name) ?? null;
      if (raw === null) return null;
      try {
        JSON.parse(raw);
        return raw;
      } catch {
        backing()?.removeItem(name);
        return null;
      }
    },
    setItem(name, value) {
      try {
        backing()?.setItem(name, value);
      } catch {
        /* quota exceeded or storage disabled: progress stays in memory for this visit */
      }
    },
    removeItem(name) {
      backing()?.removeItem(name);
    },
  };
}

function browserStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // access can throw when storage is blocked
  }
}

/** A fresh store (tests make their own; the app makes one). Hydration is explicit: call persist.rehydrate(). */
export function createProgressStore(storage: () => Storage | undefined = browserStorage) {
  const safe = safeStorage(storage);
  return createStore<ProgressState>()(
    persist<ProgressState, [], [], ProgressData>(
      (set) => ({
        ...emptyProgress(),
        markOpened(slug, now = Date.now()) {
          set((s) => ({
            chapters: { ...s.chapters, [slug]: { ...s.chapters[slug], openedAt: s.chapters[slug]?.openedAt ?? now } },
            lastVisited: { slug, at: now },
          }));
        },
        setCompleted(slug, completed, now = Date.now()) {
          set((s) => ({
            chapters: { ...s.chapters, [slug]: { ...s.chapters[slug], completedAt: completed ? now : undefined } },
          }));
        },
        answerQuiz(id, choice, correct, now = Date.now()) {
          set((s) => ({ quizzes: { ...s.quizzes, [id]: { choice, correct, at: now } } }));
        },
        reset() {
          set({ ...emptyProgress(), lastVisited: undefined });
        },
      }),
      {
        name: PROGRESS_STORAGE_KEY,
        version: PROGRESS_VERSION,
        storage: {
          getItem: (name) => {
            const raw = safe.getItem(name) as string | null;
            const value: unknown = raw === null ? null : JSON.parse(raw);
            return value !== null && typeof value === 'object' ? (value as never) : null;
          },
          setItem: (name, value) => safe.setItem(name, JSON.stringify(value)),
          removeItem: (name) => safe.removeItem(name),
        },
        skipHydration: true,
        partialize: (s) => ({ chapters: s.chapters, quizzes: s.quizzes, lastVisited: s.lastVisited }),
        // Older or foreign shapes are dropped rather than migrated: progress is cheap to rebuild.
        // (merge below re-validates whatever migrate returns, so the cast only satisfies zustand's signature)
        migrate: (persisted, version) => parseStoredProgress(persisted, version) as ProgressState,
        merge: (persisted, current) => ({ ...current, ...parseStoredProgress(persisted, PROGRESS_VERSION) }),
      },
    ),
  );
}

export type ProgressStore = ReturnType<typeof createProgressStore>;
