'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { COUNTING_KINDS, MIXED_KINDS, VISION_QUESTION_KINDS } from '@/lib/tasks/vision';
import type { Settings } from '@/ui/settings';
import { metricWords } from '../shell/metricWords';
import { VisionViewer } from './VisionViewer';

/** The GRPO phase starts after sft_steps steps of SFT: its charts say so until then. */
const GRPO_PHASE = (settings: Settings) => ({ step: Number(settings.sft_steps) + 1, phase: 'GRPO phase' });
/** Where SFT ends and GRPO begins, marked on the charts that span both phases (none from the checkpoint: GRPO from step 1). */
const SFT_END = (settings: Settings) => (Number(settings.sft_steps) > 0 ? [{ step: Number(settings.sft_steps), label: 'GRPO starts' }] : []);
/** The SFT phase's charts, shown only for runs that have one (from_scratch and the presets that build their own model). */
const HAS_SFT = (settings: Settings) => Number(settings.sft_steps) > 0;

const VISION_LAB: LabDefinition<'vision'> = {
  slug: 'vision',
  trainer: 'vision',
  fields: [
    'questions', 'grid_size', 'occupancy', 'use_image', 'init_from', 'sft_steps', 'sft_learning_rate', 'sft_batch_size',
    'learning_rate', 'num_generations', 'per_device_train_batch_size', 'max_steps', 'beta', 'epsilon', 'temperature', 'loss_type', 'scale_rewards',
    'max_grad_norm', 'eval_steps', 'eval_samples', 'seed',
  ],
  charts: [
    // One line across both phases: the SFT phase's last evaluation is where GRPO starts from.
    { title: 'Held-out accuracy (SFT, then GRPO)', metrics: ['eval/accuracy'], kind: 'eval', domain: [0, 1], marks: SFT_END },
    {
      title: 'Held-out accuracy by question',
      metrics: VISION_QUESTION_KINDS.map((kind) => `eval/accuracy_${kind}`),
      axis: 'share right',
      kind: 'eval',
      domain: [0, 1],
      // Only the kinds the run asks: the default asks no "how many shapes", the counting preset no "colour at a cell".
      seriesOf: (settings) => (settings.questions === 'counting' ? COUNTING_KINDS : MIXED_KINDS).map((kind) => `eval/accuracy_${kind}`),
    },
    // Each phase's loss on its own axis: SFT's cross-entropy runs 0–3, GRPO's loss stays near 0 and would be a flat line beside it.
    { title: 'SFT phase: loss (cross-entropy)', metrics: ['sft/loss'], axis: 'cross-entropy', kind: 'train', appliesTo: HAS_SFT },
    { title: 'SFT phase: answer tokens predicted right', metrics: ['sft/mean_token_accuracy'], kind: 'train', domain: [0, 1], appliesTo: HAS_SFT },
    { title: 'GRPO phase: loss', metrics: ['loss'], axis: 'loss', kind: 'train', startsAt: GRPO_PHASE },
    { title: 'GRPO phase: reward (mean and std)', metrics: ['reward', 'reward_std'], axis: 'reward', kind: 'train', startsAt: GRPO_PHASE },
    { title: 'GRPO phase: groups whose answers all scored the same', metrics: ['frac_reward_zero_std'], kind: 'train', domain: [0, 1], startsAt: GRPO_PHASE },
    { title: 'GRPO phase: entropy', metrics: ['entropy'], kind: 'train', startsAt: GRPO_PHASE },
  ],
  inspector: { title: 'Pictures, answers and where the model looks', render: (samples) => <VisionViewer samples={samples} /> },
  evalMetric: ['eval/accuracy', 'held-out accuracy', true],
  comparisons: [
    {
      label: 'The default run and text_only on one seed, overlaid (text_only trains its own 800 SFT steps first, the default starts from the checkpoint that holds them): the gap between their ends is what looking at the picture is worth.',
      presets: ['default', 'text_only'],
      columns: [
        { label: 'held-out accuracy', metric: 'eval/accuracy', read: 'final', percent: true },
        // Named as the charts' legends name them (metricWords).
        { label: metricWords('eval/accuracy_count_colour'), metric: 'eval/accuracy_count_colour', read: 'final', percent: true },
        { label: metricWords('eval/accuracy_colour_at'), metric: 'eval/accuracy_colour_at', read: 'final', percent: true },
        { label: 'mean reward', metric: 'reward', read: 'recent' },
      ],
    },
  ],
};

/** The vision lab: a tiny vision-language model, SFT on described pictures then GRPO, its answers and attention on the pictures. */
export default function VisionLab() {
  return <LabShell lab={VISION_LAB} />;
}
