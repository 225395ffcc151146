import type { GridMapName } from '@/lib/tasks/gridworld';
import type { ConfigOf, Presets, Schema } from './config';

/**
 * PPOConfig for classic-control PPO on a grid world. Names follow TRL's PPOConfig where it has the field
 * (learning_rate, num_ppo_epochs, num_mini_batches, gamma, lam, cliprange, cliprange_value, vf_coef) and
 * CleanRL's ppo.py where it does not (num_envs, num_steps, ent_coef, max_grad_norm). The defaults solve the
 * default 5×5 map within 6–10 updates on 12 of 15 seeds (two more take 12; one not within 20), each a few milliseconds on wasm.
 */
export const ppoSchema = {
  learning_rate: { kind: 'number', default: 3e-3, min: 0, max: 1, exclusiveMin: true, reason: 'A 2,053-parameter MLP on one-hot states tolerates a large step; CleanRL’s 2.5e-4 is for Atari-sized nets.' },
  num_envs: { kind: 'number', default: 16, min: 1, max: 256, integer: true, reason: '16 grids stepped together: one forward pass per time step serves them all.' },
  num_steps: { kind: 'number', default: 32, min: 2, max: 512, integer: true, reason: 'Rollout length per env: 16 × 32 = 512 transitions per update, ~30 episodes.' },
  num_ppo_epochs: { kind: 'number', default: 4, min: 1, max: 64, integer: true, reason: 'TRL’s and CleanRL’s default: each rollout is reused 4 times.' },
  num_mini_batches: { kind: 'number', default: 4, min: 1, max: 64, integer: true, reason: 'CleanRL’s default: minibatches of 128 transitions.' },
  gamma: { kind: 'number', default: 0.99, min: 0, max: 1, reason: 'Episodes last ~10 steps, so 0.99 barely discounts the goal; it still favours short paths.' },
  lam: { kind: 'number', default: 0.95, min: 0, max: 1, reason: 'GAE λ from the GAE paper and CleanRL: little bias, tolerable variance.' },
  cliprange: { kind: 'number', default: 0.2, min: 0, max: 1e6, exclusiveMin: true, reason: 'PPO paper’s ε = 0.2: the ratio may move ±20% per update.' },
  cliprange_value: { kind: 'number', default: 0.2, min: 0, max: 1e6, exclusiveMin: true, reason: 'TRL’s default: value predictions move at most 0.2 from the rollout’s.' },
  vf_coef: { kind: 'number', default: 0.5, min: 0, max: 10, reason: 'CleanRL’s 0.5 (TRL’s 0.1 suits a value head on a large LM).' },
  ent_coef: { kind: 'number', default: 0.01, min: 0, max: 1, reason: 'CleanRL’s 0.01: enough to keep exploring past the lava before the goal is found.' },
  whiten_advantages: { kind: 'boolean', default: true, reason: 'Zero-mean, unit-variance advantages over the rollout (TRL; CleanRL’s norm_adv): the step size ignores reward scale.' },
  max_grad_norm: { kind: 'number', default: 0.5, min: 0, max: 1000, exclusiveMin: true, reason: 'CleanRL’s clipping of the global gradient norm.' },
  hidden_size: { kind: 'number', default: 32, min: 4, max: 512, integer: true, reason: 'Two tanh layers (CleanRL’s shape); 32 wide is plenty for 25 one-hot cells and ~3× cheaper than 64 on cpu.' },
  env_id: { kind: 'choice', default: 'gridworld', choices: ['gridworld', 'cartpole'] as const, reason: 'The grid world learns in seconds; CartPole-v1 is the classic benchmark (see the cartpole preset).' },
  grid_map: { kind: 'choice', default: '5x5', choices: ['5x5', 'pocket', 'cliff'] satisfies GridMapName[], reason: 'Lava across the straight path: random walks reach the goal ~8% of the time, a trained policy always.' },
  max_episode_steps: { kind: 'number', default: 40, min: 1, max: 1000, integer: true, reason: 'Five times the grid’s shortest path: room to wander, and truncation happens (CartPole-v1 uses 500).' },
  step_cost: { kind: 'number', default: 0.01, min: 0, max: 1, reason: 'Each grid step costs 0.01, so shorter paths earn more.' },
  slip: { kind: 'number', default: 0, min: 0, max: 1, reason: 'Deterministic grid moves; raise it to make the lava edge risky.' },
  max_steps: { kind: 'number', default: 30, min: 1, max: 100000, integer: true, reason: 'Updates per run: the default map is solved in 6–10, so 30 leaves time to watch it settle.' },
  eval_steps: { kind: 'number', default: 2, min: 0, max: 100000, integer: true, reason: 'Greedy evaluation every 2 updates: cheap, and the return curve stays fine-grained.' },
  eval_episodes: { kind: 'number', default: 8, min: 1, max: 1000, integer: true, reason: 'Greedy episodes per evaluation; with slip = 0 they are identical, so few suffice.' },
  seed: { kind: 'number', default: 0, min: 0, max: 2 ** 31 - 1, integer: true, reason: 'Same seed, same rollouts and updates, on one backend.' },
} satisfies Schema;

export type PpoConfig = ConfigOf<typeof ppoSchema>;

/** Presets are small overrides with reasons, like nanoGPT's config files. */
export const ppoPresets = {
  default: { description: 'The defaults above: the greedy policy reaches the goal of the 5×5 map within about 6–10 updates.', overrides: {} },
  no_clipping: {
    description:
      'ε = 10⁶ for both clips (the losses need ε > 0) with an aggressive update (lr 0.01, 8 epochs per rollout): nothing ' +
      'keeps the new policy near the one that collected the data, so the KL per update explodes (27–97× the clipped ' +
      'run’s peak on seeds 0–2) and the policy collapses onto one path (entropy near 0); on seeds 0 and 2 the path it ends on never reaches the goal.',
    overrides: { cliprange: 1e6, cliprange_value: 1e6, learning_rate: 1e-2, num_ppo_epochs: 8 },
  },
  aggressive_clipped: {
    description: 'The same aggressive update as no_clipping with the clip left on: it still learns. The clip is what saves it.',
    overrides: { learning_rate: 1e-2, num_ppo_epochs: 8 },
  },
  lr_too_high: {
    description: 'learning_rate 0.1: Adam jumps so far per step that the policy may touch the goal but does not keep it: by update 30 the entropy is about 0 and the greedy return −0.40 on seeds 0–2.',
    overrides: { learning_rate: 0.1 },
  },
  pocket: {
    description: 'The goal hides behind two lava cells. With 5× the entropy bonus the greedy policy reaches it within about 10 updates; on this seed the default bonus gets there too, two updates later.',
    overrides: { grid_map: 'pocket', ent_coef: 0.05 },
  },
  cartpole: {
    description:
      'CartPole-v1 with CleanRL’s shape (64-wide net, 128-step rollouts, 500-step episodes). A greedy episode lasts ' +
      'all 500 steps within about 10 updates (seconds on wasm), and then the curve swings, as CleanRL’s does.',
    overrides: { env_id: 'cartpole', max_episode_steps: 500, hidden_size: 64, num_envs: 8, num_steps: 128, learning_rate: 1e-3 },
  },
} satisfies Presets<typeof ppoSchema>;
