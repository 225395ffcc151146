'use client';

import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '@/lib/errors';
import type { NumericFace } from './numeric-protocol';

// The worker's client is a chunk of its own, shared by every widget and fetched on the first edit.
const loadClient = () => import('./numeric-client');

/** What to compute on the numeric face for the reader's latest edit; null: nothing (yet). Memoise it. */
export type Job<T> = ((face: NumericFace) => Promise<T>) | null;

const SLOW_MS = 150; // an answer faster than this is not worth a "computing…" flash

/**
 * Runs `job` off the main thread whenever it changes, one at a time: a job superseded before it starts is
 * skipped and a stale answer is dropped, so the newest edit wins. `value` is the last good answer (`initial`
 * until the first); `error` says why the newest job failed; `slow` that it has been running a while.
 */
export function useNumeric<T>(initial: T, job: Job<T>, what: string) {
  const [done, setDone] = useState<{ job: Job<T>; value: T; error: string | null }>({ job: null, value: initial, error: null });
  const [slowJob, setSlowJob] = useState<Job<T>>(null);
  const queue = useRef(Promise.resolve());

  useEffect(() => {
    if (!job) return;
    let current = true;
    const timer = setTimeout(() => current && setSlowJob(() => job), SLOW_MS);
    queue.current = queue.current.then(async () => {
      if (!current) return;
      let client: Awaited<ReturnType<typeof loadClient>> | undefined;
      try {
        client = await loadClient();
        const value = await job(client.numericFace);
        if (current) setDone({ job, value, error: null });
      } catch (e) {
        const text = errorMessage(e);
        const loading = !client || e instanceof client.NumericWorkerError; // offline, or the worker did not start
        if (current) setDone((d) => ({ ...d, job, error: loading ? `Could not load ${what} (${text}).` : text }));
      }
    });
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [job, what]);

  const pending = job !== null && done.job !== job;
  return { value: done.value, error: done.error, slow: pending && slowJob === job };
}
