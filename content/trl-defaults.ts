/**
 * TRL v1.13 defaults the chapters quote, each read from the TRL source of release v1.13.0 with its file and line (the
 * `default=` of the dataclass field, or the __post_init__ line that resolves a None). PPOConfig is the exception:
 * v1.13.0 no longer ships trl/experimental/ppo, so its entries keep the v1.9.0 source they were read from (`release`).
 * tests/content/defaults.test.ts compares every default a chapter states with this table or with the lab's own config
 * in lib/train.
 *
 * The v1.13.0 lines were read from the release's wheel, trl-1.13.0-py3-none-any.whl (sha256 7c7ae0c7…9134ec), whose
 * .py files are the tag's sources; the v1.9.0 lines from the git tag (commit 35def3ee).
 */
export type TrlConfig = 'SFTConfig' | 'DPOConfig' | 'GRPOConfig' | 'PPOConfig' | 'AsyncGRPOConfig';

export interface TrlDefault {
  config: TrlConfig;
  field: string;
  /** The dataclass default as Python writes it: numbers, booleans, None (null) or a string. */
  value: number | string | boolean | null;
  /** What a None default becomes: another field's value (`epsilon_high` → `epsilon`) or a resolved value. */
  resolves?: string;
  /** Path in the TRL repository at the release (TRL_VERSION unless `release` says otherwise), and the line of the default. */
  file: string;
  line: number;
  /** The release the entry was read at when it is not TRL_VERSION: only PPOConfig, which TRL v1.13.0 no longer ships. */
  release?: string;
  /** The default at v1.9.0, the release the course quoted before, where v1.13.0 changed it (and its line there). */
  was?: { value: number | string | boolean | null; line: number };
}

const SFT = 'trl/trainer/sft_config.py';
const DPO = 'trl/trainer/dpo_config.py';
const GRPO = 'trl/trainer/grpo_config.py';
const PPO = 'trl/experimental/ppo/ppo_config.py';
const ASYNC = 'trl/experimental/async_grpo/async_grpo_config.py';

export const TRL_VERSION = 'v1.13.0';
/** The last release this course read PPOConfig from: trl/experimental/ppo is absent from v1.13.0. */
export const PPO_RELEASE = 'v1.9.0';

