'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { RoundInspector } from './RoundInspector';

const SELF_IMPROVE_LAB: LabDefinition<'self_improve'> = {
  slug: 'self-improve',
  trainer: 'self_improve',
  fields: [
    'filter', 'demo_fraction', 'num_generations', 'num_prompts', 'temperature', 'demonstration_digits', 'target_digits', 'rounds_per_difficulty',
    'demo_steps', 'steps_per_round', 'learning_rate', 'per_device_train_batch_size', 'max_steps', 'eval_samples', 'seed',
  ],
  charts: [
    {
      title: 'Held-out accuracy by difficulty after each round (one line per number of digits)',
      metrics: ['eval/accuracy_1_digits', 'eval/accuracy_2_digits', 'eval/accuracy_3_digits', 'eval/accuracy_4_digits', 'eval/accuracy_5_digits'],
      axis: 'share right',
      kind: 'eval',
      domain: [0, 1],
    },
    { title: 'Kept samples: how many, and the share really right', metrics: ['kept_precision', 'sample_accuracy'], axis: 'share', kind: 'train', domain: [0, 1] },
    { title: 'Samples kept per round', metrics: ['kept'], kind: 'train' },
    { title: 'Difficulty each round trained on', metrics: ['difficulty'], kind: 'train' },
    { title: 'Fine-tuning loss (mean over the round)', metrics: ['loss'], kind: 'train' },
  ],
  inspector: { title: 'Rounds and kept samples', render: (samples) => <RoundInspector samples={samples} /> },
  evalMetric: ['eval/accuracy_target', 'accuracy on the longest sums', true],
  // One step is one round: the status line counts rounds and says which part of the round is running.
  stepWord: 'round',
};

/** The self-improvement lab: expert iteration round by round, accuracy per difficulty, the kept samples. */
export default function SelfImproveLab() {
  return <LabShell lab={SELF_IMPROVE_LAB} />;
}
