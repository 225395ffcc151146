/**
 * The course's notation: every symbol once, with its meaning and the TRL (v1.13) name where TRL has one;
 * PPO's names are TRL v1.9's, since v1.13 no longer ships PPOConfig.
 * Chapters use these symbols and no others for the same ideas. The /notation/ page is built from this list, and
 * tests/content/notation.test.ts checks that the symbols render and that chapters do not slip back into the
 * papers' other spellings (q/o for prompt and completion, w or r for the ratio, ε for label smoothing).
 *
 * Why x/y and not the GRPO paper's q/o: in agentic RL `o` is needed for the environment's observations, so
 * the prompt is x and the model's completion is y throughout, as in the DPO and RLHF literature.
 *
 * `symbol` and `meaning` are KaTeX: `symbol` is math, `meaning` is text with $…$ for inline math.
 */
export interface NotationEntry {
  /** Anchor on /notation/ (#id). */
  id: string;
  /** KaTeX source of the symbol. */
  symbol: string;
  /** Text; $…$ marks inline math. */
  meaning: string;
  /** The TRL v1.13 config field or logged metric that holds it, when there is one (PPO's: v1.9's). */
  trl?: string;
  /** Where the symbol is introduced (chapter slug). */
  chapter: string;
  /**
   * Set for letters a chapter uses locally with the meaning of the papers it follows (chapter 3's Megatron
   * formulas, chapter 2's LoRA algebra): the meaning holds in these chapters only.
   */
  scope?: readonly string[];
}

