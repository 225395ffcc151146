'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { TeamViewer } from './TeamViewer';

const TEAM_LAB: LabDefinition<'team'> = {
  slug: 'team',
  trainer: 'team',
  fields: [
    'learning_rate', 'receiver_learning_rate_multiplier', 'train_sender', 'blank_channel', 'max_message_length', 'init_from',
    'num_generations', 'per_device_train_batch_size', 'max_steps', 'beta', 'epsilon', 'temperature', 'loss_type', 'scale_rewards', 'eval_steps', 'seed',
  ],
  charts: [
    { title: 'Held-out team accuracy, and with the channel blanked at evaluation', metrics: ['eval/accuracy', 'eval/accuracy_blank_channel'], axis: 'share right', kind: 'eval', domain: [0, 1] },
    { title: 'What the messages say about the target (best message-only decoder, held-out)', metrics: ['eval/message_decodability'], axis: 'share decoded', kind: 'eval', domain: [0, 1] },
    { title: 'Information in the messages (bits, at most 2)', metrics: ['eval/message_information_bits'], axis: 'bits', kind: 'eval', domain: [0, 2] },
    { title: 'Message length (held-out) and distinct messages', metrics: ['eval/message_length', 'eval/distinct_messages'], kind: 'eval' },
    { title: 'Team reward (mean and std)', metrics: ['reward', 'reward_std'], axis: 'reward', kind: 'train' },
    { title: 'Entropy per role', metrics: ['sender/entropy', 'receiver/entropy'], axis: 'nats', kind: 'train' },
    { title: 'Loss per role', metrics: ['sender/loss', 'receiver/loss'], kind: 'train' },
  ],
  inspector: { title: 'Team rollouts and what messages mean', render: (samples) => <TeamViewer samples={samples} /> },
  evalMetric: ['eval/accuracy', 'held-out team accuracy', true],
  comparisons: [
    {
      label: 'The default team against no_message, the same team with the channel blanked in training: the gap is what the messages carry.',
      presets: ['default', 'no_message'],
      columns: [
        { label: 'held-out team accuracy', metric: 'eval/accuracy', read: 'final', percent: true },
        { label: 'channel blanked at evaluation', metric: 'eval/accuracy_blank_channel', read: 'final', percent: true },
        { label: 'information in the messages (bits)', metric: 'eval/message_information_bits', read: 'final' },
      ],
    },
  ],
};

/** The team lab: a sender and a receiver trained by GRPO on one team reward, live charts, the rollouts side by side, runs. */
export default function TeamLab() {
  return <LabShell lab={TEAM_LAB} />;
}
