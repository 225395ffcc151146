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
};

/** The LoRA lab: fine-tune the addition model on subtraction, fully or by rank-r adapters, and compare the runs. */
export default function LoraLab() {
  return <LabShell lab={LORA_LAB} />;
}
