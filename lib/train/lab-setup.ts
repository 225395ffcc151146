/**
 * The one model and task the LM labs, the CLI and the shipped checkpoints share. Changing either means
 * rebuilding the checkpoints (`npm run build:checkpoints`): loading a checkpoint checks the shapes.
 */
import type { TinyLMConfig } from '@/lib/models/config';
import { configForTask } from '@/lib/models/presets';
import { createAgentTask, type AgentTask, type AgentTaskKind } from '@/lib/tasks/agent';
import { createTwoStepTask } from '@/lib/tasks/agent-two-step';
import { createArithmeticTask, type ArithmeticTask } from '@/lib/tasks/arithmetic';

/**
 * 2-digit addition with a scratchpad, "07+45=" → "12,5 #### 52": the column sums give a 2-layer model a
 * way to carry, so SFT reaches a useful (and still imperfect) accuracy within a few hundred steps.
 */
export function createLabTask(): ArithmeticTask {
  return createArithmeticTask({ digits: 2, operators: ['+'], scratchpad: true });
}

/** The arithmetic lab's datasets: addition (the labs' task) and subtraction (the LoRA lab's new task), same model. */
export function arithmeticTaskFor(dataset: 'addition' | 'subtraction'): ArithmeticTask {
  return dataset === 'addition' ? createLabTask() : createArithmeticTask({ digits: 2, operators: ['-'], scratchpad: true });
}

/** 27.6k parameters (lib/models/presets.ts has the measurements behind the size). */
export function labModelConfig(task: ArithmeticTask): TinyLMConfig {
  return configForTask(task);
}

/**
 * The agent lab's task: 3-digit × 1-digit products with a calculator (lib/tasks/agent.ts), or, for planning, two
 * operations that take two calls (lib/tasks/agent-two-step.ts).
 */
export function createAgentLabTask(kind: AgentTaskKind = 'product'): AgentTask {
  return kind === 'two_step' ? createTwoStepTask() : createAgentTask();
}

/**
 * The agent lab's model: the arithmetic lab's shape, with the agent vocabulary and room for the longest episode,
 * "[999*9]=8991 #### 8991" plus EOS, and a few tokens to spare for a second call (context 7 + 26 = 33).
 */
export const AGENT_MAX_COMPLETION = 26;
/**
 * The two-step task's model: room for the longest two-call episode with one failed call made again,
 * "[999*9]=8991 [8991+99]=? [8991+99]=9090 #### 9090" plus EOS (context 10 + 50 = 60).
 */
export const AGENT_TWO_STEP_MAX_COMPLETION = 50;
/** The longest completion each agent task's model fits. */
export const agentMaxCompletion = (kind: AgentTaskKind) => (kind === 'two_step' ? AGENT_TWO_STEP_MAX_COMPLETION : AGENT_MAX_COMPLETION);
export function agentModelConfig(task: AgentTask): TinyLMConfig {
  return configForTask({ tokenizer: task.tokenizer, promptLength: task.promptLength, maxCompletionLength: agentMaxCompletion(task.kind) });
}

/**
 * How agent_multistep_sft is made (scripts/build-checkpoints.ts, seed 0): demonstrations follow the two-call plan with
 * probability toolRate, else answer from memory; failureRate of the planning ones have a failed call ("=?"), made
 * again with probability retryRate, else given up on (answered from memory). Stopped at `steps`, where greedy
 * decoding plans on some held-out problems (35%) and not on others, and gives up after every failed call: GRPO has
 * room to teach both.
 */
export const AGENT_MULTISTEP_SFT = { toolRate: 0.5, failureRate: 0.5, retryRate: 0.3, steps: 480 } as const;

/** Shipped checkpoints, relative to the site root (served from public/, read from there by the CLI). */
export const CHECKPOINTS = {
  /** Freshly initialised weights (seed 0): where SFT starts. */
  base: 'models/base.arlw',
  /** The base model after a deliberately short SFT run: right on some problems, wrong on many, so RL has room. */
  sft: 'models/sft.arlw',
  /** The same SFT run continued to 600 steps: addition learned well (the LoRA lab's old task). */
  addition_sft: 'models/addition-sft.arlw',
  /** The agent model after SFT on demonstrations that use the calculator about half the time: it calls sometimes. */
  agent_sft: 'models/agent-sft.arlw',
  /** The two-step agent model after SFT on demonstrations, some with two calls: it plans its calls sometimes. */
  agent_multistep_sft: 'models/agent-multistep-sft.arlw',
  /** The team lab's receiver after SFT on one convention for reading the channel (lib/train/team-sft.ts). */
  team_receiver_sft: 'models/team-receiver-sft.arlw',
} as const;

export type CheckpointName = keyof typeof CHECKPOINTS;
