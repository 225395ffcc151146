// The page's side of the MDP stepper's policy: each call posts a row to the policy worker (policy.worker.ts) and
// resolves with π_θ(· | s_t). The worker, and with it tfjs and the checkpoint, starts on the first call only.
import type { BackendName } from '@/lib/tf/names';
import type { FromPolicy, ToPolicy } from './policy-protocol';
import { createWorkerRpc } from '../worker-rpc';

export interface PolicyAnswer {
  probs: Float32Array;
  backend: BackendName;
}

export interface PolicyClient {
  nextTokenProbs(row: number[]): Promise<PolicyAnswer>;
  /** Stops the worker; pending calls fail, and the next call starts a new one. */
  dispose(): void;
}

/** A client whose calls travel to the worker `spawn` makes (a seam for tests). */
export function createPolicyClient(spawn: () => Worker): PolicyClient {
  const rpc = createWorkerRpc<Omit<ToPolicy, 'id'>, FromPolicy>(spawn, { name: 'the policy worker' });
  return {
    nextTokenProbs: (row) => rpc.call({ row }).then(({ probs, backend }) => ({ probs, backend })),
    dispose: () => rpc.stop(new Error('the policy worker was stopped')),
  };
}

export const spawnPolicyWorker = () => new Worker(new URL('./policy.worker.ts', import.meta.url), { type: 'module' });