export const trlDefaults: readonly TrlDefault[] = [
  { config: 'SFTConfig', field: 'learning_rate', value: 2e-5, file: SFT, line: 142 },
  { config: 'SFTConfig', field: 'dataset_text_field', value: 'text', file: SFT, line: 182 },
  { config: 'SFTConfig', field: 'max_length', value: 1024, file: SFT, line: 204 },
  { config: 'SFTConfig', field: 'packing', value: false, file: SFT, line: 224 },
  { config: 'SFTConfig', field: 'packing_strategy', value: 'bfd', file: SFT, line: 231 },
  { config: 'SFTConfig', field: 'padding_free', value: false, file: SFT, line: 240 },
  { config: 'SFTConfig', field: 'completion_only_loss', value: null, file: SFT, line: 260 },
  { config: 'SFTConfig', field: 'assistant_only_loss', value: false, file: SFT, line: 272 },
  { config: 'SFTConfig', field: 'loss_type', value: null, resolves: 'chunked_nll', file: SFT, line: 334 },

  { config: 'DPOConfig', field: 'learning_rate', value: 1e-6, file: DPO, line: 156 },
  { config: 'DPOConfig', field: 'max_length', value: 1024, file: DPO, line: 195 },
  { config: 'DPOConfig', field: 'precompute_ref_log_probs', value: false, file: DPO, line: 224 },
  { config: 'DPOConfig', field: 'loss_type', value: 'sigmoid', file: DPO, line: 242 },
  { config: 'DPOConfig', field: 'label_smoothing', value: 0, file: DPO, line: 285 },
  { config: 'DPOConfig', field: 'beta', value: 0.1, file: DPO, line: 294 },

  { config: 'GRPOConfig', field: 'learning_rate', value: 1e-6, file: GRPO, line: 423 },
  { config: 'GRPOConfig', field: 'num_generations', value: 8, file: GRPO, line: 480 },
  { config: 'GRPOConfig', field: 'max_completion_length', value: 512, file: GRPO, line: 494, was: { value: 256, line: 489 } },
  { config: 'GRPOConfig', field: 'steps_per_generation', value: null, resolves: 'gradient_accumulation_steps', file: GRPO, line: 1086 },
  { config: 'GRPOConfig', field: 'temperature', value: 1.0, file: GRPO, line: 528 },
  { config: 'GRPOConfig', field: 'use_vllm', value: false, file: GRPO, line: 583 },
  { config: 'GRPOConfig', field: 'vllm_mode', value: 'colocate', file: GRPO, line: 590 },
  { config: 'GRPOConfig', field: 'vllm_enable_sleep_mode', value: false, file: GRPO, line: 608 },
  { config: 'GRPOConfig', field: 'vllm_gpu_memory_utilization', value: 0.3, file: GRPO, line: 652 },
  { config: 'GRPOConfig', field: 'beta', value: 0.0, file: GRPO, line: 677 },
  { config: 'GRPOConfig', field: 'num_iterations', value: 1, file: GRPO, line: 685 },
  { config: 'GRPOConfig', field: 'epsilon', value: 0.2, file: GRPO, line: 689 },
  { config: 'GRPOConfig', field: 'epsilon_high', value: null, resolves: 'epsilon', file: GRPO, line: 701 },
  { config: 'GRPOConfig', field: 'importance_sampling_level', value: 'token', file: GRPO, line: 756 },
  { config: 'GRPOConfig', field: 'multi_objective_aggregation', value: 'sum_then_normalize', file: GRPO, line: 773 },
  { config: 'GRPOConfig', field: 'scale_rewards', value: 'group', file: GRPO, line: 785 },
  { config: 'GRPOConfig', field: 'loss_type', value: 'dapo', file: GRPO, line: 797 },
  { config: 'GRPOConfig', field: 'mask_truncated_completions', value: false, file: GRPO, line: 832 },
  { config: 'GRPOConfig', field: 'vllm_importance_sampling_correction', value: true, file: GRPO, line: 921 },
  { config: 'GRPOConfig', field: 'use_bias_correction_kl', value: true, file: GRPO, line: 968, was: { value: false, line: 963 } },
  { config: 'GRPOConfig', field: 'log_completions', value: false, file: GRPO, line: 981 },

  { config: 'PPOConfig', field: 'learning_rate', value: 3e-6, file: PPO, release: PPO_RELEASE, line: 125 },
  { config: 'PPOConfig', field: 'num_mini_batches', value: 1, file: PPO, release: PPO_RELEASE, line: 134 },
  { config: 'PPOConfig', field: 'num_ppo_epochs', value: 4, file: PPO, release: PPO_RELEASE, line: 233 },
  { config: 'PPOConfig', field: 'whiten_rewards', value: false, file: PPO, release: PPO_RELEASE, line: 237 },
  { config: 'PPOConfig', field: 'kl_coef', value: 0.05, file: PPO, release: PPO_RELEASE, line: 241 },
  { config: 'PPOConfig', field: 'kl_estimator', value: 'k1', file: PPO, release: PPO_RELEASE, line: 245 },
  { config: 'PPOConfig', field: 'cliprange', value: 0.2, file: PPO, release: PPO_RELEASE, line: 254 },
  { config: 'PPOConfig', field: 'vf_coef', value: 0.1, file: PPO, release: PPO_RELEASE, line: 258 },
  { config: 'PPOConfig', field: 'cliprange_value', value: 0.2, file: PPO, release: PPO_RELEASE, line: 262 },
  { config: 'PPOConfig', field: 'gamma', value: 1.0, file: PPO, release: PPO_RELEASE, line: 266 },
  { config: 'PPOConfig', field: 'lam', value: 0.95, file: PPO, release: PPO_RELEASE, line: 270 },

  { config: 'AsyncGRPOConfig', field: 'max_staleness', value: 4, file: ASYNC, line: 359 },
  { config: 'AsyncGRPOConfig', field: 'weight_sync_steps', value: 1, file: ASYNC, line: 370 },
];
