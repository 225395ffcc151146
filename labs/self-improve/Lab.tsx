'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { SELF_IMPROVE_CHARTS, ROUNDS } from './charts';
import { RoundInspector } from './RoundInspector';

const SELF_IMPROVE_LAB: LabDefinition<'self_improve'> = {
  slug: 'self-improve',
  trainer: 'self_improve',
  fields: [
    'filter', 'demo_fraction', 'num_generations', 'num_prompts', 'temperature', 'demonstration_digits', 'target_digits', 'rounds_per_difficulty',
    'demo_steps', 'steps_per_round', 'learning_rate', 'per_device_train_batch_size', 'max_steps', 'eval_samples', 'seed',
  ],
  charts: SELF_IMPROVE_CHARTS,
  inspector: { title: 'Rounds and kept samples', render: (samples) => <RoundInspector samples={samples} /> },
  evalMetric: ['eval/accuracy_target', 'accuracy on the longest sums', true],
  // One step is one round: the status line counts rounds and says which part of the round is running.
  stepWord: 'round',
  stepAxis: ROUNDS,
};

/** The self-improvement lab: expert iteration round by round, accuracy per difficulty, the kept samples. */
export default function SelfImproveLab() {
  return <LabShell lab={SELF_IMPROVE_LAB} />;
}
