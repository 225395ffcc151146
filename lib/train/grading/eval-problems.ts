/** Which problems a grading evaluation runs on, for any task with a held-out split (see EvalSet in types.ts). */
import { createRng, type Rng } from '@/lib/random';
import type { EvalSet } from './types';

export interface HeldOutTask<P> {
  testSet(n: number): P[];
  sample(split: 'test', n: number, rng: Rng): P[];
}

/**
 * The task's fixed test set of `publicSize` problems (what the run evaluated on), or `set.samples` held-out problems
 * drawn with the instructor's seed. The 'grade' fork keeps those draws apart from any other use of the same seed.
 */
export function problemsOf<P>(task: HeldOutTask<P>, set: EvalSet, publicSize: number): P[] {
  return set.kind === 'public' ? task.testSet(publicSize) : task.sample('test', set.samples, gradeRng(set));
}

/** The random stream a seeded evaluation set is drawn from (PPO draws episodes from it): the same seed, the same draws. */
export const gradeRng = (set: Extract<EvalSet, { kind: 'seeded' }>): Rng => createRng(set.seed).fork('grade');
