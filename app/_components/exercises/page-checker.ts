/**
 * Checking exercise code in a page (a chapter's exercise, the grader): the expected values from the reference worker,
 * the reader's code in the browser sandbox (an opaque-origin iframe running a worker with a time limit). Loaded only
 * when a reader first presses Check, or when the grader meets an exercise submission; no tfjs on this thread.
 */
import type { Exercise } from '@/content/exercises';
import { checkExercise, freshSeed, type CheckResult } from '@/lib/exercises/check';
import { createBrowserSandbox } from '@/lib/sandbox/browser';
import type { CodeSandbox } from '@/lib/sandbox/outcome';
import { createWorkerRpc } from '../worker-rpc';
import type { FromReference, ToReference } from './reference-protocol';

// One reference worker per page, started on the first check.
const reference = createWorkerRpc<Omit<ToReference, 'id'>, FromReference>(
  () => new Worker(new URL('./reference.worker.ts', import.meta.url), { type: 'module' }),
  { name: 'the exercises’ reference worker' },
);

export const expectedInWorker = (exercise: string) => (cases: unknown[][]) => reference.call({ exercise, cases }).then((answer) => answer.values);

export interface PageChecker {
  /** Checks `source` on fresh random cases (or on `seed`'s). One check at a time per checker. */
  check(exercise: Exercise, source: string, seed?: number): Promise<CheckResult>;
  dispose(): void;
}

/** A checker with a sandbox of its own, started on its first check and reused after. */
export function createPageChecker(): PageChecker {
  let sandbox: Promise<CodeSandbox> | null = null;
  return {
    async check(exercise, source, seed = freshSeed()) {
      sandbox ??= createBrowserSandbox();
      const box = await sandbox.catch((error: unknown) => {
        sandbox = null; // a later check tries again
        throw error;
      });
      return checkExercise({ exercise, source, sandbox: box, expected: expectedInWorker(exercise.id), seed });
    },
    dispose() {
      void sandbox?.then((box) => box.dispose(), () => undefined);
      sandbox = null;
    },
  };
}
