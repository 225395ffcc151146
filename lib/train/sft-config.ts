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
  seed: { kind: 'number', default: 0, min: 0, max: 2 ** 31 - 1, integer: true, reason: 'Same seed, same run, on one backend.' },
} satisfies Schema;

export const sftPresets = {
  default: { description: 'Full fine-tuning with the defaults above.', overrides: {} },
  lora: { description: 'LoRA adapters only (r = 4, α = 8): far fewer trainable parameters, a higher learning rate.', overrides: { use_peft: true, learning_rate: 1e-2 } },
} satisfies Presets<typeof sftSchema>;
