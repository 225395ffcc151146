'use client';

import { useSyncExternalStore } from 'react';
import { useStore } from 'zustand';
import { createProgressStore, PROGRESS_STORAGE_KEY, type ProgressState } from '@/lib/progress/store';

/** The page's one progress store. */
const progressStore = createProgressStore();
// Stored progress is read as soon as the page's code runs. That never makes hydration disagree with the server's
// HTML: while hydrating, React renders the server snapshot (nothing stored), then re-renders with the stored one.
if (typeof window !== 'undefined') {
  void progressStore.persist.rehydrate();
  // Progress made in another tab (a lab trained to the end while /path/ stays open) reaches this page when that tab
  // writes it; and a page restored from the back-forward cache reads what changed while it was away.
  window.addEventListener('storage', (event) => {
    if (event.key === PROGRESS_STORAGE_KEY || event.key === null) void progressStore.persist.rehydrate();
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) void progressStore.persist.rehydrate();
  });
}

const notYet = () => false;

/**
 * Select from the progress store; `ready` is false until stored progress has been read. `select` must return a
 * value from the state (or a primitive), not a new object: React compares snapshots by identity.
 */
export function useProgress<T>(select: (state: ProgressState) => T): { value: T; ready: boolean } {
  const value = useStore(progressStore, select);
  const ready = useSyncExternalStore(progressStore.subscribe, progressStore.persist.hasHydrated, notYet);
  return { value, ready };
}

export function progressActions(): ProgressState {
  return progressStore.getState();
}
