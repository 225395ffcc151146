/** Grading the PPO lab: the actor-critic on the run's environment, greedy episodes as the trainer's evaluation plays them. */
import { loadActorCritic } from '@/lib/models/checkpoint';
import { checkActorCriticHeader } from '@/lib/models/shapes';
import { createCartPole } from '@/lib/tasks/cartpole';
import { createGridWorld, GRID_MAPS } from '@/lib/tasks/gridworld';
import { resolve } from '@/lib/train/config';
import { ppoSchema } from '@/lib/train/ppo-config';
import { episodeEvalMetrics, greedyEpisodes } from '@/lib/train/ppo-rollout';
import { createPpoTrainer } from '@/lib/train/ppo-trainer';
import { withModel } from './common';
import { gradeRng } from './eval-problems';
import type { Grading } from './types';

export const ppoGrading: Grading = {
  weightsProblem(config, file) {
    if (file.kind !== 'actor-critic') return `the weights are a '${file.kind}' model; ppo trains an 'actor-critic'`;
    const c = resolve(ppoSchema, config);
    const header = checkActorCriticHeader(file.config, file.tensors.map((t) => ({ name: t.name, shape: t.shape })));
    const env = c.env_id === 'cartpole' ? createCartPole() : createGridWorld({ map: GRID_MAPS[c.grid_map] });
    const expected = { obs_dim: env.obsDim, n_actions: env.nActions, hidden: `${c.hidden_size},${c.hidden_size}` };
    const found = { obs_dim: header.obs_dim, n_actions: header.n_actions, hidden: (header.hidden_sizes ?? [64, 64]).join(',') };
    for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
      if (found[key] !== expected[key]) return `${key} is ${found[key]} in the weights but ${expected[key]} for this config`;
    }
    return null;
  },
  evaluate(bytes, config, set) {
    const c = resolve(ppoSchema, config);
    return withModel(loadActorCritic(bytes), async (model) => {
      // The trainer built around the loaded model gives the run's own environment and evaluation (it does not own the model).
      const ppo = createPpoTrainer(c, { model });
      try {
        if (set.kind === 'public') return await ppo.evaluate();
        return episodeEvalMetrics(await greedyEpisodes(model, ppo.makeEnv, set.samples, gradeRng(set)));
      } finally {
        ppo.dispose();
      }
    });
  },
};
