'use client';

import { labNamed } from '@/content/labs';
import { LabShell, type LabDefinition } from '../shell/LabShell';
import { SpectrumPanel } from './SpectrumPanel';

const LORA_LAB: LabDefinition<'sft'> = {
  slug: 'lora',
  trainer: 'sft',
  presets: labNamed('lora')!.presets,
  fields: ['use_peft', 'r', 'lora_alpha', 'use_rslora', 'target_modules', 'learning_rate', 'replay_fraction', 'max_steps', 'eval_steps', 'per_device_train_batch_size', 'seed'],
  charts: [
    { title: 'New task: held-out subtraction accuracy', metrics: ['eval/accuracy'], kind: 'eval', domain: [0, 1] },
    { title: 'Old task: held-out addition accuracy (forgetting)', metrics: ['eval/old_task_accuracy'], kind: 'eval', domain: [0, 1] },
    { title: 'Training loss', metrics: ['loss'], kind: 'train' },
    { title: 'Trainable parameters', metrics: ['trainable_params'], kind: 'eval' },
    { title: 'Trainable share of the model (%)', metrics: ['trainable_percent'], kind: 'eval', domain: [0, 100] },
    { title: 'Optimizer state (bytes, Adam’s two moments)', metrics: ['optimizer_state_bytes'], kind: 'eval' },
  ],
  inspector: { title: 'What the update looks like', render: (samples) => <SpectrumPanel samples={samples} /> },
  actions: [
    { name: 'merge_check', label: 'Merge and compare', help: 'Folds s·A·B into W and compares the outputs with the unmerged model’s.' },
    { name: 'export_adapter', label: 'Export the adapter', help: 'Only A and B: compare its size with the full checkpoint’s.' },
  ],
  evalMetric: ['eval/accuracy', 'subtraction accuracy', true],
  comparisons: [
    {
      label: 'Full fine-tuning against LoRA at ranks 1, 4 and 16, rsLoRA at rank 16 and full fine-tuning with replay: the runs of chapter 2’s table, on one seed.',
      presets: ['full_ft', 'lora_r1', 'lora_r4', 'lora_r16', 'lora_r16_rslora', 'full_ft_replay'],
      columns: [
        { label: 'subtraction accuracy', metric: 'eval/accuracy', read: 'final', percent: true },
        { label: 'addition accuracy (old task)', metric: 'eval/old_task_accuracy', read: 'final', percent: true },
        { label: 'trainable parameters', metric: 'trainable_params', read: 'final' },
        { label: 'optimizer state (bytes)', metric: 'optimizer_state_bytes', read: 'final' },
      ],
    },
  ],
};

/** The LoRA lab: fine-tune the addition model on subtraction, fully or by rank-r adapters, and compare the runs. */
export default function LoraLab() {
  return <LabShell lab={LORA_LAB} />;
}
