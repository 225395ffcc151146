import { GRPO_LOSS_TYPES, IMPORTANCE_SAMPLING_LEVELS, SCALE_REWARDS } from '@/lib/rl/choices';
import type { Presets, Schema } from './config';

/**
 * GRPOConfig (TRL names). The defaults are TRL's where they carry over, and tuned for a ~100k-parameter model
 * on 2-digit addition where they cannot (learning rate, batch, group size).
 */
export const grpoSchema = {
  learning_rate: { kind: 'number', default: 3e-4, min: 0, max: 1, exclusiveMin: true, reason: 'Measured: 3e-4 lifts held-out accuracy from 28% to ~55% in 30 steps; 1e-3 makes it fall. A 0.5B model needs ~1e-6.' },
  per_device_train_batch_size: { kind: 'number', default: 64, min: 2, max: 1024, integer: true, reason: 'Completions per step: 8 prompts × 8 generations.' },
  num_generations: { kind: 'number', default: 8, min: 2, max: 64, integer: true, reason: 'TRL’s default G = 8: enough samples per prompt for a useful baseline.' },
  max_completion_length: { kind: 'number', default: 15, min: 1, max: 16, integer: true, reason: 'The longest completion, "18,19 #### 198" plus EOS, is 15 tokens; shorter cuts answers off. 16 is the most the model’s context (22) leaves after the prompt.' },
  temperature: { kind: 'number', default: 1, min: 0.05, max: 3, reason: 'Sample from the policy itself; TRL also divides the training logits by it.' },
  beta: { kind: 'number', default: 0, min: 0, max: 10, reason: 'TRL v1.13’s default (0.0): no KL penalty, so no reference model is loaded.' },
  epsilon: { kind: 'number', default: 0.2, min: 0, max: 10, exclusiveMin: true, reason: 'PPO’s classic clip range.' },
  epsilon_high: { kind: 'number', default: 0.2, min: 0, max: 10, exclusiveMin: true, reason: 'Equal to epsilon unless set (TRL: None → epsilon); DAPO raises it to 0.28.' },
  loss_type: { kind: 'choice', default: 'dapo', choices: GRPO_LOSS_TYPES, reason: 'TRL’s default: token-level normalisation over the whole batch, no length bias.' },
  scale_rewards: { kind: 'choice', default: 'group', choices: SCALE_REWARDS, reason: 'Divide by the group std, as the GRPO paper; Dr. GRPO uses none.' },
  importance_sampling_level: { kind: 'choice', default: 'token', choices: IMPORTANCE_SAMPLING_LEVELS, reason: 'Per-token ratios as GRPO; sequence is GSPO.' },
  num_iterations: { kind: 'number', default: 1, min: 1, max: 8, integer: true, reason: 'μ = 1: each generation batch is used once (TRL’s default). μ > 1 reuses it, off-policy.' },
  steps_per_generation: { kind: 'number', default: 1, min: 1, max: 16, integer: true, reason: 'Optimizer steps per generation batch (TRL: defaults to gradient_accumulation_steps, 1 here): 1 keeps every update on-policy, so the ratio is exactly 1; more splits a larger batch into slices and the later ones are off-policy.' },
  mask_truncated_completions: { kind: 'boolean', default: false, reason: 'TRL’s name, DAPO’s overlong filtering: completions cut off at max_completion_length are left out of the loss.' },
  reward_weight_overlong: { kind: 'number', default: 0, min: 0, max: 10, reason: 'DAPO’s soft overlong punishment (TRL: get_soft_overlong_punishment): 0 up to max_completion_length − soft_punish_cache tokens, then falling linearly to −1.' },
  soft_punish_cache: { kind: 'number', default: 4, min: 0, max: 32, integer: true, reason: 'L_cache of the soft overlong punishment: the last tokens before the limit where the penalty ramps.' },
  dynamic_sampling: { kind: 'boolean', default: false, reason: 'DAPO’s dynamic sampling (not in TRL): drop groups whose completions all score the same and sample more prompts until the batch is full.' },
  dynamic_sampling_max_rounds: { kind: 'number', default: 3, min: 1, max: 10, integer: true, reason: 'Extra sampling rounds at most before training on what there is (DAPO’s max_num_gen_batches).' },
  reward_weight_correctness: { kind: 'number', default: 1, min: 0, max: 10, reason: 'The verifiable reward: 1 for the right answer.' },
  reward_weight_format: { kind: 'number', default: 0.2, min: 0, max: 10, reason: 'A little credit for the "#### n" format keeps early samples parseable.' },
  reward_weight_length: { kind: 'number', default: 0, min: 0, max: 10, reason: 'Off: the answer format already bounds the length.' },
  correctness_reward: { kind: 'choice', default: 'exact', choices: ['exact', 'at_least', 'digits'] as const, reason: '"at_least" (a >= bug) and "digits" (right digits anywhere) are deliberately flawed verifiers, for the reward-hacking demo.' },
  max_grad_norm: { kind: 'number', default: 1, min: 0, max: 1000, exclusiveMin: true, reason: 'TRL’s default gradient clipping.' },
  max_steps: { kind: 'number', default: 60, min: 1, max: 100000, integer: true, reason: 'A few seconds in a browser (50–80 ms a step on a laptop CPU, plus the evaluations): enough to see held-out accuracy move.' },
  eval_steps: { kind: 'number', default: 10, min: 0, max: 100000, integer: true, reason: 'RL moves fast here: evaluate every 10 steps.' },
  eval_samples: { kind: 'number', default: 200, min: 10, max: 5000, integer: true, reason: '200 held-out problems: accuracy to about ±3 points.' },
  seed: { kind: 'number', default: 0, min: 0, max: 2 ** 31 - 1, integer: true, reason: 'Same seed, same completions and updates, on one backend.' },
} satisfies Schema;

