/// <reference lib="webworker" />
/**
 * Grades submission files off the main thread: validation, then two evaluations of each checkpoint with tfjs
 * (lib/teach/grade.ts and evaluate.ts, as `npm run grade` does). On wasm when it starts, as the CLI's default, so the
 * page and the command line measure alike.
 */
import { evaluateCheckpoint } from '@/lib/teach/evaluate';
import { gradeSubmission } from '@/lib/teach/grade';
import { selectBackend } from '@/lib/tf/backend';
import type { FromGrader, ToGrader } from './grade-protocol';

declare const self: DedicatedWorkerGlobalScope;

// If no backend starts, tfjs keeps its default one and grading still runs.
const ready = selectBackend({ requested: 'wasm' }).catch(() => null);

// One file at a time, in order.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent<ToGrader>) => {
  const { id, name, text, assignment, received } = event.data;
  queue = queue.then(async () => {
    await ready;
    const row = await gradeSubmission({ name, text, received: received ? new Date(received) : null }, assignment, evaluateCheckpoint); // never throws
    self.postMessage({ type: 'row', id, row } satisfies FromGrader);
  });
};
