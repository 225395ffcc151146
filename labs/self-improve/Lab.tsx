'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { SELF_IMPROVE_CHARTS, ROUNDS } from './charts';
import { RoundInspector } from './RoundInspector';

const SELF_IMPROVE_LAB: LabDefinition<'self_improve'> = {
  slug: 'self-improve',
  trainer: 'self_improve',
  fields: [
    'filter', 'demo_fraction', 'num_generations', 'num_prompts', 'temperature', 'demonstration_digits', 'target_digits', 'rounds_per_difficulty',
    'init_from', 'demo_steps', 'steps_per_round', 'learning_rate', 'per_device_train_batch_size', 'max_steps', 'eval_samples', 'seed',
  ],
  charts: SELF_IMPROVE_CHARTS,
  inspector: { title: 'Rounds and kept samples', render: (samples) => <RoundInspector samples={samples} /> },
  evalMetric: ['eval/accuracy_target', 'accuracy on the longest sums', true],
  // One step is one round: the status line counts rounds and says which part of the round is running.
  stepWord: 'round',
  stepAxis: ROUNDS,
  // Chapter 10 reads the default run against its two controls; each is a full run of the loop, so the panel says how many rounds.
  comparisons: [
    {
      label: 'The default run against sft_only, its control: the same fine-tuning budget spent on the demonstrations alone. The gap is what training on its own verified answers adds.',
      presets: ['default', 'sft_only'],
      columns: [
        { label: 'accuracy on the longest sums', metric: 'eval/accuracy_target', read: 'final', percent: true },
        { label: 'samples right (mean over rounds)', metric: 'sample_accuracy', read: 'recent', percent: true },
      ],
    },
    {
      label: 'The default run against majority: the same loop with a majority vote in place of the verifier. Watch how many kept samples are really right.',
      presets: ['default', 'majority'],
      columns: [
        { label: 'accuracy on the longest sums', metric: 'eval/accuracy_target', read: 'final', percent: true },
        { label: 'kept samples really right (mean over rounds)', metric: 'kept_precision', read: 'recent', percent: true },
        { label: 'wrong samples kept (mean per round)', metric: 'kept_wrong', read: 'recent' },
      ],
    },
    {
      label: 'The default run against full_schedule: the same loop with round 0 trained in the run rather than loaded, and 200 fine-tuning steps a round rather than 120. The gap is what the default trades for its time.',
      presets: ['default', 'full_schedule'],
      columns: [
        { label: 'accuracy on the longest sums', metric: 'eval/accuracy_target', read: 'final', percent: true },
        { label: 'samples right (mean over rounds)', metric: 'sample_accuracy', read: 'recent', percent: true },
      ],
    },
  ],
};

/** The self-improvement lab: expert iteration round by round, accuracy per difficulty, the kept samples. */
export default function SelfImproveLab() {
  return <LabShell lab={SELF_IMPROVE_LAB} />;
}
