/**
 * The one model and task the LM labs, the CLI and the shipped checkpoints share. Changing either means
 * rebuilding the checkpoints (`npm run build:checkpoints`): loading a checkpoint checks the shapes.
 */
import type { TinyLMConfig } from '@/lib/models/config';
import { configForTask } from '@/lib/models/presets';
import { createAgentTask, type AgentTask, type AgentTaskKind } from '@/lib/tasks/agent';
import { createMemoryTask } from '@/lib/tasks/agent-memory';
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
  return kind === 'two_step' ? createTwoStepTask() : kind === 'memory' ? createMemoryTask() : createAgentTask();
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
/**
 * The memory task's model: room for "[a=37][b=52]; c=81 d=20 e=44 b?[b]=52 #### 52" plus EOS and two spare tokens
 * (context 10 + 48 = 58), and a sliding attention window of 12 tokens. Over its 2 layers a logit then depends on the
 * last 2·11 + 1 = 23 tokens only: when the policy answers, the prompt's facts and its own first turn are out of reach
 * (the earliest answer digit, "; c=81 d=20 e=44 b?####5", is predicted at position 32 and sees 10…32), while copying
 * a fact into a memory call (12 tokens back at most) stays within one layer's window.
 */
export const MEMORY_MAX_COMPLETION = 48;
export const MEMORY_SLIDING_WINDOW = 12;
/**
 * The product task with a second try (the reflect preset): room for a wrong answer, the reply, and a call with the
 * right answer, "#### 8000<eos>?[999*9]=8991 #### 8991<eos>" (34), and a few to spare (context 7 + 40 = 47). A model
 * of its own: the product model's 26 do not fit a second try with a call.
 */
export const AGENT_REFLECT_MAX_COMPLETION = 40;
/** The longest completion each agent task's model fits; `attempts` 2 on products takes the reflect model. */
export function agentMaxCompletion(kind: AgentTaskKind, attempts = 1): number {
  if (kind === 'two_step') return AGENT_TWO_STEP_MAX_COMPLETION;
  if (kind === 'memory') return MEMORY_MAX_COMPLETION;
  return attempts > 1 ? AGENT_REFLECT_MAX_COMPLETION : AGENT_MAX_COMPLETION;
}
export function agentModelConfig(task: AgentTask, attempts = 1): TinyLMConfig {
  const config = configForTask({ tokenizer: task.tokenizer, promptLength: task.promptLength, maxCompletionLength: agentMaxCompletion(task.kind, attempts) });
  return task.kind === 'memory' ? { ...config, sliding_window: MEMORY_SLIDING_WINDOW } : config;
}

/**
 * How agent_multistep_sft is made (scripts/build-checkpoints.ts, seed 0): demonstrations follow the two-call plan with
 * probability toolRate, else answer from memory; failureRate of the planning ones have a failed call ("=?"), made
 * again with probability retryRate, else given up on (answered from memory). Stopped at `steps`, where greedy
 * decoding plans on some held-out problems (35%) and not on others, and gives up after every failed call: GRPO has
 * room to teach both.
 */
export const AGENT_MULTISTEP_SFT = { toolRate: 0.5, failureRate: 0.5, retryRate: 0.3, steps: 480 } as const;

/**
 * How agent_memory_sft is made (seed 0): demonstrations write both facts and read the asked one with probability
 * toolRate, else end the turn and answer (a guess to imitate, since the facts are out of the window). Stopped at
 * `steps`, where greedy decoding uses memory on some held-out problems and not on others: GRPO has room.
 */
export const AGENT_MEMORY_SFT = { toolRate: 0.4, steps: 300 } as const;
/**
 * How agent_reflect_sft is made (seed 0): the product demonstrations of agent_sft (toolRate of them call), and
 * retryRate of those that answer from memory first give a wrong answer, get "?" and try again, with a call as often
 * as a first try has one (toolRate). The wrong answer is context (mask 0): the model imitates the second try, never
 * the mistake. So SFT teaches that a try follows "?", not that it should call: that is left to GRPO.
 */
export const AGENT_REFLECT_SFT = { toolRate: 0.2, retryRate: 0.2, steps: 700 } as const;
/**
 * How agent_reflect_feedback_sft is made (seed 0): agent_reflect_sft's recipe with more wrong first tries (retryRate)
 * and more calls on the second try (secondToolRate). agent_reflect_sft's second tries sample a call too rarely for
 * GRPO to find one (in the exploration that chose this recipe, not a claim: 0 of 40 sampled second tries, and 80
 * steps of reflect_feedback from it left the fix rate at 1-2.5% on seeds 0 and 1); from this one greedy decoding still never calls (fix rate 2.5%) but sampling does.
 */
export const AGENT_REFLECT_FEEDBACK_SFT = { toolRate: 0.2, retryRate: 0.3, secondToolRate: 0.3, steps: 700 } as const;

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
  /** The memory task's model (sliding window 12) after SFT on demonstrations, half of them using the memory tool. */
  agent_memory_sft: 'models/agent-memory-sft.arlw',
  /** The product task's model with room for a second try, after SFT on demonstrations, a few with a wrong first try fixed. */
  agent_reflect_sft: 'models/agent-reflect-sft.arlw',
  /** The same model after SFT with more wrong first tries and more calls after "?": the reflect_feedback preset's start. */
  agent_reflect_feedback_sft: 'models/agent-reflect-feedback-sft.arlw',
  /** The team lab's receiver after SFT on one convention for reading the channel (lib/train/team-sft.ts). */
  team_receiver_sft: 'models/team-receiver-sft.arlw',
  /** The self-improvement lab's round 0: its model after SFT on the demonstrations (scripts/build-self-improve-checkpoint.ts). */
  self_improve_sft: 'models/self-improve-sft.arlw',
  /** The vision lab's model (4 × 4 pictures, mixed questions) after its SFT phase on described pictures (lib/train/vision-sft.ts). */
  vision_sft: 'models/vision-sft.arlw',
} as const;

export type CheckpointName = keyof typeof CHECKPOINTS;

/**
 * The SFT checkpoint an agent run starts from: the task's, on products with a second try the reflect model's, and
 * with the calculator opened by the verdict (tool_after_verdict) the one whose second tries sometimes call.
 */
export function agentCheckpoint(kind: AgentTaskKind, attempts: number, toolAfterVerdict = false): CheckpointName {
  if (kind === 'two_step') return 'agent_multistep_sft';
  if (kind === 'memory') return 'agent_memory_sft';
  if (attempts > 1) return toolAfterVerdict ? 'agent_reflect_feedback_sft' : 'agent_reflect_sft';
  return 'agent_sft';
}
