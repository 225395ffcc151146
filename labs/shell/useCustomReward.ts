'use client';

/**
 * The reader's reward function in a lab: its code (kept in this browser between visits), whether it takes part and
 * with what weight, and the sandbox it runs in during a run (lib/sandbox/browser.ts: an opaque-origin iframe that
 * cannot reach the page, its storage or the network). The sandbox module loads only when a run first needs it.
 */
import { useEffect, useRef, useState } from 'react';
import type { CodeSandbox } from '@/lib/sandbox/outcome';
import { editorScript, REWARD_EXAMPLES, REWARD_MAX_SOURCE_BYTES, REWARD_SIGNATURE, REWARD_TIME_LIMIT_MS, REWARD_WEIGHT_DEFAULT, rewardFailure } from '@/lib/tasks/custom-reward';
import type { TrainerName } from '@/lib/spec/registry';
import type { LabExtras } from './useLabWorker';

const storageKey = (trainer: TrainerName) => `arl:reward-source:${trainer}`;

function readSource(trainer: TrainerName): string | null {
  try {
    return window.localStorage.getItem(storageKey(trainer));
  } catch {
    return null;
  }
}

export interface CustomReward {
  enabled: boolean;
  weight: number;
  source: string;
  setEnabled(on: boolean): void;
  setWeight(weight: number): void;
  setSource(source: string): void;
  /** Loads the code into a fresh sandbox for a run; an error (a syntax error, no `reward` function…) in one line. */
  prepare(): Promise<{ reward: LabExtras['reward'] } | { error: string }>;
  /** Why the code could not be loaded for the last run, shown under the editor; null once a run loads it. */
  loadError: string | null;
}

export function useCustomReward(trainer: TrainerName): CustomReward {
  const [enabled, setEnabled] = useState(false);
  const [weight, setWeight] = useState(REWARD_WEIGHT_DEFAULT);
  const [source, setSourceState] = useState<string>(REWARD_EXAMPLES.correctness.source);
  const sandbox = useRef<CodeSandbox | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    const stored = readSource(trainer);
    if (stored !== null) setSourceState(stored);
    return () => {
      sandbox.current?.dispose();
      sandbox.current = null;
    };
  }, [trainer]);

  const setSource = (text: string) => {
    setSourceState(text);
    try {
      window.localStorage.setItem(storageKey(trainer), text);
    } catch {
      // storage blocked or full: the code stays for this visit
    }
  };

  return {
    enabled,
    weight,
    source,
    setEnabled,
    setWeight,
    setSource,
    loadError,
    async prepare() {
      const fail = (error: string) => {
        setLoadError(error);
        return { error };
      };
      if (new TextEncoder().encode(source).length > REWARD_MAX_SOURCE_BYTES) return fail(`Your reward function is longer than ${REWARD_MAX_SOURCE_BYTES / 1000} KB.`);
      // A fresh sandbox per run: nothing one run's code left behind reaches the next.
      sandbox.current?.dispose();
      sandbox.current = null;
      const { createBrowserSandbox } = await import('@/lib/sandbox/browser');
      const box = await createBrowserSandbox();
      sandbox.current = box;
      const script = editorScript(source);
      const loaded = await box.load(script.source, script.entry, REWARD_TIME_LIMIT_MS);
      if (!loaded.ok) {
        const why = rewardFailure(loaded).message.replace(/^the reward function failed: /, '').replace('a function named __defaultReward', 'a function after "export default"');
        return fail(`Your reward function could not be loaded: ${why}. Expected: ${REWARD_SIGNATURE}.`);
      }
      setLoadError(null);
      return { reward: { weight, call: (args, timeoutMs) => box.call(args, timeoutMs) } };
    },
  };
}
