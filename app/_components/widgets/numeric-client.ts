// The chapter widgets' numeric face in the browser: every call is answered by a Web Worker
// (numeric.worker.ts), so the page itself never loads tfjs. The worker starts on the first call (a
// reader's first edit), once per page; the build-time result is in the HTML until then.
import type { Args, FromNumeric, NumericFace, NumericFn, Result, ToNumeric } from './numeric-protocol';
import { createWorkerRpc } from '../worker-rpc';

/** The worker could not start, or died: pending calls fail with it, and the next call starts a new one. */
export class NumericWorkerError extends Error {}

/** An async numeric face whose calls travel to the worker `spawn` makes (a seam for tests). */
export function createNumericClient(spawn: () => Worker): NumericFace {
  const rpc = createWorkerRpc<Omit<ToNumeric, 'id'>, FromNumeric>(spawn, {
    name: 'the numeric worker',
    workerError: (message) => new NumericWorkerError(message),
  });
  const call = <F extends NumericFn>(fn: F, args: Args<F>) =>
    rpc.call({ fn, args } as Omit<ToNumeric, 'id'>).then((answer) => answer.result as Result<F>);

  return {
    grpoAdvantages: (args) => call('grpoAdvantages', args),
    grpoLoss: (args) => call('grpoLoss', args),
    gae: (args) => call('gae', args),
    dpoLoss: (args) => call('dpoLoss', args),
  };
}

export const numericFace = createNumericClient(
  () => new Worker(new URL('./numeric.worker.ts', import.meta.url), { type: 'module' }),
);
