// Build-time access to the numeric face: server components call it while `next build` renders the page
// in Node, so the chapter's HTML already holds each widget's default result. In Node, lib/rl runs in-process.
import * as tf from '@tensorflow/tfjs';
import { directFace } from './numeric-face';
import type { NumericFace } from './numeric-protocol';

export async function serverNumericFace(): Promise<NumericFace> {
  await tf.ready(); // in Node tfjs settles on its CPU backend, the one the browser widgets' worker uses
  return directFace;
}
