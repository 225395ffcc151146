/// <reference lib="webworker" />
/**
 * Times the lab's training step on each GPU backend, then on wasm under the same conditions, while the run itself
 * trains on wasm in its own worker: the page compares the numbers (lib/tf/choice.ts) and may move the run. Every
 * timing is posted as soon as it is known; the page terminates this worker when it has what it needs.
 */
import type { BackendName } from '@/lib/tf/names';
import { timeBackend } from '@/lib/train/backend-probe';
import { readCheckpoint } from './checkpoints';
import type { FromProbe, ToProbe } from './protocol';

declare const self: DedicatedWorkerGlobalScope;
const post = (message: FromProbe) => self.postMessage(message);

const GPU_BACKENDS: readonly BackendName[] = ['webgpu', 'webgl'];

self.onmessage = async (event: MessageEvent<ToProbe>) => {
  const { trainer, overrides, software } = event.data;
  let anyGpu = false;
  for (const backend of GPU_BACKENDS) {
    const timing = await timeBackend(trainer, backend, { overrides, readCheckpoint, software });
    anyGpu ||= 'msPerStep' in timing;
    post({ type: 'timing', timing });
  }
  // wasm is timed here too, so that every number shares the same conditions (this probe competes with the run for
  // the CPU); with no GPU backend to compare, there is nothing to time it against.
  if (anyGpu) post({ type: 'timing', timing: await timeBackend(trainer, 'wasm', { overrides, readCheckpoint }) });
  post({ type: 'done' });
};
