/**
 * The self-improvement lab's charts and how they count: one trainer step is one round, and round 0 (the
 * demonstrations) is step 1, so every chart, the round picker and the table number rounds as the trainer logs them
 * (its `round` metric), never steps.
 */
import type { ChartSpec, StepAxis } from '../shell/MetricChart';
import { accuracyMetrics, selfImproveSchema } from '@/lib/train/self-improve-config';
import type { Settings } from '@/ui/settings';

/**
 * Step n is round n − 1; an evaluation logged at step n is the one after that round. The evaluation before round 0
 * (step 0, an untrained model) is left off: the axis starts at round 0, as the chapter's numbers do.
 */
export const ROUNDS: StepAxis = { title: 'round', at: (step) => (step < 1 ? null : step - 1) };

/** Round 0 fine-tunes on the demonstrations alone; sampling, and so anything kept, starts with round 1 (step 2). */
const FIRST_SAMPLED_ROUND = () => ({ step: 2, phase: 'first round of sampling' });

/** The widest target the schema allows: the accuracy chart lists every difficulty a run could have. */
const WIDEST = selfImproveSchema.target_digits.max;

/** The accuracies a run with these settings logs: 1 digit up to its target_digits (the default where a run has none). */
export function accuracySeries(settings: Settings): string[] {
  const target = settings.target_digits;
  return accuracyMetrics(typeof target === 'number' ? target : selfImproveSchema.target_digits.default);
}

export const SELF_IMPROVE_CHARTS: ChartSpec[] = [
  {
    title: 'Held-out accuracy by difficulty after each round (one line per number of digits)',
    metrics: accuracyMetrics(WIDEST),
    seriesOf: accuracySeries,
    axis: 'share right',
    kind: 'eval',
    domain: [0, 1],
    stepAxis: ROUNDS,
  },
  { title: 'Kept samples: how many, and the share really right', metrics: ['kept_precision', 'sample_accuracy'], axis: 'share', kind: 'train', domain: [0, 1], stepAxis: ROUNDS, startsAt: FIRST_SAMPLED_ROUND },
  { title: 'Samples kept per round', metrics: ['kept'], kind: 'train', stepAxis: ROUNDS, startsAt: FIRST_SAMPLED_ROUND },
  { title: 'Difficulty each round trained on', metrics: ['difficulty'], kind: 'train', stepAxis: ROUNDS },
  { title: 'Fine-tuning loss (mean over the round)', metrics: ['loss'], kind: 'train', stepAxis: ROUNDS },
];
