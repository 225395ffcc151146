// Request/answer calls to a Web Worker that starts on the first call: each request carries an id, and the worker's
// message with that id settles it, either with the message or with its `error`. A worker that cannot start, or that
// dies, fails every pending call with `workerError`, and the next call starts a new one. Shared by the chapter
// widgets' numeric worker, the MDP stepper's policy worker and the grader's worker; it imports no tfjs (lib/errors.ts
// imports nothing), so a page loads none with it.

import { errorMessage } from '@/lib/errors';

type Answer = { id: number } & ({ error: string } | object);
type Pending<A> = { resolve: (answer: A) => void; reject: (error: Error) => void };

export interface WorkerRpc<Request, Reply> {
  /** Posts `{ id, ...request }` (starting the worker if needed) and resolves with the worker's reply to that id. */
  call(request: Request): Promise<Reply>;
  /** Stops the worker; pending calls fail with `error`, and the next call starts a new one. */
  stop(error: Error): void;
}

export function createWorkerRpc<Request extends object, Reply extends Answer>(
  spawn: () => Worker,
  opts: {
    /** Names the worker in errors, e.g. "the policy worker". */
    name: string;
    /** Makes the error for a worker that could not start or that died (default: Error). */
    workerError?: (message: string) => Error;
  },
): WorkerRpc<Request, Exclude<Reply, { error: string }>> {
  const workerError = opts.workerError ?? ((message: string) => new Error(message));
  type Ok = Exclude<Reply, { error: string }>;
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, Pending<Ok>>();

  const stop = (error: Error) => {
    worker?.terminate();
    worker = null;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  const start = () => {
    const w = spawn();
    w.onmessage = ({ data }: MessageEvent<Reply>) => {
      const p = pending.get(data.id);
      pending.delete(data.id);
      if ('error' in data) p?.reject(new Error(data.error));
      else p?.resolve(data as Ok);
    };
    // A script that failed to download or threw while loading (a real Worker's `error` event has a message then).
    w.onerror = (event) => {
      event.preventDefault?.();
      stop(workerError(event.message || `${opts.name} did not start`));
    };
    return w;
  };
  const call = (request: Request) =>
    new Promise<Ok>((resolve, reject) => {
      try {
        worker ??= start();
      } catch (e) {
        return reject(workerError(`${opts.name} did not start: ${errorMessage(e)}`)); // e.g. a browser that forbids workers
      }
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...request });
    });
  return { call, stop };
}
