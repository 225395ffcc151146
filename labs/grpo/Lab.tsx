'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { GroupInspector } from './GroupInspector';

const GRPO_LAB: LabDefinition<'grpo'> = {
  trainer: 'grpo',
  fields: [
    'learning_rate', 'num_generations', 'per_device_train_batch_size', 'max_steps', 'beta', 'epsilon', 'epsilon_high', 'temperature',
    'loss_type', 'scale_rewards', 'importance_sampling_level', 'num_iterations', 'max_completion_length',
    'reward_weight_correctness', 'reward_weight_format', 'reward_weight_length', 'correctness_reward', 'seed',
  ],
  charts: [
    { title: 'Reward (mean and std)', metrics: ['reward', 'reward_std'], kind: 'train' },
    { title: 'Held-out accuracy', metrics: ['eval/accuracy'], kind: 'eval', domain: [0, 1] },
    { title: 'KL to the reference (beta > 0 only)', metrics: ['kl'], kind: 'train' },
    { title: 'Clip ratio (low, high)', metrics: ['clip_ratio/low_mean', 'clip_ratio/high_mean'], kind: 'train' },
    { title: 'Entropy', metrics: ['entropy'], kind: 'train' },
    { title: 'Completion length', metrics: ['completions/mean_length'], kind: 'train' },
    { title: 'Loss', metrics: ['loss'], kind: 'train' },
  ],
  inspector: { title: 'Group inspector', render: (samples) => <GroupInspector samples={samples} /> },
  evalMetric: ['eval/accuracy', 'held-out accuracy', true],
};

/** The GRPO lab: GRPOConfig's fields, training in a worker, live charts, the group inspector, runs. */
export default function GrpoLab() {
  return <LabShell lab={GRPO_LAB} />;
}
