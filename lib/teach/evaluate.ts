/**
 * Evaluates a checkpoint as its trainer does, with the trainers' own evaluation functions, on one of two sets:
 *  - 'public': the lab's fixed test set under the run's config, exactly what the run's own evaluations measured
 *    (so the history's final evaluation can be reproduced from the weights);
 *  - a seeded set: held-out problems (PPO: episodes) drawn with the instructor's evaluation seed, which students
 *    never see. That is what an assignment is graded on.
 * The grader's worker and `npm run grade` both call this. It loads tfjs: pages reach it only through a worker.
 */
import { loadActorCritic, loadTinyLM } from '@/lib/models/checkpoint';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { createRng, type Rng } from '@/lib/random';
import { agentEvalEnvironment, evaluateAgent, resolveAgentConfig } from '@/lib/train/agent-trainer';
import { resolve, type FieldValue } from '@/lib/train/config';
import { dpoSchema } from '@/lib/train/dpo-config';
import { resolveGrpoConfig } from '@/lib/train/grpo-trainer';
import { arithmeticTaskFor, createAgentLabTask, createLabTask } from '@/lib/train/lab-setup';
import { evaluateOnTestSet } from '@/lib/train/lm-batch';
import { ppoSchema } from '@/lib/train/ppo-config';
import { selfImproveSchema } from '@/lib/train/self-improve-config';
import { evaluateCurriculum } from '@/lib/train/self-improve-trainer';
import { createAdditionCurriculum } from '@/lib/tasks/addition-curriculum';
import { episodeEvalMetrics, greedyEpisodes } from '@/lib/train/ppo-rollout';
import { createPpoTrainer } from '@/lib/train/ppo-trainer';
import type { TrainerName } from '@/lib/spec/registry';
import type { Metrics } from '@/lib/train/run';
import { inTensorScope } from '@/lib/train/scope';
import { measuresOldTask, sftSchema } from '@/lib/train/sft-config';
import { arithmeticSftSource } from '@/lib/train/sft-trainer';
import type { EvalSet } from './grade';

/** Problems of a task's test split: its fixed test set, or a sample drawn with the instructor's seed. */
function problemsOf<P>(task: { testSet(n: number): P[]; sample(split: 'test', n: number, rng: Rng): P[] }, set: EvalSet, publicSize: number): P[] {
  return set.kind === 'public' ? task.testSet(publicSize) : task.sample('test', set.samples, createRng(set.seed).fork('grade'));
}

async function withModel<M extends { dispose(): void }>(model: M, body: (model: M) => Promise<Metrics>): Promise<Metrics> {
  try {
    return await inTensorScope(() => body(model));
  } finally {
    model.dispose();
  }
}

async function evaluateLm(trainer: Exclude<TrainerName, 'ppo'>, model: TinyLM, config: Record<string, FieldValue>, set: EvalSet): Promise<Metrics> {
  if (trainer === 'agent') {
    const c = resolveAgentConfig(config);
    const task = createAgentLabTask(c.task);
    const problems = problemsOf(task, set, c.eval_samples);
    return evaluateAgent(model, task, problems, agentEvalEnvironment(task, c, problems), c.max_completion_length);
  }
  if (trainer === 'self_improve') {
    const c = resolve(selfImproveSchema, config);
    const curriculum = createAdditionCurriculum({ width: c.target_digits });
    return evaluateCurriculum(model, curriculum, (d) => problemsOf(curriculum.at(d), set, c.eval_samples));
  }
  if (trainer === 'sft') {
    const c = resolve(sftSchema, config);
    const task = arithmeticTaskFor(c.dataset);
    const oldTask = measuresOldTask(c) ? arithmeticTaskFor('addition') : null;
    if (set.kind === 'public') return arithmeticSftSource(task, c.eval_samples, oldTask).evaluate(model);
    const metrics = await evaluateOnTestSet(model, task, problemsOf(task, set, c.eval_samples));
    if (oldTask) metrics['eval/old_task_accuracy'] = (await evaluateOnTestSet(model, oldTask, problemsOf(oldTask, set, c.eval_samples)))['eval/accuracy'];
    return metrics;
  }
  const c = trainer === 'grpo' ? resolveGrpoConfig(config) : resolve(dpoSchema, config);
  const task = createLabTask();
  return evaluateOnTestSet(model, task, problemsOf(task, set, c.eval_samples));
}

/**
 * Metrics of the weights `bytes` (a checkpoint file) for `trainer` under `config`, on `set`. Throws when the weights
 * do not load or do not fit the task (a WeightsFileError, or the trainer's own message).
 */
export async function evaluateCheckpoint(trainer: TrainerName, bytes: Uint8Array, config: Record<string, FieldValue>, set: EvalSet): Promise<Metrics> {
  if (trainer !== 'ppo') return withModel(loadTinyLM(bytes, { frozen: true }), (model) => evaluateLm(trainer, model, config, set));
  return withModel(loadActorCritic(bytes), async (model) => {
    const c = resolve(ppoSchema, config);
    // The trainer built around the loaded model gives the run's own environment and evaluation (it does not own the model).
    const ppo = createPpoTrainer(c, { model });
    try {
      if (set.kind === 'public') return await ppo.evaluate();
      return episodeEvalMetrics(await greedyEpisodes(model, ppo.makeEnv, set.samples, createRng(set.seed).fork('grade')));
    } finally {
      ppo.dispose();
    }
  });
}
