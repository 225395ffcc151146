import type { Presets, Schema } from './config';

/** SFTConfig (TRL names). Completion-only loss, as TRL's default for prompt–completion data. */
export const sftSchema = {
  learning_rate: { kind: 'number', default: 3e-3, min: 0, max: 1, exclusiveMin: true, reason: 'A tiny model from scratch tolerates a large step; TRL’s 2e-5 is for pretrained billions of parameters.' },
  per_device_train_batch_size: { kind: 'number', default: 32, min: 1, max: 512, integer: true, reason: 'Large enough for smooth gradients, small enough for ~10 steps/s on wasm.' },
  max_steps: { kind: 'number', default: 400, min: 1, max: 100000, integer: true, reason: 'Enough to learn the format and most sums; the shipped SFT checkpoint stops earlier on purpose.' },
  max_grad_norm: { kind: 'number', default: 1, min: 0, max: 1000, exclusiveMin: true, reason: 'TRL’s default: clip the global gradient norm at 1.' },
  eval_steps: { kind: 'number', default: 50, min: 0, max: 100000, integer: true, reason: 'Held-out accuracy every 50 steps is frequent enough for a curve and cheap.' },
  eval_samples: { kind: 'number', default: 200, min: 10, max: 5000, integer: true, reason: '200 held-out problems: accuracy to about ±3 points.' },
  use_peft: { kind: 'boolean', default: false, reason: 'Full fine-tuning by default; turn on to train LoRA adapters only.' },
  r: { kind: 'number', default: 4, min: 1, max: 64, integer: true, reason: 'LoRA rank; 4 is plenty for a model this narrow.' },
  lora_alpha: { kind: 'number', default: 8, min: 0, max: 1024, exclusiveMin: true, reason: 'α = 2r, PEFT’s common ratio (scaling α/r = 2).' },
  lora_dropout: { kind: 'number', default: 0, min: 0, max: 0.9, reason: 'Tiny models underfit; dropout would only slow learning.' },
  use_rslora: { kind: 'boolean', default: false, reason: 'Plain LoRA scaling α/r; rsLoRA (α/√r) matters at larger ranks.' },
  target_modules: { kind: 'choice', default: 'all-linear', choices: ['all-linear', 'attention', 'mlp'] as const, reason: 'PEFT’s "all-linear": every linear layer but the output head (here qkv, out, fc1, fc2); "attention" is qkv and out, "mlp" fc1 and fc2.' },
  dataset: { kind: 'choice', default: 'addition', choices: ['addition', 'subtraction'] as const, reason: '2-digit addition with column sums; subtraction (a ≥ b, column differences) is the LoRA lab’s new task.' },
  replay_fraction: { kind: 'number', default: 0, min: 0, max: 0.9, reason: 'Share of each batch drawn from the old task (addition) while fine-tuning on subtraction: replay, the classic cure for forgetting. 0 = none.' },
  init_from: { kind: 'choice', default: 'base', choices: ['base', 'addition_sft'] as const, reason: '"base" is the untrained model; "addition_sft" has learned addition (93.5% held out), the old task the LoRA lab watches for forgetting.' },
  seed: { kind: 'number', default: 0, min: 0, max: 2 ** 31 - 1, integer: true, reason: 'Same seed, same run, on one backend.' },
} satisfies Schema;

/** The LoRA lab's runs: fine-tune the addition model on subtraction, fully or through adapters, and watch both tasks. */
const newTask = { dataset: 'subtraction', init_from: 'addition_sft', max_steps: 300, eval_steps: 25 } as const;
const lora = (r: number, extra: { use_rslora?: boolean } = {}) => ({ ...newTask, use_peft: true, r, lora_alpha: 8, learning_rate: 1e-2, ...extra });

export const sftPresets = {
  default: { description: 'SFT of the untrained model on addition, full fine-tuning with the defaults above.', overrides: {} },
  full_ft: { description: 'Full fine-tuning of the addition model on subtraction: every weight trains.', overrides: { ...newTask } },
  lora_r1: { description: 'LoRA rank 1 on every linear layer (α = 8): 1,024 trainable parameters against full fine-tuning’s 27,606.', overrides: lora(1) },
  lora_r4: { description: 'LoRA rank 4 (α = 8, so the scale α/r is 2).', overrides: lora(4) },
  lora_r16: { description: 'LoRA rank 16 with the same α = 8: the scale α/r falls to 0.5.', overrides: lora(16) },
  lora_r16_rslora: { description: 'LoRA rank 16 with rsLoRA: the scale is α/√r = 2, as rank 4’s α/r.', overrides: lora(16, { use_rslora: true }) },
  full_ft_replay: { description: 'Full fine-tuning with a quarter of each batch replaying addition: the old task survives.', overrides: { ...newTask, replay_fraction: 0.25 } },
} satisfies Presets<typeof sftSchema>;

/**
 * Whether a run measures forgetting (`eval/old_task_accuracy`): it starts from the addition model and fine-tunes it on
 * another task. Reads raw settings, so an assignment file can be checked with it too.
 */
export function measuresOldTask(settings: { init_from?: unknown; dataset?: unknown }): boolean {
  return settings.init_from === 'addition_sft' && settings.dataset !== 'addition';
}