/** Presets are small overrides with reasons, like nanoGPT's config files. */
/** Four updates per generation batch: from the second on, the policy has moved, the ratio leaves 1, and clips can act. */
const offPolicy = { steps_per_generation: 4 } as const;

export const grpoPresets = {
  default: { description: 'TRL’s defaults (dapo loss, group scaling, no KL, one update per generation batch) at a learning rate a tiny model needs: held-out accuracy climbs from 27.5% within 20 steps.', overrides: {} },
  no_kl: { description: 'Explicitly β = 0, TRL’s default: no KL term, no reference model, nothing holds the policy near the SFT model.', overrides: { beta: 0 } },
  kl: { description: 'β = 0.04 (the GRPO paper’s value): a k3 KL penalty towards the frozen SFT model; a larger β (try 0.4) keeps the KL smaller still.', overrides: { beta: 0.04 } },
  dapo_clip_higher: {
    description: 'DAPO’s clip-higher, ε_high = 0.28, with the off-policy steps it needs (steps_per_generation = 4): the ratio leaves 1, so clip_ratio/high_mean rises above 0, and the run differs from the same settings with ε_high = 0.2.',
    overrides: { epsilon_high: 0.28, loss_type: 'dapo', ...offPolicy },
  },
  dr_grpo: { description: 'Dr. GRPO: no std scaling and a constant length normaliser, removing the difficulty and length biases (off-policy as the other variants, for comparison).', overrides: { loss_type: 'dr_grpo', scale_rewards: 'none', ...offPolicy } },
  gspo: {
    description: 'GSPO as TRL’s recipe runs it: one length-normalised ratio per sequence, clipped tightly (3e-4, 4e-4), loss_type grpo, steps_per_generation = 4. On-policy it trains exactly as GRPO; off-policy whole sequences are clipped and the run differs.',
    overrides: { importance_sampling_level: 'sequence', loss_type: 'grpo', epsilon: 3e-4, epsilon_high: 4e-4, ...offPolicy },
  },
  grpo_paper: { description: 'The GRPO paper’s loss (loss_type grpo: a mean per sequence, then over sequences) with the same off-policy steps, to compare with Dr. GRPO, DAPO and GSPO.', overrides: { loss_type: 'grpo', ...offPolicy } },
  dapo: {
    description: 'All of DAPO: clip-higher, token-level loss, dynamic sampling (groups whose completions all score the same are dropped and more prompts sampled), overlong filtering and the soft overlong punishment, off-policy.',
    overrides: { loss_type: 'dapo', epsilon_high: 0.28, dynamic_sampling: true, mask_truncated_completions: true, reward_weight_overlong: 1, soft_punish_cache: 1, max_completion_length: 16, ...offPolicy },
  },
  lr_too_high: { description: 'learning_rate 1e-3: the updates overshoot and held-out accuracy falls below the SFT model’s 27.5%.', overrides: { learning_rate: 1e-3 } },
  reward_hacking: {
    description: 'A verifier bug (>= where == was meant): over-estimates score like correct answers. The training reward climbs towards its maximum (1.2: correctness 1, format 0.2) while held-out accuracy falls to 0; the inspector shows wrong answers with full marks.',
    overrides: { correctness_reward: 'at_least' },
  },
} satisfies Presets<typeof grpoSchema>;
