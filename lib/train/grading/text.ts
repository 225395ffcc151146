/**
 * Grading the three labs that train the tiny LM on 2-digit arithmetic (SFT, GRPO, DPO): the lab's model on the lab's
 * task, evaluated as each trainer's own evaluations do. It loads tfjs: the spec reaches it by import() only.
 */
import { loadTinyLM } from '@/lib/models/checkpoint';
import { resolve } from '@/lib/train/config';
import { dpoSchema } from '@/lib/train/dpo-config';
import { resolveGrpoConfig } from '@/lib/train/grpo-trainer';
import { arithmeticTaskFor, createLabTask, labModelConfig } from '@/lib/train/lab-setup';
import { evaluateOnTestSet } from '@/lib/train/lm-batch';
import { measuresOldTask, sftSchema } from '@/lib/train/sft-config';
import { arithmeticSftSource } from '@/lib/train/sft-trainer';
import { tinyLmProblem, withModel } from './common';
import { problemsOf } from './eval-problems';
import type { Grading } from './types';

export const sftGrading: Grading = {
  weightsProblem(config, file) {
    const c = resolve(sftSchema, config);
    return tinyLmProblem('sft', file, labModelConfig(createLabTask()), c.use_peft ? c.r : null);
  },
  evaluate(bytes, config, set) {
    const c = resolve(sftSchema, config);
    const task = arithmeticTaskFor(c.dataset);
    const oldTask = measuresOldTask(c) ? arithmeticTaskFor('addition') : null;
    return withModel(loadTinyLM(bytes, { frozen: true }), async (model) => {
      if (set.kind === 'public') return arithmeticSftSource(task, c.eval_samples, oldTask).evaluate(model);
      const metrics = await evaluateOnTestSet(model, task, problemsOf(task, set, c.eval_samples));
      if (oldTask) metrics['eval/old_task_accuracy'] = (await evaluateOnTestSet(model, oldTask, problemsOf(oldTask, set, c.eval_samples)))['eval/accuracy'];
      return metrics;
    });
  },
};

/** GRPO and DPO evaluate the same way: greedy answers to the lab's addition problems. */
function additionGrading(trainer: string, evalSamples: (config: Record<string, unknown>) => number): Grading {
  return {
    weightsProblem: (_config, file) => tinyLmProblem(trainer, file, labModelConfig(createLabTask())),
    evaluate(bytes, config, set) {
      const samples = evalSamples(config);
      const task = createLabTask();
      return withModel(loadTinyLM(bytes, { frozen: true }), (model) => evaluateOnTestSet(model, task, problemsOf(task, set, samples)));
    },
  };
}

export const grpoGrading = additionGrading('grpo', (config) => resolveGrpoConfig(config).eval_samples);
export const dpoGrading = additionGrading('dpo', (config) => resolve(dpoSchema, config).eval_samples);
