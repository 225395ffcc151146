/**
 * The typed messages between the chapter page and its demonstration worker. Type-only imports: the page's
 * bundle gets none of lib/dist/equivalence.ts (nor tfjs) from this file.
 */
import type { DemoName, DemoResult } from '@/lib/dist/equivalence';
import type { BackendName } from '@/lib/tf/backend';

export type ToDemoWorker = { type: 'run'; demos: DemoName[] };

export type FromDemoWorker =
  | { type: 'backend'; backend: BackendName }
  | { type: 'started'; demo: DemoName }
  | { type: 'result'; demo: DemoName; result: DemoResult; ms: number; leakedTensors: number }
  | { type: 'done' }
  | { type: 'error'; message: string };
