'use client';

import { LabShell, type LabDefinition } from '../shell/LabShell';
import { AGENT_CHARTS } from './charts';
import { TrajectoryViewer } from './TrajectoryViewer';

const AGENT_LAB: LabDefinition<'agent'> = {
  slug: 'agent',
  trainer: 'agent',
  fields: [
    'learning_rate', 'num_generations', 'per_device_train_batch_size', 'max_steps', 'task', 'use_tools', 'max_tool_calling_iterations',
    'tool_failure_rate', 'answer_attempts', 'reward_weight_correctness', 'reward_weight_format', 'reward_weight_tool_cost', 'train_on_tool_results', 'init_from',
    'beta', 'epsilon', 'temperature', 'loss_type', 'scale_rewards', 'max_completion_length', 'eval_steps', 'seed',
  ],
  charts: AGENT_CHARTS,
  inspector: { title: 'Trajectory viewer', render: (samples) => <TrajectoryViewer samples={samples} /> },
  evalMetric: ['eval/accuracy', 'held-out accuracy', true],
};

/** The agent lab: GRPO on tool-use episodes (calculator, memory, a second try), TRL's names, live charts, the trajectory viewer, runs. */
export default function AgentLab() {
  return <LabShell lab={AGENT_LAB} />;
}
