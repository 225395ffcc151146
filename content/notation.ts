/**
 * The course's notation: every symbol once, with its meaning and the TRL (v1.9) name where TRL has one.
 * Chapters use these symbols and no others for the same ideas. The /notation/ page is built from this list.
 *
 * Why x/y and not the GRPO paper's q/o: in agentic RL `o` is needed for the environment's observations, so
 * the prompt is x and the model's completion is y throughout, as in the DPO and RLHF literature.
 */
export interface NotationEntry {
  /** KaTeX source of the symbol. */
  symbol: string;
  meaning: string;
  /** The TRL config field or logged metric that holds it, when there is one. */
  trl?: string;
  /** Where the symbol is introduced (chapter slug). */
  chapter: string;
}

export const notation: readonly NotationEntry[] = [
  { symbol: 's_t', meaning: 'state at step t: for an LLM policy, the prompt and every token so far', chapter: 'agentic-rl' },
  { symbol: 'a_t', meaning: 'action at step t: for an LLM policy, the next token (or a whole tool call)', chapter: 'agentic-rl' },
  { symbol: 'o_t', meaning: 'observation the environment returns (a tool result); context, never trained on', chapter: 'agentic-rl' },
  { symbol: 'r_t', meaning: 'reward at step t; in RLVR usually 0 until the last step', chapter: 'agentic-rl' },
  { symbol: '\\tau', meaning: 'a trajectory (s_0, a_0, r_0, s_1, …)', chapter: 'agentic-rl' },
  { symbol: 'G_t', meaning: 'return from step t: \\sum_k \\gamma^k r_{t+k}', chapter: 'agentic-rl' },
  { symbol: '\\gamma', meaning: 'discount factor', trl: 'gamma', chapter: 'ppo' },
  { symbol: '\\lambda', meaning: 'GAE parameter', trl: 'lam', chapter: 'ppo' },
  { symbol: 'x', meaning: 'a prompt', chapter: 'agentic-rl' },
  { symbol: 'y', meaning: 'a completion sampled for a prompt; y_{t} its t-th token, |y| its length', chapter: 'agentic-rl' },
  { symbol: 'y_i', meaning: 'the i-th of G completions for the same prompt (GRPO); y_{i,t} its t-th token', chapter: 'grpo' },
  { symbol: 'y_w,\\ y_l', meaning: 'the chosen (preferred) and rejected completion of a preference pair', chapter: 'dpo' },
  { symbol: 'G', meaning: 'group size: completions per prompt', trl: 'num_generations', chapter: 'grpo' },
  { symbol: '\\pi_\\theta', meaning: 'the policy being trained, with parameters θ', chapter: 'agentic-rl' },
  { symbol: '\\pi_{\\theta_{\\text{old}}}', meaning: 'the policy that sampled the data (equal to π_θ on the first update of a batch)', chapter: 'ppo' },
  { symbol: '\\pi_{\\text{ref}}', meaning: 'frozen reference policy (usually the SFT model) for the KL term or DPO', chapter: 'dpo' },
  { symbol: '\\rho_t(\\theta)', meaning: 'token-level importance ratio π_θ(a_t|s_t) / π_θ_old(a_t|s_t); ρ_{i,t} for completion i', chapter: 'ppo' },
  { symbol: 's_i(\\theta)', meaning: 'GSPO’s sequence-level ratio: the geometric mean of ρ_{i,t} over completion i', trl: "importance_sampling_level='sequence'", chapter: 'grpo' },
  { symbol: '\\hat{A}_t', meaning: 'advantage estimate; \\hat{A}_i for a whole completion (GRPO), \\hat{A}_{i,t} per token', chapter: 'ppo' },
  { symbol: 'r_i', meaning: 'scalar reward of completion i', trl: 'reward', chapter: 'grpo' },
  { symbol: 'V(s)', meaning: 'state-value function (the critic)', chapter: 'ppo' },
  { symbol: '\\varepsilon', meaning: 'clip range of the ratio; \\varepsilon_{\\text{low}}, \\varepsilon_{\\text{high}} when asymmetric', trl: 'epsilon, epsilon_high (PPO: cliprange)', chapter: 'ppo' },
  { symbol: '\\beta', meaning: 'KL coefficient (GRPO, PPO) or the DPO temperature', trl: 'beta', chapter: 'dpo' },
  { symbol: '\\eta', meaning: 'learning rate', trl: 'learning_rate', chapter: 'ppo' },
  { symbol: '\\mu', meaning: 'optimisation passes over one generation batch', trl: 'num_iterations', chapter: 'grpo' },
  { symbol: 'r,\\ \\alpha', meaning: 'LoRA rank and scale: ΔW = (α/r)·BA (α/√r with rsLoRA)', trl: 'r, lora_alpha, use_rslora', chapter: 'sft-lora' },
  { symbol: '\\Psi', meaning: 'number of model parameters (ZeRO’s memory accounting)', chapter: 'distributed-training' },
  { symbol: 'N_d,\\ N_t,\\ N_p', meaning: 'data-, tensor- and pipeline-parallel sizes', chapter: 'distributed-training' },
  { symbol: 'K', meaning: 'bytes of optimiser state per parameter (12 for mixed-precision Adam)', chapter: 'distributed-training' },
  { symbol: 'p,\\ m,\\ v', meaning: 'pipeline stages, micro-batches per step, model chunks per stage (interleaved schedule)', chapter: 'distributed-training' },
  { symbol: 's,\\ b,\\ h,\\ a', meaning: 'chapter 3 only, after Korthikanti et al.: sequence length, micro-batch size, hidden size, attention heads', chapter: 'distributed-training' },
];