export const notation: readonly NotationEntry[] = [
  // Episodes and the MDP (chapter 1)
  { id: 's-t', symbol: 's_t', meaning: 'state at step $t$: for an LLM policy, the prompt and every token so far', chapter: 'agentic-rl' },
  { id: 'a-t', symbol: 'a_t', meaning: 'action at step $t$: for an LLM policy, the next token (or a whole tool call); $\\lvert a_t \\rvert$ its number of tokens', chapter: 'agentic-rl' },
  { id: 'o-t', symbol: 'o_t', meaning: 'observation the environment returns (a tool result); context, never trained on', chapter: 'agentic-rl' },
  { id: 'h-t', symbol: 'h_t', meaning: 'history: the task and every action and observation before step $t$, the agent’s context window', chapter: 'agentic-rl' },
  { id: 'r-t', symbol: 'r_t', meaning: 'reward at step $t$; in RLVR usually 0 until the last step', chapter: 'agentic-rl' },
  { id: 'transition', symbol: 'P(s_{t+1} \\mid s_t, a_t),\\ P_0', meaning: 'transition distribution of the environment, and the distribution of the first state', chapter: 'agentic-rl' },
  { id: 'observation-distribution', symbol: 'O(o \\mid s)', meaning: 'observation distribution of a partially observable MDP', chapter: 'agentic-rl' },
  { id: 'tau', symbol: '\\tau', meaning: 'a trajectory $(s_0, a_0, r_0, s_1, \\ldots)$; $p_\\theta(\\tau)$ its probability under $\\pi_\\theta$', chapter: 'agentic-rl' },
  { id: 'horizon', symbol: 'T', meaning: 'number of steps in an episode (in the token-level view, tokens of the response)', chapter: 'agentic-rl' },
  { id: 'return', symbol: 'G_t', meaning: 'return from step $t$: $\\sum_{k \\ge t} \\gamma^{k-t} r_k$; $G_0$ the return of the whole trajectory', chapter: 'agentic-rl' },
  { id: 'objective', symbol: 'J(\\theta)', meaning: 'expected return $\\mathbb{E}_{\\tau \\sim \\pi_\\theta}[G_0]$, the quantity RL maximises', chapter: 'agentic-rl' },
  { id: 'gamma', symbol: '\\gamma', meaning: 'discount factor', trl: 'gamma', chapter: 'agentic-rl' },

  // The policy and its data
  { id: 'theta', symbol: '\\pi_\\theta', meaning: 'the policy being trained, with parameters $\\theta$', chapter: 'agentic-rl' },
  { id: 'x', symbol: 'x', meaning: 'a prompt (the task)', chapter: 'agentic-rl' },
  { id: 'y', symbol: 'y', meaning: 'a completion sampled for a prompt; $y_t$ its $t$-th token, $y_{\\lt t}$ the tokens before it, $\\lvert y \\rvert$ its length', chapter: 'agentic-rl' },
  { id: 'reward-model', symbol: 'r(x, y)', meaning: 'reward of a whole completion: a verifier’s score or a reward model’s, $r_\\phi$ when it is learned', chapter: 'agentic-rl' },
  { id: 'phi', symbol: '\\phi', meaning: 'parameters of a learned model other than the policy: the critic $V_\\phi$ or the reward model $r_\\phi$', chapter: 'agentic-rl' },
  { id: 'pi-old', symbol: '\\pi_{\\theta_{\\text{old}}}', meaning: 'the policy that sampled the data (equal to $\\pi_\\theta$ on the first update of a batch)', chapter: 'ppo' },
  { id: 'pi-ref', symbol: '\\pi_{\\text{ref}}', meaning: 'frozen reference policy (usually the SFT model) for the KL term or DPO', chapter: 'agentic-rl' },
  { id: 'beta', symbol: '\\beta', meaning: 'KL coefficient (PPO’s per-token penalty, GRPO’s loss term) or the DPO temperature; in each case the price of moving away from $\\pi_{\\text{ref}}$', trl: 'beta (PPO: kl_coef)', chapter: 'agentic-rl' },
  { id: 'eta', symbol: '\\eta', meaning: 'learning rate', trl: 'learning_rate', chapter: 'ppo' },

  // PPO (chapter 4)
  { id: 'rho', symbol: '\\rho_t(\\theta)', meaning: 'token-level importance ratio $\\pi_\\theta(a_t \\mid s_t) / \\pi_{\\theta_{\\text{old}}}(a_t \\mid s_t)$; $\\rho_{i,t}$ for token $t$ of completion $i$', chapter: 'ppo' },
  { id: 'advantage', symbol: '\\hat{A}_t', meaning: 'advantage estimate; $\\hat{A}_i$ for a whole completion (GRPO), $\\hat{A}_{i,t}$ per token', trl: 'advantages', chapter: 'ppo' },
  { id: 'value', symbol: 'V(s)', meaning: 'state-value function: the critic, $V_\\phi$ when learned', chapter: 'ppo' },
  { id: 'td-residual', symbol: '\\delta_t', meaning: 'TD residual $r_t + \\gamma V(s_{t+1}) - V(s_t)$', chapter: 'ppo' },
  { id: 'done', symbol: 'd_t', meaning: '1 if step $t$ ended its episode, else 0', chapter: 'ppo' },
  { id: 'lambda', symbol: '\\lambda', meaning: 'GAE parameter: how far back the TD residuals are summed', trl: 'lam', chapter: 'ppo' },
  { id: 'gae-return', symbol: '\\hat{R}_t', meaning: 'the critic’s regression target $\\hat{A}_t + V(s_t)$', trl: 'returns', chapter: 'ppo' },
  { id: 'epsilon', symbol: '\\varepsilon', meaning: 'clip range of the ratio; $\\varepsilon_{\\text{low}}$, $\\varepsilon_{\\text{high}}$ when asymmetric', trl: 'epsilon, epsilon_high (PPO: cliprange)', chapter: 'ppo' },
  { id: 'value-clip', symbol: 'c', meaning: 'clip range of the value prediction around the rollout’s value', trl: 'cliprange_value', chapter: 'ppo' },
  { id: 'loss-coefficients', symbol: 'c_1,\\ c_2', meaning: 'weights of the value loss and of the entropy bonus in PPO’s objective', trl: 'vf_coef (c₁)', chapter: 'ppo' },
  { id: 'entropy', symbol: 'S', meaning: 'entropy of the policy at a state, $-\\sum_a \\pi_\\theta(a \\mid s) \\log \\pi_\\theta(a \\mid s)$', trl: 'entropy (PPO: objective/entropy)', chapter: 'ppo' },
  { id: 'kl-token', symbol: '\\mathrm{KL}_t', meaning: 'per-token estimate of the divergence from $\\pi_{\\text{ref}}$ (k1: $\\log \\pi_\\theta - \\log \\pi_{\\text{ref}}$)', trl: 'PPOConfig.kl_estimator; logged as objective/kl (PPO), kl (GRPO)', chapter: 'ppo' },

  // GRPO and GSPO (chapter 6)
  { id: 'group-size', symbol: 'G', meaning: 'group size: completions per prompt', trl: 'num_generations', chapter: 'grpo' },
  { id: 'y-i', symbol: 'y_i', meaning: 'the $i$-th of $G$ completions for the same prompt; $y_{i,t}$ its $t$-th token', chapter: 'grpo' },
  { id: 'r-i', symbol: 'r_i', meaning: 'scalar reward of completion $i$ (the weighted sum of the reward functions)', trl: 'reward', chapter: 'grpo' },
  { id: 'sequence-ratio', symbol: 's_i(\\theta)', meaning: 'GSPO’s sequence-level ratio: the geometric mean of $\\rho_{i,t}$ over completion $i$', trl: "importance_sampling_level='sequence'", chapter: 'grpo' },
  { id: 'token-loss', symbol: '\\ell_{i,t}', meaning: 'loss of token $t$ of completion $i$, before aggregation', chapter: 'grpo' },
  { id: 'mu', symbol: '\\mu', meaning: 'optimisation passes over one generation batch', trl: 'num_iterations', chapter: 'grpo' },
  { id: 'k3-ratio', symbol: 'u', meaning: 'ratio $\\pi_{\\text{ref}} / \\pi_\\theta$ at a sampled token; the k3 KL estimate is $u - \\log u - 1$', chapter: 'grpo' },
  { id: 'batch-completions', symbol: 'N', meaning: 'number of completions in a batch (the loss normalisers)', chapter: 'grpo' },
  { id: 'max-length', symbol: 'L_{\\max}', meaning: 'maximum completion length', trl: 'max_completion_length', chapter: 'grpo' },

  // DPO (chapter 5)
  { id: 'preference-pair', symbol: 'y_w,\\ y_l', meaning: 'the chosen (preferred) and rejected completion of a preference pair', chapter: 'dpo' },
  { id: 'pi-star', symbol: '\\pi^{*},\\ Z(x)', meaning: 'the optimal policy of the KL-regularised objective, and its normaliser (the partition function)', chapter: 'dpo' },
  { id: 'log-ratio', symbol: '\\Delta_w,\\ \\Delta_l', meaning: 'log-ratio of the chosen / rejected completion to the reference, $\\log \\pi_\\theta(y \\mid x) - \\log \\pi_{\\text{ref}}(y \\mid x)$', trl: 'chosen_logratios, rejected_logratios', chapter: 'dpo' },
  { id: 'z', symbol: 'z', meaning: 'difference of the two log-ratios, $\\Delta_w - \\Delta_l$', trl: 'delta_score', chapter: 'dpo' },
  { id: 'implicit-reward', symbol: '\\hat{r}_w,\\ \\hat{r}_l', meaning: 'implicit rewards $\\beta \\Delta_w$ and $\\beta \\Delta_l$', trl: 'rewards/chosen, rewards/rejected', chapter: 'dpo' },
  { id: 'margin', symbol: 'm', meaning: 'implicit-reward margin $\\hat{r}_w - \\hat{r}_l = \\beta z$', trl: 'rewards/margins', chapter: 'dpo' },
  { id: 'sigma', symbol: '\\sigma', meaning: 'logistic function, $\\sigma(m) = 1 / (1 + e^{-m})$', chapter: 'dpo' },
  { id: 'nu', symbol: '\\nu', meaning: 'assumed probability that a preference label is flipped (conservative and robust DPO)', trl: 'label_smoothing', chapter: 'dpo' },
  { id: 'dpo-weight', symbol: 'w(m)', meaning: 'how hard a pair at margin $m$ is pushed: $-d\\ell / dm$', chapter: 'dpo' },

  // LoRA (chapter 2)
  { id: 'lora-rank', symbol: 'r,\\ \\alpha', meaning: 'LoRA rank and scale: $\\Delta W = (\\alpha / r)\\, BA$ ($\\alpha / \\sqrt{r}$ with rsLoRA)', trl: 'r, lora_alpha, use_rslora (PEFT LoraConfig)', chapter: 'sft-lora' },

  // Distributed training (chapter 3)
  { id: 'psi', symbol: '\\Psi', meaning: 'number of model parameters (ZeRO’s memory accounting)', chapter: 'distributed-training' },
  { id: 'parallel-sizes', symbol: 'N_d,\\ N_t,\\ N_p', meaning: 'data-, tensor- and pipeline-parallel sizes', chapter: 'distributed-training' },
  { id: 'optimizer-bytes', symbol: 'K', meaning: 'bytes of optimiser state per parameter (12 for mixed-precision Adam)', chapter: 'distributed-training' },

  // Letters with a chapter-local meaning, following the papers those chapters teach from
  { id: 'lora-matrices', symbol: 'W_0,\\ A,\\ B,\\ s', meaning: 'frozen weight, the two LoRA factors and the scale $s = \\alpha / r$', chapter: 'sft-lora', scope: ['sft-lora'] },
  { id: 'loss-mask', symbol: 'm_j', meaning: 'loss mask of token $j$: 1 if the token is trained on, 0 if not', chapter: 'sft-lora', scope: ['sft-lora', 'agent-data'] },
  { id: 'pipeline-schedule', symbol: 'p,\\ m,\\ v', meaning: 'pipeline stages, micro-batches per step, model chunks per stage (interleaved schedule)', chapter: 'distributed-training', scope: ['distributed-training'] },
  { id: 'megatron-shapes', symbol: 's,\\ b,\\ h,\\ a,\\ L', meaning: 'after Korthikanti et al.: sequence length, micro-batch size, hidden size, attention heads, layers', chapter: 'distributed-training', scope: ['distributed-training'] },
  { id: 'pass-at-k', symbol: 'n,\\ c,\\ k', meaning: 'samples per problem, how many of them are correct, and the $k$ of pass@$k$', chapter: 'pipeline', scope: ['pipeline'] },
];
