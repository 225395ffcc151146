/// <reference lib="webworker" />
/**
 * The chapter widgets' numeric face, off the page's main thread: tfjs is imported here only. tfjs reads its
 * flags from `location.search`, which in a worker is this script's URL, so a malformed query in the
 * chapter's URL (`?%ZZ=1`) cannot break it.
 */
import * as tf from '@tensorflow/tfjs';
import { answer } from './numeric-face';
import type { FromNumeric, ToNumeric } from './numeric-protocol';

declare const self: DedicatedWorkerGlobalScope;

// cpu: the widgets' computations are tiny, and cpu needs no warm-up and no .wasm download.
const ready = tf.setBackend('cpu').then((ok) => {
  if (!ok) throw new Error('the cpu backend did not start');
});

self.onmessage = async ({ data }: MessageEvent<ToNumeric>) => {
  const reply: FromNumeric = await ready.then(
    () => answer(data),
    (e: unknown) => ({ id: data?.id, error: `tfjs did not start (${(e as Error).message})` }),
  );
  self.postMessage(reply);
};
