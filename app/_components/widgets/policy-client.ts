// The page's side of the MDP stepper's policy: each call posts a row to the policy worker (policy.worker.ts) and
// resolves with π_θ(· | s_t). The worker, and with it tfjs and the checkpoint, starts on the first call only.
import type { BackendName } from '@/lib/tf/names';
import type { FromPolicy, ToPolicy } from './policy-protocol';

export interface PolicyAnswer {
  probs: Float32Array;
  backend: BackendName;
}

export interface PolicyClient {
  nextTokenProbs(row: number[]): Promise<PolicyAnswer>;
  /** Stops the worker; pending calls fail, and the next call starts a new one. */
  dispose(): void;
}

type Pending = { resolve: (answer: PolicyAnswer) => void; reject: (error: Error) => void };

/** A client whose calls travel to the worker `spawn` makes (a seam for tests). */
export function createPolicyClient(spawn: () => Worker): PolicyClient {
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
    w.onmessage = ({ data }: MessageEvent<FromPolicy>) => {
      const p = pending.get(data.id);
      pending.delete(data.id);
      if ('error' in data) p?.reject(new Error(data.error));
      else p?.resolve({ probs: data.probs, backend: data.backend });
    };
    // A script that failed to download, or threw while loading.
    w.onerror = (event) => {
      event.preventDefault?.();
      fail(new Error(event.message || 'the policy worker did not start'));
    };
    return w;
  };

  return {
    nextTokenProbs: (row) =>
      new Promise<PolicyAnswer>((resolve, reject) => {
        try {
          worker ??= start();
        } catch (e) {
          return reject(new Error(`the policy worker did not start: ${(e as Error).message}`)); // a browser that forbids workers
        }
        const id = nextId++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, row } satisfies ToPolicy);
      }),
    dispose: () => fail(new Error('the policy worker was stopped')),
  };
}

export const spawnPolicyWorker = () => new Worker(new URL('./policy.worker.ts', import.meta.url), { type: 'module' });
