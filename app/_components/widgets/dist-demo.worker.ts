/// <reference lib="webworker" />
/**
 * Runs the sharded-versus-unsharded demonstrations (lib/dist/equivalence.ts) off the main thread: tfjs is
 * imported here only, so the chapter page that starts this worker loads none of it.
 */
import { runDemo } from '@/lib/dist/equivalence';
import { selectBackend } from '@/lib/tf/backend';
import { errorMessage } from '@/lib/errors';
import type { FromDemoWorker, ToDemoWorker } from './dist-demo-protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromDemoWorker) => scope.postMessage(message);
let backendReady: Promise<unknown> | null = null;

scope.onmessage = async (event: MessageEvent<ToDemoWorker>) => {
  const message = event.data;
  if (message.type !== 'run') return;
  try {
    backendReady ??= selectBackend().then((s) => post({ type: 'backend', backend: s.backend }));
    await backendReady;
    for (const demo of message.demos) {
      post({ type: 'started', demo });
      const { result, ms, leakedTensors } = await runDemo(demo);
      post({ type: 'result', demo, result, ms, leakedTensors });
    }
    post({ type: 'done' });
  } catch (e) {
    backendReady = null;
    post({ type: 'error', message: errorMessage(e) });
  }
};
