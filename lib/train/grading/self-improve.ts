/** Grading the self-improvement lab: its model, sized for the target sum, on every difficulty of the curriculum. */
import { loadTinyLM } from '@/lib/models/checkpoint';
import { createAdditionCurriculum } from '@/lib/tasks/addition-curriculum';
import { resolve } from '@/lib/train/config';
import { selfImproveSchema } from '@/lib/train/self-improve-config';
import { selfImproveModelConfig } from '@/lib/train/self-improve-model';
import { evaluateCurriculum } from '@/lib/train/self-improve-trainer';
import { tinyLmProblem, withModel } from './common';
import { problemsOf } from './eval-problems';
import type { Grading } from './types';

export const selfImproveGrading: Grading = {
  weightsProblem(config, file) {
    const c = resolve(selfImproveSchema, config);
    return tinyLmProblem('self_improve', file, selfImproveModelConfig(c.target_digits));
  },
  evaluate(bytes, config, set) {
    const c = resolve(selfImproveSchema, config);
    const curriculum = createAdditionCurriculum({ width: c.target_digits });
    return withModel(loadTinyLM(bytes, { frozen: true }), (model) => evaluateCurriculum(model, curriculum, (d) => problemsOf(curriculum.at(d), set, c.eval_samples)));
  },
};
