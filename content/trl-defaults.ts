/**
 * TRL v1.9 defaults the chapters quote, each read from the TRL source at tag v1.9.0 with its file and line (the
 * `default=` of the dataclass field, or the __post_init__ line that resolves a None). tests/content/defaults.test.ts
 * compares every default a chapter states with this table or with the lab's own config in lib/train.
 */
export type TrlConfig = 'SFTConfig' | 'DPOConfig' | 'GRPOConfig' | 'PPOConfig' | 'AsyncGRPOConfig';

export interface TrlDefault {
  config: TrlConfig;
  field: string;
  /** The dataclass default as Python writes it: numbers, booleans, None (null) or a string. */
  value: number | string | boolean | null;
  /** What a None default becomes: another field's value (`epsilon_high` → `epsilon`) or a resolved value. */
  resolves?: string;
  /** Path in the TRL repository at tag v1.9.0, and the line of the default. */
  file: string;
  line: number;
}

const SFT = 'trl/trainer/sft_config.py';
const DPO = 'trl/trainer/dpo_config.py';
const GRPO = 'trl/trainer/grpo_config.py';
const PPO = 'trl/experimental/ppo/ppo_config.py';
const ASYNC = 'trl/experimental/async_grpo/async_grpo_config.py';

export const TRL_VERSION = 'v1.9.0';

export const trlDefaults: readonly TrlDefault[] = [
  { config: 'SFTConfig', field: 'learning_rate', value: 2e-5, file: SFT, line: 144 },
  { config: 'SFTConfig', field: 'dataset_text_field', value: 'text', file: SFT, line: 183 },
  { config: 'SFTConfig', field: 'max_length', value: 1024, file: SFT, line: 206 },
  { config: 'SFTConfig', field: 'packing', value: false, file: SFT, line: 226 },
  { config: 'SFTConfig', field: 'packing_strategy', value: 'bfd', file: SFT, line: 233 },
  { config: 'SFTConfig', field: 'padding_free', value: false, file: SFT, line: 242 },
  { config: 'SFTConfig', field: 'completion_only_loss', value: null, file: SFT, line: 262 },
  { config: 'SFTConfig', field: 'assistant_only_loss', value: false, file: SFT, line: 274 },
  { config: 'SFTConfig', field: 'loss_type', value: null, resolves: 'chunked_nll', file: SFT, line: 336 },

  { config: 'DPOConfig', field: 'learning_rate', value: 1e-6, file: DPO, line: 151 },
  { config: 'DPOConfig', field: 'max_length', value: 1024, file: DPO, line: 189 },
  { config: 'DPOConfig', field: 'precompute_ref_log_probs', value: false, file: DPO, line: 217 },
  { config: 'DPOConfig', field: 'loss_type', value: 'sigmoid', file: DPO, line: 235 },
  { config: 'DPOConfig', field: 'label_smoothing', value: 0, file: DPO, line: 275 },
  { config: 'DPOConfig', field: 'beta', value: 0.1, file: DPO, line: 284 },

  { config: 'GRPOConfig', field: 'learning_rate', value: 1e-6, file: GRPO, line: 419 },
  { config: 'GRPOConfig', field: 'num_generations', value: 8, file: GRPO, line: 475 },
  { config: 'GRPOConfig', field: 'max_completion_length', value: 256, file: GRPO, line: 489 },
  { config: 'GRPOConfig', field: 'steps_per_generation', value: null, resolves: 'gradient_accumulation_steps', file: GRPO, line: 1078 },
  { config: 'GRPOConfig', field: 'temperature', value: 1.0, file: GRPO, line: 523 },
  { config: 'GRPOConfig', field: 'use_vllm', value: false, file: GRPO, line: 578 },
  { config: 'GRPOConfig', field: 'vllm_mode', value: 'colocate', file: GRPO, line: 585 },
  { config: 'GRPOConfig', field: 'vllm_enable_sleep_mode', value: false, file: GRPO, line: 603 },
  { config: 'GRPOConfig', field: 'vllm_gpu_memory_utilization', value: 0.3, file: GRPO, line: 647 },
  { config: 'GRPOConfig', field: 'beta', value: 0.0, file: GRPO, line: 672 },
  { config: 'GRPOConfig', field: 'num_iterations', value: 1, file: GRPO, line: 680 },
  { config: 'GRPOConfig', field: 'epsilon', value: 0.2, file: GRPO, line: 684 },
  { config: 'GRPOConfig', field: 'epsilon_high', value: null, resolves: 'epsilon', file: GRPO, line: 696 },
  { config: 'GRPOConfig', field: 'importance_sampling_level', value: 'token', file: GRPO, line: 751 },
  { config: 'GRPOConfig', field: 'multi_objective_aggregation', value: 'sum_then_normalize', file: GRPO, line: 768 },
  { config: 'GRPOConfig', field: 'scale_rewards', value: 'group', file: GRPO, line: 780 },
  { config: 'GRPOConfig', field: 'loss_type', value: 'dapo', file: GRPO, line: 792 },
  { config: 'GRPOConfig', field: 'mask_truncated_completions', value: false, file: GRPO, line: 827 },
  { config: 'GRPOConfig', field: 'vllm_importance_sampling_correction', value: true, file: GRPO, line: 916 },
  { config: 'GRPOConfig', field: 'log_completions', value: false, file: GRPO, line: 973 },

  { config: 'PPOConfig', field: 'learning_rate', value: 3e-6, file: PPO, line: 125 },
  { config: 'PPOConfig', field: 'num_mini_batches', value: 1, file: PPO, line: 134 },
  { config: 'PPOConfig', field: 'num_ppo_epochs', value: 4, file: PPO, line: 233 },
  { config: 'PPOConfig', field: 'whiten_rewards', value: false, file: PPO, line: 237 },
  { config: 'PPOConfig', field: 'kl_coef', value: 0.05, file: PPO, line: 241 },
  { config: 'PPOConfig', field: 'kl_estimator', value: 'k1', file: PPO, line: 245 },
  { config: 'PPOConfig', field: 'cliprange', value: 0.2, file: PPO, line: 254 },
  { config: 'PPOConfig', field: 'vf_coef', value: 0.1, file: PPO, line: 258 },
  { config: 'PPOConfig', field: 'cliprange_value', value: 0.2, file: PPO, line: 262 },
  { config: 'PPOConfig', field: 'gamma', value: 1.0, file: PPO, line: 266 },
  { config: 'PPOConfig', field: 'lam', value: 0.95, file: PPO, line: 270 },

  { config: 'AsyncGRPOConfig', field: 'max_staleness', value: 4, file: ASYNC, line: 283 },
  { config: 'AsyncGRPOConfig', field: 'weight_sync_steps', value: 1, file: ASYNC, line: 294 },
];
