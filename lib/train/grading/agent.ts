/**
 * Grading the agent lab: the task's model (product, two-step or memory task; room for a second try under
 * answer_attempts 2) and the trainer's own greedy episodes, tools and failures as the run's evaluations had them.
 */
import { loadTinyLM } from '@/lib/models/checkpoint';
import { agentEvalEnvironment, evaluateAgent, resolveAgentConfig } from '@/lib/train/agent-trainer';
import { agentModelConfig, createAgentLabTask } from '@/lib/train/lab-setup';
import { tinyLmProblem, withModel } from './common';
import { problemsOf } from './eval-problems';
import type { Grading } from './types';

export const agentGrading: Grading = {
  weightsProblem(config, file) {
    const c = resolveAgentConfig(config);
    return tinyLmProblem('agent', file, agentModelConfig(createAgentLabTask(c.task), c.answer_attempts));
  },
  evaluate(bytes, config, set) {
    const c = resolveAgentConfig(config);
    const task = createAgentLabTask(c.task);
    const problems = problemsOf(task, set, c.eval_samples);
    return withModel(loadTinyLM(bytes, { frozen: true }), (model) => evaluateAgent(model, task, problems, agentEvalEnvironment(task, c, problems), c.max_completion_length));
  },
};
