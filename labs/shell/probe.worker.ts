/// <reference lib="webworker" />
/**
 * Times the lab's training step on each GPU backend, then on wasm under the same conditions, while the run itself
 * trains on wasm in its own worker: the page compares the numbers (lib/tf/choice.ts) and may move the run. Every
 * timing is posted as soon as it is known; the page terminates this worker when it has what it needs.
 */
import type { BackendTiming } from '@/lib/tf/choice';
import type { BackendName } from '@/lib/tf/names';
import { webglSkipReason, webgpuSkipReason } from '@/lib/tf/runtime';
import { readCheckpoint } from './checkpoints';
import type { FromProbe, ToProbe } from './protocol';

declare const self: DedicatedWorkerGlobalScope;
const post = (message: FromProbe) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<ToProbe>) => {
  const { trainer, overrides, software } = event.data;
  // Look at the hardware first, without tfjs: with no real GPU the probe ends here and costs the run nothing.
  const skips: [BackendName, string | null][] = [
    ['webgpu', await webgpuSkipReason(software, 10_000).catch((error: unknown) => String(error))],
    ['webgl', webglSkipReason(software)],
  ];
  const toTime = skips.filter(([, skip]) => skip === null).map(([backend]) => backend);
  for (const [backend, skipped] of skips) if (skipped !== null) post({ type: 'timing', timing: { backend, skipped } });
  if (toTime.length === 0) return post({ type: 'done' });

  const { timeBackend } = await import('@/lib/spec/backend-probe');
  const timings: BackendTiming[] = [];
  for (const backend of toTime) {
    const timing = await timeBackend(trainer, backend, { overrides, readCheckpoint, software });
    timings.push(timing);
    post({ type: 'timing', timing });
  }
  // wasm is timed here too, so that every number shares the same conditions (this probe competes with the run for
  // the CPU); with no GPU backend timed, there is nothing to compare it with.
  if (timings.some((t) => 'msPerStep' in t)) post({ type: 'timing', timing: await timeBackend(trainer, 'wasm', { overrides, readCheckpoint }) });
  post({ type: 'done' });
};
