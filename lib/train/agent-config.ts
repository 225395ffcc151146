import { AGENT_TASKS } from '@/lib/tasks/agent';
import { sftOrBase, type Presets, type Schema } from './config';
import { grpoSchema } from './grpo-config';
import { AGENT_MAX_COMPLETION, AGENT_REFLECT_MAX_COMPLETION, AGENT_TWO_STEP_MAX_COMPLETION, MEMORY_MAX_COMPLETION } from './lab-setup';

/**
 * The agent lab: GRPO (GRPOConfig's names, TRL v1.13) on multi-turn episodes with a calculator tool. The GRPO fields
 * keep their defaults and reasons from grpo-config.ts; the fields below them are the agent's.
 */
export const agentSchema = {
  learning_rate: { ...grpoSchema.learning_rate, default: 3e-4, reason: 'As the arithmetic lab: from the shipped checkpoint it lifts held-out accuracy from 46% to 98% in 10 steps.' },
  per_device_train_batch_size: grpoSchema.per_device_train_batch_size,
  num_generations: grpoSchema.num_generations,
  max_completion_length: {
    ...grpoSchema.max_completion_length,
    default: AGENT_MAX_COMPLETION,
    max: AGENT_TWO_STEP_MAX_COMPLETION,
    reason: `Tokens after the prompt, tool results included: one call and its answer take 23; the rest is room for a second call. The two-step task needs up to ${AGENT_TWO_STEP_MAX_COMPLETION} (two calls, one made twice); the product task’s model fits ${AGENT_MAX_COMPLETION} (${AGENT_REFLECT_MAX_COMPLETION} with a second try), the memory task’s ${MEMORY_MAX_COMPLETION}.`,
  },
  temperature: grpoSchema.temperature,
  beta: grpoSchema.beta,
  epsilon: grpoSchema.epsilon,
  epsilon_high: grpoSchema.epsilon_high,
  loss_type: grpoSchema.loss_type,
  scale_rewards: grpoSchema.scale_rewards,
  importance_sampling_level: grpoSchema.importance_sampling_level,
  num_iterations: grpoSchema.num_iterations,
  steps_per_generation: grpoSchema.steps_per_generation,
  task: {
    kind: 'choice',
    default: 'product',
    choices: AGENT_TASKS,
    reason: 'Products ("347*6=", one call), two operations ("347*6+58=") with a calculator that answers one per call: two calls, the second using the first’s result (planning), or memory ("a=37 b=52", then distractors and "b?" after the facts have left a 12-token sliding window; a memory tool "[b=52]" … "[b]" keeps them). Each but products has its own model and checkpoint.',
  },
  use_tools: { kind: 'boolean', default: true, reason: 'The tool answers calls; off, a calculator call gets no answer and a memory read gets "=?" (the no_tool presets: the ceiling without tools).' },
  max_tool_calling_iterations: { kind: 'number', default: 2, min: 0, max: 4, integer: true, reason: 'TRL’s name: tool calls answered per episode; a call beyond it ends the episode. One call solves a product, two a two-step problem.' },
  tool_failure_rate: {
    kind: 'number',
    default: 0,
    min: 0,
    max: 0.9,
    reason: 'Share of well-formed calls the calculator fails at random (the error reply "=?"), in training and in evaluation alike (evaluation draws the same failures at every step): a flaky tool, to learn to call again. Off by default.',
  },
  answer_attempts: {
    kind: 'number',
    default: 1,
    min: 1,
    max: 2,
    integer: true,
    reason: 'Not a TRL field: tries per episode. 2 is reflection: after a wrong final answer the environment replies "?" (wrong, never what is right) and the policy tries once more; rewards score the last try. On products it takes a model with room for the second try (its own checkpoint).',
  },
  tool_after_verdict: {
    kind: 'boolean',
    default: false,
    reason: 'Not a TRL field, with answer_attempts 2 on products: the calculator answers only after the verdict "?", so a first try is from memory and the verdict is what opens the tool (the reflect_feedback preset). On, the run starts from its own checkpoint, whose second tries call often enough for GRPO to sample it.',
  },
  reward_weight_correctness: { ...grpoSchema.reward_weight_correctness, reason: 'The verifiable reward: 1 when the number after "####" is the answer (of the last try).' },
  reward_weight_format: { ...grpoSchema.reward_weight_format, default: 0.1, reason: 'A little credit for ending with "#### n" keeps early episodes parseable.' },
  reward_weight_tool_cost: { kind: 'number', default: 0, min: 0, max: 5, reason: 'Subtracted once per call. Off by default: calls are free, as TRL’s tools are. A call pays while it costs less than a right answer earns.' },
  train_on_tool_results: { kind: 'boolean', default: false, reason: 'The masking bug, off: the loss sees only the policy’s own tokens (TRL masks tool results out).' },
  init_from: sftOrBase('Start from the task’s tool-use SFT checkpoint; "base" is the same model untrained (the from_base preset).'),
  max_grad_norm: grpoSchema.max_grad_norm,
  max_steps: { ...grpoSchema.max_steps, default: 60, reason: 'The default run has learned by step 10; the lab card gives its measured time in a browser (npm run record:browser-times).' },
  eval_steps: { ...grpoSchema.eval_steps, default: 5, reason: 'The agent learns within ten steps from the SFT checkpoint: evaluate often enough to see it.' },
  eval_samples: grpoSchema.eval_samples,
  seed: grpoSchema.seed,
} satisfies Schema;

