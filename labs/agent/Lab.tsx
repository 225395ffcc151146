'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { TrajectoryViewer } from './TrajectoryViewer';

const AGENT_LAB: LabDefinition<'agent'> = {
  slug: 'agent',
  trainer: 'agent',
  fields: [
    'learning_rate', 'num_generations', 'per_device_train_batch_size', 'max_steps', 'task', 'use_tools', 'max_tool_calling_iterations',
    'tool_failure_rate', 'answer_attempts', 'reward_weight_correctness', 'reward_weight_format', 'reward_weight_tool_cost', 'train_on_tool_results', 'init_from',
    'beta', 'epsilon', 'temperature', 'loss_type', 'scale_rewards', 'max_completion_length', 'eval_steps', 'seed',
  ],
  charts: [
    { title: 'Held-out accuracy (all, hard products, times-table facts)', metrics: ['eval/accuracy', 'eval/accuracy_hard', 'eval/accuracy_easy'], axis: 'share right', kind: 'eval', domain: [0, 1] },
    { title: 'Held-out tool use (share of episodes that call, by kind)', metrics: ['eval/tool_call_rate_hard', 'eval/tool_call_rate_easy'], axis: 'share that call', kind: 'eval', domain: [0, 1] },
    { title: 'Calls per episode (held-out)', metrics: ['eval/calls_per_episode'], kind: 'eval' },
    { title: 'After a failed call: calls again, and calls again then answers right (held-out)', metrics: ['eval/retry_rate', 'eval/recovery_rate'], axis: 'share of failures', kind: 'eval', domain: [0, 1] },
    { title: 'Memory use (held-out): wrote the asked fact, read it back and answered with it', metrics: ['eval/memory_use_rate'], axis: 'share of episodes', kind: 'eval', domain: [0, 1] },
    { title: 'Reflection (held-out): right on the first try, right after the second, and fixed by it', metrics: ['eval/first_try_accuracy', 'eval/accuracy', 'eval/fix_rate'], axis: 'share of episodes', kind: 'eval', domain: [0, 1] },
    { title: 'Reward (mean and std)', metrics: ['reward', 'reward_std'], axis: 'reward', kind: 'train' },
    { title: 'Calls per episode, and the share that failed (training)', metrics: ['tools/call_frequency', 'tools/failure_frequency'], axis: 'per episode', kind: 'train' },
    { title: 'Log-prob of the calculator’s tokens under the policy', metrics: ['observations/mean_logprob'], kind: 'train' },
    { title: 'Results the model writes itself when no calculator answers', metrics: ['eval/fabricated_result_rate'], kind: 'eval', domain: [0, 1] },
    { title: 'Episode length (tokens after the prompt)', metrics: ['completions/mean_length'], axis: 'tokens', kind: 'train' },
    { title: 'Loss', metrics: ['loss'], kind: 'train' },
  ],
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
  ],
};

/** The agent lab: GRPO on calculator episodes, TRL's names, live charts, the trajectory viewer, runs. */
export default function AgentLab() {
  return <LabShell lab={AGENT_LAB} />;
}
