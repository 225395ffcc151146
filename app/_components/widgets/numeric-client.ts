// The chapter widgets' numeric face in the browser: every call is answered by a Web Worker
// (numeric.worker.ts), so the page itself never loads tfjs. The worker starts on the first call (a
// reader's first edit), once per page; the build-time result is in the HTML until then.
import type { Args, FromNumeric, NumericFace, NumericFn, Result, ToNumeric } from './numeric-protocol';

/** The worker could not start, or died: pending calls fail with it, and the next call starts a new one. */
export class NumericWorkerError extends Error {}

type Pending = { resolve: (result: never) => void; reject: (error: Error) => void };

/** An async numeric face whose calls travel to the worker `spawn` makes (a seam for tests). */
export function createNumericClient(spawn: () => Worker): NumericFace {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const fail = (error: Error) => {
    worker?.terminate();
    worker = null;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  const start = () => {
    const w = spawn();
    w.onmessage = ({ data }: MessageEvent<FromNumeric>) => {
      const p = pending.get(data.id);
      pending.delete(data.id);
      if ('error' in data) p?.reject(new Error(data.error));
      else p?.resolve(data.result as never);
    };
    // A script that failed to download or threw while loading (a real Worker's `error` event has a message then).
    w.onerror = (event) => {
      event.preventDefault?.();
      fail(new NumericWorkerError(event.message || 'the worker did not start'));
    };
    return w;
  };
  const call = <F extends NumericFn>(fn: F, args: Args<F>) =>
    new Promise<Result<F>>((resolve, reject) => {
      try {
        worker ??= start();
      } catch (e) {
        return reject(new NumericWorkerError((e as Error).message)); // e.g. a browser that forbids workers
      }
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, fn, args } as ToNumeric);
    });

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