export const agentPresets = {
  default: { description: 'GRPO from the tool-use SFT checkpoint, with the calculator: the agent learns to call it on every hard product, and held-out accuracy climbs from 46% to about 98%.', overrides: {} },
  no_tool: { description: 'The same run with the calculator switched off: the ceiling without tools, about 22% (the times-table facts, and almost no hard product).', overrides: { use_tools: false } },
  from_base: { description: 'GRPO from the untrained model, no SFT: no episode earns a reward, every group has the same score, and nothing is learned (accuracy stays 0).', overrides: { init_from: 'base' } },
  train_on_observations: {
    description: 'The masking bug: the loss includes the calculator’s tokens. Their log-probability under the policy climbs (−10 to −3 nats per token), and from about step 100, when no calculator answers, the model writes "=<number>" after its call itself in 35–52% of the episodes (200 steps).',
    overrides: { train_on_tool_results: true, max_steps: 200, eval_steps: 25 },
  },
  tool_cost: {
    description: 'Each call costs 1.5, more than a right answer earns (1): calls no longer pay, so the agent stops calling and accuracy falls to the no-tool ceiling. At a cost of 0.1 calls still pay and it keeps calling.',
    overrides: { reward_weight_tool_cost: 1.5 },
  },
  multi_step: {
    description:
      'Planning: two operations ("347*6+58=") and a calculator that answers one per call, so the policy must call "[347*6]", read "=2082", then call "[2082+58]". From the two-step SFT checkpoint, which plans both calls on 35% of held-out problems, GRPO makes it plan on every one: calls per episode rise from 0.7 to 2 and held-out accuracy from 35% to 100% by step 10.',
    overrides: { task: 'two_step', max_completion_length: 50, max_tool_calling_iterations: 3, max_steps: 30 },
  },
  multi_step_no_tool: {
    description: 'The same two-step problems with the calculator switched off: the ceiling without tools is 0%, since no product plus or minus a number comes out right from memory.',
    overrides: { task: 'two_step', max_completion_length: 50, use_tools: false, max_steps: 30 },
  },
  retry: {
    description:
      'Self-correction: the two-step problems with a calculator that fails 30% of calls at random ("=?"), and a reward for the right answer only. The SFT checkpoint gives up after a failed call; GRPO teaches it to call again: of the held-out episodes with a failed call, the share that call again rises from 0% to 100% by step 20, and the share that call again and answer right from 0% to about 44%.',
    overrides: { task: 'two_step', max_completion_length: 50, max_tool_calling_iterations: 3, tool_failure_rate: 0.3, reward_weight_format: 0, max_steps: 40, eval_steps: 10 },
  },
  memory: {
    description:
      'Memory: two facts ("a=37 b=52"), then three distractors and a question ("b?") after the facts have left the model’s 12-token sliding window. The policy can write "[b=52]" to a memory tool while it still sees the fact and read "[b]" → "=52" when asked. From an SFT checkpoint whose greedy episodes never use memory (1.5% held-out accuracy: guesses), GRPO makes it use memory on every held-out problem by step 10 (100% accuracy; seed 0, and the claim agent-memory-beats-window checks seeds 0-2).',
    overrides: { task: 'memory', max_completion_length: 48, max_tool_calling_iterations: 3, reward_weight_format: 0, max_steps: 40, eval_steps: 10 },
  },
  memory_no_tool: {
    description: 'The same memory problems and window with the memory tool off (reads get "=?"): the ceiling of a policy that has only its window is a guess, right about 1 time in 90.',
    overrides: { task: 'memory', max_completion_length: 48, max_tool_calling_iterations: 3, reward_weight_format: 0, use_tools: false, max_steps: 40, eval_steps: 10 },
  },
  reflect: {
    description:
      'Reflection: a wrong final answer gets "?" (never the right value) and one more try; the reward is for a right last answer, and each calculator call costs 0.5, so answering from memory first and calling only after "?" pays best. Measured at this scale, GRPO does not learn that: it learns to call the calculator on the first try (first-try accuracy 25% → 94.5% by step 40) and the fix rate falls from 2% to 0% (seed 0; the claim agent-reflect-fixes records it on seeds 0-2; chapter 10 says why).',
    overrides: { answer_attempts: 2, max_completion_length: 40, reward_weight_format: 0, reward_weight_tool_cost: 0.5, max_steps: 40, eval_steps: 10 },
  },
  reflect_feedback: {
    description:
      'Reflection that pays: reflect’s rules and reward, but the calculator answers only after the verdict "?", so the first try is from memory and the verdict is what opens the tool; from its own checkpoint, whose second tries sometimes call. GRPO learns to call after "?" and not before: the fix rate rises from 2.5% to about 60% while first-try accuracy stays near 20% (seeds 0-2: the claim agent-reflect-feedback-fixes).',
    overrides: { answer_attempts: 2, max_completion_length: 40, reward_weight_format: 0, reward_weight_tool_cost: 0.5, tool_after_verdict: true, max_steps: 60, eval_steps: 10 },
  },
} satisfies Presets<typeof agentSchema>;
