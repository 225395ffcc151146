'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { GridView } from './GridView';

const PPO_LAB: LabDefinition<'ppo'> = {
  slug: 'ppo',
  trainer: 'ppo',
  fields: ['learning_rate', 'cliprange', 'cliprange_value', 'vf_coef', 'ent_coef', 'gamma', 'lam', 'num_ppo_epochs', 'num_mini_batches', 'num_envs', 'num_steps', 'max_steps', 'grid_map', 'env_id', 'seed'],
  charts: [
    { title: 'Episode return', metrics: ['episode/return_mean'], kind: 'train' },
    { title: 'Greedy return (evaluation)', metrics: ['eval/return'], kind: 'eval' },
    { title: 'Policy loss', metrics: ['loss/policy_avg'], kind: 'train' },
    { title: 'Value loss', metrics: ['loss/value_avg'], kind: 'train' },
    { title: 'Entropy', metrics: ['policy/entropy_avg'], kind: 'train' },
    { title: 'Approximate KL', metrics: ['policy/approxkl_avg'], kind: 'train' },
    { title: 'Clip fraction (policy, value)', metrics: ['policy/clipfrac_avg', 'val/clipfrac_avg'], axis: 'share clipped', kind: 'train' },
  ],
  inspector: {
    title: 'The policy in the grid',
    render: (samples, settings) => <GridView samples={samples} map={String(settings.env_id === 'gridworld' ? settings.grid_map : 'cartpole')} limit={Number(settings.max_episode_steps)} />,
  },
  evalMetric: ['eval/return', 'greedy return', false],
  comparisons: [
    {
      label: 'aggressive_clipped against no_clipping: the same aggressive learning rate and 8 epochs per rollout, with the clip on and off (chapter 4).',
      presets: ['aggressive_clipped', 'no_clipping'],
      columns: [
        { label: 'greedy return', metric: 'eval/return', read: 'final' },
        { label: 'success rate', metric: 'eval/success_rate', read: 'final', percent: true },
        { label: 'approximate KL', metric: 'policy/approxkl_avg', read: 'recent' },
        { label: 'entropy', metric: 'policy/entropy_avg', read: 'recent' },
      ],
    },
  ],
};

/** The PPO lab: an actor-critic learns a grid world; PPOConfig/CleanRL names; charts; the policy drawn on the grid. */
export default function PpoLab() {
  return <LabShell lab={PPO_LAB} />;
}
