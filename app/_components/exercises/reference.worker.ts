/// <reference lib="webworker" />
/**
 * The exercises' expected values, off the page's main thread: the training core (lib/exercises/reference.ts) on
 * tfjs's cpu backend, which needs no warm-up and no .wasm download for a few dozen tiny cases.
 */
import * as tf from '@tensorflow/tfjs';
import { expectedValues } from '@/lib/exercises/reference';
import { errorMessage } from '@/lib/errors';
import type { FromReference, ToReference } from './reference-protocol';

declare const self: DedicatedWorkerGlobalScope;

const ready = tf.setBackend('cpu').then((ok) => {
  if (!ok) throw new Error('the cpu backend did not start');
});

self.onmessage = async ({ data }: MessageEvent<ToReference>) => {
  let reply: FromReference;
  try {
    await ready;
    reply = { id: data.id, values: expectedValues(data.exercise, data.cases) };
  } catch (e) {
    reply = { id: data?.id, error: errorMessage(e) };
  }
  self.postMessage(reply);
};
