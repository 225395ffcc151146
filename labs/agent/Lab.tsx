'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { AGENT_CHARTS } from './charts';
import { TrajectoryViewer } from './TrajectoryViewer';

const AGENT_LAB: LabDefinition<'agent'> = {
  slug: 'agent',
  trainer: 'agent',
  fields: [
    'learning_rate', 'num_generations', 'per_device_train_batch_size', 'max_steps', 'task', 'use_tools', 'max_tool_calling_iterations',
    'tool_failure_rate', 'answer_attempts', 'tool_after_verdict', 'reward_weight_correctness', 'reward_weight_format', 'reward_weight_tool_cost', 'train_on_tool_results', 'init_from',
    'beta', 'epsilon', 'temperature', 'loss_type', 'scale_rewards', 'max_completion_length', 'eval_steps', 'seed',
  ],
  charts: AGENT_CHARTS,
  inspector: { title: 'Trajectory viewer', render: (samples) => <TrajectoryViewer samples={samples} /> },
  evalMetric: ['eval/accuracy', 'held-out accuracy', true],
  comparisons: [
    {
      label: 'The default run against train_on_observations, the same run trained on the calculator’s tokens too (the masking bug): compare the log-prob of those tokens (chapter 1).',
      presets: ['default', 'train_on_observations'],
      columns: [
        { label: 'held-out accuracy', metric: 'eval/accuracy', read: 'final', percent: true },
        { label: 'log-prob of the calculator’s tokens', metric: 'observations/mean_logprob', read: 'recent' },
        { label: 'results written without a calculator', metric: 'eval/fabricated_result_rate', read: 'final', percent: true },
      ],
    },
    {
      label: 'memory against memory_no_tool, the same task, checkpoint and window with the memory tool off: the gap is what the memory tool is worth (chapter 10).',
      presets: ['memory', 'memory_no_tool'],
      columns: [
        { label: 'held-out accuracy', metric: 'eval/accuracy', read: 'final', percent: true },
        { label: 'memory use', metric: 'eval/memory_use_rate', read: 'final', percent: true },
      ],
    },
    {
      label: 'reflect against reflect_feedback on one seed: the calculator from the first try, or only after the verdict "?". The second shows a policy that uses its second try; the first, one that learns to call at once (chapter 10).',
      presets: ['reflect', 'reflect_feedback'],
      columns: [
        { label: 'right on the first try', metric: 'eval/first_try_accuracy', read: 'final', percent: true },
        { label: 'fixed by the second', metric: 'eval/fix_rate', read: 'final', percent: true },
        { label: 'right after the second', metric: 'eval/accuracy', read: 'final', percent: true },
        { label: 'known facts missed, then fixed', metric: 'eval/deliberate_miss_rate', read: 'final', percent: true },
      ],
    },
  ],
};

/** The agent lab: GRPO on tool-use episodes (calculator, memory, a second try), TRL's names, live charts, the trajectory viewer, runs. */
export default function AgentLab() {
  return <LabShell lab={AGENT_LAB} />;
}
