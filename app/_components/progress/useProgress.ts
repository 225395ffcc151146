'use client';

import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { createProgressStore, type ProgressState } from '@/lib/progress/store';

/** The page's one progress store. Hydrated from localStorage after mount, so server HTML never depends on it. */
const progressStore = createProgressStore();
let hydration: Promise<void> | undefined;

function hydrateOnce(): Promise<void> {
  hydration ??= Promise.resolve(progressStore.persist.rehydrate());
  return hydration;
}

/** Select from the progress store; `ready` is false until stored progress has been read. */
export function useProgress<T>(select: (state: ProgressState) => T): { value: T; ready: boolean } {
  const value = useStore(progressStore, select);
  const [ready, setReady] = useState(progressStore.persist.hasHydrated());
  useEffect(() => {
    let live = true;
    void hydrateOnce().then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);
  return { value, ready };
}

export function progressActions(): ProgressState {
  return progressStore.getState();
}
