'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { VisionViewer } from './VisionViewer';

const VISION_LAB: LabDefinition<'vision'> = {
  slug: 'vision',
  trainer: 'vision',
  fields: [
    'questions', 'grid_size', 'occupancy', 'use_image', 'sft_steps', 'sft_learning_rate', 'sft_batch_size',
    'learning_rate', 'num_generations', 'per_device_train_batch_size', 'max_steps', 'beta', 'epsilon', 'temperature', 'loss_type', 'scale_rewards',
    'max_grad_norm', 'eval_steps', 'eval_samples', 'seed',
  ],
  charts: [
    // One line across both phases: the SFT phase's last evaluation is where GRPO starts from.
    { title: 'Held-out accuracy (SFT phase, then GRPO)', metrics: ['eval/accuracy'], kind: 'eval', domain: [0, 1] },
    {
      title: 'Held-out accuracy by question',
      metrics: ['eval/accuracy_count_colour', 'eval/accuracy_count_shape', 'eval/accuracy_count_all', 'eval/accuracy_colour_at'],
      axis: 'share right',
      kind: 'eval',
      domain: [0, 1],
    },
    // The two phases log under different names (SFT's sft/*, GRPO's TRL names), so each line covers its own phase.
    { title: 'Loss: SFT phase (cross-entropy), then GRPO', metrics: ['sft/loss', 'loss'], axis: 'loss', kind: 'train' },
    { title: 'SFT phase: answer tokens predicted right', metrics: ['sft/mean_token_accuracy'], kind: 'train', domain: [0, 1] },
    { title: 'GRPO phase: reward (mean and std)', metrics: ['reward', 'reward_std'], axis: 'reward', kind: 'train' },
    { title: 'GRPO phase: groups whose answers all scored the same', metrics: ['frac_reward_zero_std'], kind: 'train', domain: [0, 1] },
    { title: 'GRPO phase: entropy', metrics: ['entropy'], kind: 'train' },
  ],
  inspector: { title: 'Pictures, answers and where the model looks', render: (samples) => <VisionViewer samples={samples} /> },
  evalMetric: ['eval/accuracy', 'held-out accuracy', true],
  comparison: {
    label: 'The default run and text_only on one seed, overlaid: the gap between them is what looking at the picture is worth.',
    presets: ['default', 'text_only'],
    columns: [
      { label: 'held-out accuracy', metric: 'eval/accuracy', read: 'final', percent: true },
      { label: 'counting a colour', metric: 'eval/accuracy_count_colour', read: 'final', percent: true },
      { label: 'colour at a cell', metric: 'eval/accuracy_colour_at', read: 'final', percent: true },
      { label: 'mean reward', metric: 'reward', read: 'recent' },
    ],
  },
};

/** The vision lab: a tiny vision-language model, SFT on described pictures then GRPO, its answers and attention on the pictures. */
export default function VisionLab() {
  return <LabShell lab={VISION_LAB} />;
}
