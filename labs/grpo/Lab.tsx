'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { GroupInspector } from './GroupInspector';

const GRPO_LAB: LabDefinition<'grpo'> = {
  slug: 'grpo',
  trainer: 'grpo',
  fields: [
    'learning_rate', 'num_generations', 'per_device_train_batch_size', 'max_steps', 'beta', 'epsilon', 'epsilon_high', 'temperature',
    'loss_type', 'scale_rewards', 'importance_sampling_level', 'num_iterations', 'steps_per_generation', 'max_completion_length',
    'dynamic_sampling', 'mask_truncated_completions', 'reward_weight_overlong', 'soft_punish_cache',
    'reward_weight_correctness', 'reward_weight_format', 'reward_weight_length', 'correctness_reward', 'seed',
  ],
  charts: [
    { title: 'Reward (mean and std)', metrics: ['reward', 'reward_std'], axis: 'reward', kind: 'train' },
    { title: 'Held-out accuracy', metrics: ['eval/accuracy'], kind: 'eval', domain: [0, 1] },
    { title: 'KL to the reference (beta > 0 only)', metrics: ['kl'], kind: 'train' },
    { title: 'Clip ratio (low, high)', metrics: ['clip_ratio/low_mean', 'clip_ratio/high_mean'], axis: 'share of tokens', kind: 'train' },
    { title: 'Importance ratio, mean (off-policy steps only)', metrics: ['policy/ratio_mean'], kind: 'train' },
    { title: 'Entropy', metrics: ['entropy'], kind: 'train' },
    { title: 'Completion length', metrics: ['completions/mean_length'], axis: 'tokens', kind: 'train' },
    { title: 'Completion length: correct and incorrect answers', metrics: ['completions/mean_length_correct', 'completions/mean_length_incorrect'], axis: 'tokens', kind: 'train' },
    { title: 'Loss', metrics: ['loss'], kind: 'train' },
  ],
  inspector: { title: 'Group inspector', render: (samples) => <GroupInspector samples={samples} /> },
  evalMetric: ['eval/accuracy', 'held-out accuracy', true],
  comparisons: [
    {
      label: 'GRPO, Dr. GRPO, DAPO (all its parts) and GSPO on one seed, each with four updates per generation batch, overlaid on the charts.',
      presets: ['grpo_paper', 'dr_grpo', 'dapo', 'gspo'],
      columns: [
        { label: 'held-out accuracy', metric: 'eval/accuracy', read: 'final', percent: true },
        { label: 'length, correct', metric: 'completions/mean_length_correct', read: 'recent' },
        { label: 'length, incorrect', metric: 'completions/mean_length_incorrect', read: 'recent' },
        { label: 'entropy', metric: 'entropy', read: 'recent' },
        { label: 'clipped (region)', metric: 'clip_ratio/region_mean', read: 'recent', percent: true },
      ],
    },
  ],
};

/** The GRPO lab: GRPOConfig's fields, training in a worker, live charts, the group inspector, runs. */
export default function GrpoLab() {
  return <LabShell lab={GRPO_LAB} />;
}
