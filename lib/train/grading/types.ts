/**
 * What grading asks of a trainer (its spec's `grading.load()`, lib/spec/registry.ts): whether a weights file can be
 * the model it trains under a config, and that model's held-out metrics on a set of problems. The grader's worker and
 * `npm run grade` call these through the spec; lib/teach never names a trainer. Types only: no tfjs.
 */
import type { WeightsFile } from '@/lib/models/weights-file';
import type { FieldValue } from '@/lib/train/config';
import type { Metrics } from '@/lib/train/run';

/**
 * Which problems to evaluate on:
 *  - 'public': the lab's fixed test set under the run's config, exactly what the run's own evaluations measured (so
 *    the history's final evaluation can be reproduced from the weights);
 *  - 'seeded': held-out problems (PPO: episodes) drawn with the instructor's evaluation seed, which students never see.
 *    That is what an assignment is graded on.
 */
export type EvalSet = { kind: 'public' } | { kind: 'seeded'; seed: number; samples: number };

export interface Grading {
  /** Why `file` cannot be the trained model under `config` (checked on its header and tensor table), or null. */
  weightsProblem(config: Record<string, FieldValue>, file: WeightsFile): string | null;
  /** The metrics of the weights `bytes` under `config` on `set`; throws when they do not load or do not fit the task. */
  evaluate(bytes: Uint8Array, config: Record<string, FieldValue>, set: EvalSet): Promise<Metrics>;
}
