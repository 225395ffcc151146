// Build-time access to the numeric face: server components call it while `next build` renders the page
// in Node, so the chapter's HTML already holds each widget's default result.
import * as tf from '@tensorflow/tfjs';
import * as rl from '@/lib/rl';
import type { NumericFace } from './load-rl';

export async function serverNumericFace(): Promise<NumericFace> {
  await tf.ready(); // in Node tfjs settles on its CPU backend, the one the browser widgets use
  return rl;
}
