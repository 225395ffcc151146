// The typed messages between chapter 1's MDP stepper and its policy worker (policy.worker.ts). Types only: a page
// that imports this loads no tfjs.
import type { BackendName } from '@/lib/tf/names';

/** "π_θ(· | s_t) for this row": the row is BOS, the prompt and every token so far (token ids). */
export type ToPolicy = { id: number; row: number[] };

export type FromPolicy =
  | { id: number; probs: Float32Array; backend: BackendName }
  | { id: number; error: string };
