'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { PairInspector } from './PairInspector';

const DPO_LAB: LabDefinition<'dpo'> = {
  slug: 'dpo',
  trainer: 'dpo',
  fields: ['learning_rate', 'beta', 'loss_type', 'label_smoothing', 'per_device_train_batch_size', 'max_steps', 'num_prompts', 'samples_per_prompt', 'seed'],
  charts: [
    { title: 'Implicit rewards (chosen, rejected)', metrics: ['rewards/chosen', 'rewards/rejected'], axis: 'implicit reward', kind: 'train' },
    { title: 'Reward margin', metrics: ['rewards/margins'], kind: 'train' },
    { title: 'Reward accuracy', metrics: ['rewards/accuracies'], kind: 'train', domain: [0, 1] },
    { title: 'Log-probs (chosen, rejected)', metrics: ['logps/chosen', 'logps/rejected'], axis: 'log-prob (nats)', kind: 'train' },
    { title: 'Held-out accuracy', metrics: ['eval/accuracy'], kind: 'eval', domain: [0, 1] },
    { title: 'Loss', metrics: ['loss'], kind: 'train' },
  ],
  inspector: { title: 'Pair inspector', render: (samples) => <PairInspector samples={samples} /> },
  evalMetric: ['eval/accuracy', 'held-out accuracy', true],
};

/** The DPO lab: pairs sampled from the SFT model, DPOConfig's fields, live charts, the pair inspector, runs. */
export default function DpoLab() {
  return <LabShell lab={DPO_LAB} />;
}
