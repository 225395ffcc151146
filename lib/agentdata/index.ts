// Agent fine-tuning data: validate tool-call trajectories in OpenAI's chat format, and convert a calculator
// trajectory to the agent lab's tokens and loss mask. Pure TypeScript: no tfjs, nothing evaluated.
export { validateTrajectory } from './validate';
export { toLabEpisode, trajectoryToLab, type LabEpisode, type TokenRole } from './to-lab';
export * from './limits';
export type { Message, ToolCall, ToolDefinition, Trajectory, TrajectoryError, TrajectoryErrorCode, ValidationResult } from './types';
