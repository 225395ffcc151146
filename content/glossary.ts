/**
 * The course glossary: each term once, a one-line definition, and the section that teaches it. The /glossary/
 * page is built from this list; tests/content/reference-pages.test.ts checks that every section exists.
 */
export interface GlossaryEntry {
  term: string;
  /** One line, plain text. */
  definition: string;
  /** Chapter slug and heading anchor of the section that teaches the term. */
  chapter: string;
  anchor: string;
}

export const glossary: readonly GlossaryEntry[] = [
  { term: 'Advantage', definition: 'How much better an action turned out than the policy’s average from that state; the weight of its log-probability in the gradient.', chapter: 'ppo', anchor: 'baselines' },
  { term: 'Advantage whitening', definition: 'Subtracting the batch mean of the advantages and dividing by their standard deviation before the policy loss.', chapter: 'ppo', anchor: 'advantage-whitening' },
  { term: 'Agentic RL', definition: 'Reinforcement learning of an LLM that acts over many steps, calling tools and reading their results, in a partially observable environment.', chapter: 'agentic-rl', anchor: 'pbrft-and-agentic-rl-side-by-side' },
  { term: 'Asynchronous rollouts', definition: 'Generating the next batch with slightly stale weights while the trainer learns from the last one, so neither side waits.', chapter: 'distributed-training', anchor: 'asynchronous-rollouts' },
  { term: 'Baseline', definition: 'A quantity subtracted from the return that does not depend on the action: it leaves the policy gradient unbiased and lowers its variance.', chapter: 'ppo', anchor: 'baselines' },
  { term: 'Bradley–Terry model', definition: 'The preference model in which one response beats another with probability σ of their reward difference.', chapter: 'dpo', anchor: 'why-the-partition-function-disappears' },
  { term: 'Catastrophic forgetting', definition: 'Losing abilities the model had before fine-tuning because the new data never exercises them.', chapter: 'sft-lora', anchor: 'catastrophic-forgetting' },
  { term: 'Clip-higher', definition: 'DAPO’s asymmetric clip, a larger upper bound ε_high, so rare tokens with positive advantage keep their gradient longer.', chapter: 'research-2025', anchor: 'clip-higher' },
  { term: 'Clipped surrogate objective', definition: 'PPO’s policy objective: the minimum of the ratio-weighted advantage and the same with the ratio clipped to [1 − ε, 1 + ε].', chapter: 'ppo', anchor: 'the-clipped-surrogate-objective' },
  { term: 'Completion-only loss', definition: 'The SFT loss computed on the completion tokens only; the prompt is read but not trained on.', chapter: 'pipeline', anchor: 'completion-only-loss' },
  { term: 'Conservative DPO (cDPO)', definition: 'DPO with label smoothing: it assumes each preference label is flipped with probability ν and stops widening margins past log((1 − ν)/ν).', chapter: 'dpo', anchor: 'conservative-dpo-label-smoothing' },
  { term: 'Contextual bandit', definition: 'A one-step decision problem: observe a context, choose one action, receive one reward; PBRFT’s shape.', chapter: 'agentic-rl', anchor: 'preference-fine-tuning-as-a-one-step-problem' },
  { term: 'Credit assignment', definition: 'Deciding which of many actions deserve the credit for a reward that arrives only at the end.', chapter: 'agentic-rl', anchor: 'credit-assignment' },
  { term: 'Critic (value head)', definition: 'A learned value function V(s) that predicts the return from each state or prefix; in PPO for LLMs, a transformer with a linear value head.', chapter: 'ppo', anchor: 'the-critic-a-value-head' },
  { term: 'Data parallelism', definition: 'Every GPU holds the whole model and a slice of the batch; gradients are averaged with an all-reduce.', chapter: 'distributed-training', anchor: 'data-parallelism-and-the-ring-all-reduce' },
  { term: 'Difficulty bias', definition: 'Dividing advantages by the group’s standard deviation gives prompts that are almost always or almost never solved more weight per sample.', chapter: 'grpo', anchor: 'scaling-group-batch-or-none' },
  { term: 'DPO', definition: 'Direct Preference Optimization: logistic regression of preference pairs on the policy’s implicit reward, with no reward model and no sampling.', chapter: 'dpo', anchor: 'why-the-partition-function-disappears' },
  { term: 'Dynamic sampling', definition: 'DAPO’s filter that drops groups whose completions all scored the same and samples more prompts until the batch carries signal.', chapter: 'research-2025', anchor: 'dynamic-sampling' },
  { term: 'Entropy bonus', definition: 'A small reward for keeping the policy’s distribution spread out, against premature collapse.', chapter: 'ppo', anchor: 'the-entropy-bonus' },
  { term: 'GAE', definition: 'Generalised advantage estimation: a (γλ)-discounted sum of TD residuals, trading the bias of the critic against the variance of the return.', chapter: 'ppo', anchor: 'generalised-advantage-estimation' },
  { term: 'Group-relative advantage', definition: 'GRPO’s advantage: a completion’s reward minus the mean of its group, usually divided by the group’s standard deviation.', chapter: 'grpo', anchor: 'group-relative-advantages' },
  { term: 'GRPO', definition: 'Group Relative Policy Optimization: PPO’s clipped objective with the critic replaced by the mean reward of several completions to the same prompt.', chapter: 'grpo', anchor: 'why-grpo-drops-the-critic' },
  { term: 'GSPO', definition: 'Group Sequence Policy Optimization: GRPO with one length-normalised importance ratio per completion instead of one per token.', chapter: 'grpo', anchor: 'gspo-one-importance-ratio-per-sequence' },
  { term: 'Implicit reward', definition: 'β times the log-ratio of the policy to the reference for a completion: the reward DPO’s policy is optimal for.', chapter: 'dpo', anchor: 'reading-the-reward-off-the-policy' },
  { term: 'Importance ratio', definition: 'The probability of a sampled token under the current policy divided by its probability under the policy that sampled it.', chapter: 'ppo', anchor: 'the-probability-ratio' },
  { term: 'IPO', definition: 'Identity Preference Optimisation: a squared loss that pulls the (per-token) log-ratio difference to the finite target 1/(2β).', chapter: 'dpo', anchor: 'ipo' },
  { term: 'k3 estimator', definition: 'The per-token KL estimate u − log u − 1 with u = π_ref/π_θ: unbiased and never negative.', chapter: 'grpo', anchor: 'the-kl-term-and-the-k3-estimator' },
  { term: 'KL penalty', definition: 'A cost on divergence from a frozen reference model, in the reward (PPO for LLMs) or in the loss (GRPO).', chapter: 'ppo', anchor: 'kl-control' },
  { term: 'Length bias', definition: 'Averaging each completion’s tokens before averaging completions makes long wrong answers cheaper per token than short ones.', chapter: 'grpo', anchor: 'a-2-token-and-an-8-token-completion' },
  { term: 'LoRA', definition: 'Low-rank adaptation: freeze a weight matrix and train a product of two thin matrices added to it, scaled by α/r.', chapter: 'sft-lora', anchor: 'lora-a-low-rank-update' },
  { term: 'maj@k', definition: 'Accuracy of the most common final answer among k samples (self-consistency).', chapter: 'pipeline', anchor: 'passk-pass1-and-majk' },
  { term: 'Markov decision process (MDP)', definition: 'States, actions, transition probabilities, rewards and a discount: the standard model of sequential decisions.', chapter: 'agentic-rl', anchor: 'markov-decision-processes' },
  { term: 'Observation masking', definition: 'Excluding tool outputs and other environment tokens from the loss, so the policy is never trained to predict them.', chapter: 'agent-data', anchor: 'which-tokens-to-train-on' },
  { term: 'Packing', definition: 'Putting several short examples into one row of max_length tokens, with attention and positions confined to each example.', chapter: 'sft-lora', anchor: 'packing-and-its-attention-masks' },
  { term: 'pass@k', definition: 'The probability that at least one of k samples is correct, estimated without bias from n ≥ k samples.', chapter: 'pipeline', anchor: 'passk-pass1-and-majk' },
  { term: 'PBRFT', definition: 'Preference-based reinforcement fine-tuning: one prompt, one response, one reward, as in RLHF and DPO.', chapter: 'agentic-rl', anchor: 'preference-fine-tuning-as-a-one-step-problem' },
  { term: 'Pipeline bubble', definition: 'The idle time of pipeline stages waiting for the first micro-batches to arrive and the last to leave.', chapter: 'distributed-training', anchor: 'pipeline-parallelism-and-the-bubble' },
  { term: 'POMDP', definition: 'A partially observable MDP: the agent sees observations drawn from the state, not the state itself, and acts on its history.', chapter: 'agentic-rl', anchor: 'partial-observability' },
  { term: 'PPO', definition: 'Proximal Policy Optimization: several gradient steps per rollout on a clipped, importance-weighted policy objective, with a learned critic.', chapter: 'ppo', anchor: 'the-clipped-surrogate-objective' },
  { term: 'Process reward model (PRM)', definition: 'A reward model that scores each step of a solution rather than only the final answer.', chapter: 'research-2025', anchor: 'process-rewards-prms-and-prime' },
  { term: 'QLoRA', definition: 'LoRA on a base model stored in 4-bit NF4, with the adapters and their optimiser state in higher precision.', chapter: 'sft-lora', anchor: 'qlora-in-words' },
  { term: 'REINFORCE', definition: 'The basic policy-gradient estimator: the log-probability gradient of each sampled action times the return that followed it.', chapter: 'ppo', anchor: 'reinforce-and-its-variance' },
  { term: 'Reference model', definition: 'A frozen copy of the starting (usually SFT) policy that KL penalties and DPO measure the trained policy against.', chapter: 'ppo', anchor: 'kl-control' },
  { term: 'Return', definition: 'The discounted sum of the rewards from a step to the end of the episode.', chapter: 'agentic-rl', anchor: 'markov-decision-processes' },
  { term: 'Reward hacking', definition: 'Raising the reward by exploiting a flaw in how it is computed instead of doing the task.', chapter: 'grpo', anchor: 'reward-hacking' },
  { term: 'RLVR', definition: 'Reinforcement learning with verifiable rewards: a program checks each answer, so no reward model or human labels are needed.', chapter: 'pipeline', anchor: 'the-rlvr-loop-end-to-end' },
  { term: 'Robust DPO (rDPO)', definition: 'A DPO loss whose expectation under label noise ν equals the clean loss; it never stops widening margins.', chapter: 'dpo', anchor: 'robust-dpo' },
  { term: 'SFT', definition: 'Supervised fine-tuning: maximising the likelihood of demonstration completions given their prompts.', chapter: 'sft-lora', anchor: 'what-supervised-fine-tuning-optimises' },
  { term: 'TD residual', definition: 'r_t + γV(s_{t+1}) − V(s_t): how much better one step turned out than the critic predicted.', chapter: 'ppo', anchor: 'td-residuals' },
  { term: 'Tensor parallelism', definition: 'Splitting each layer’s weight matrices across GPUs, with an all-reduce inside every layer.', chapter: 'distributed-training', anchor: 'tensor-parallelism-inside-a-transformer-layer' },
  { term: 'Trajectory', definition: 'The sequence of states, actions and rewards of one episode.', chapter: 'agentic-rl', anchor: 'markov-decision-processes' },
  { term: 'Value clipping', definition: 'Keeping the critic’s new prediction within cliprange_value of the rollout’s and taking the larger squared error.', chapter: 'ppo', anchor: 'the-value-loss-and-value-clipping' },
  { term: 'Weight synchronisation', definition: 'Copying the trainer’s updated weights to the inference engine after each update so it samples from the current policy.', chapter: 'distributed-training', anchor: 'weight-synchronisation' },
  { term: 'Zero-variance group', definition: 'A GRPO group whose completions all scored the same: every advantage is zero and it teaches nothing (frac_reward_zero_std).', chapter: 'grpo', anchor: 'groups-that-carry-no-signal' },
  { term: 'ZeRO', definition: 'Sharding optimiser states, gradients and finally weights across data-parallel GPUs instead of replicating them.', chapter: 'distributed-training', anchor: 'zero-sharding-the-model-states' },
];

/** The anchor of a term on /glossary/: its lower-case words joined by hyphens. */
export function glossaryId(entry: Pick<GlossaryEntry, 'term'>): string {
  return entry.term
    .toLowerCase()
    .replace(/@/g, '-at-')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
