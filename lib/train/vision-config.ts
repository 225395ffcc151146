import type { Presets, Schema } from './config';
import { grpoSchema } from './grpo-config';

/**
 * The vision lab: a tiny vision-language model (lib/models/vision-lm.ts) first fine-tuned on described pictures (SFT),
 * then trained by GRPO (GRPOConfig's names, TRL v1.13) with a correctness reward, as R1-V (Chen et al. 2025) trains a
 * VLM to count. One trainer step is one SFT step for the first sft_steps, then one GRPO step. The GRPO fields keep
 * their reasons from grpo-config.ts unless a reason below says why not. Every update is on-policy (num_iterations and
 * steps_per_generation are 1): the batch's pictures stay with its rows in order.
 */
export const visionSchema = {
  questions: {
    kind: 'choice',
    default: 'mixed',
    choices: ['mixed', 'counting'] as const,
    reason: '"mixed": how many of a colour, how many of a shape, the colour at a cell; "counting" (the counting preset): only counts, every one spread over the whole picture.',
  },
  grid_size: { kind: 'number', default: 4, min: 2, max: 6, integer: true, reason: 'Cells per side, one image token each: 4 × 4 = 16 tokens in front of the question.' },
  occupancy: { kind: 'number', default: 0.5, min: 0.1, max: 1, reason: 'Chance that a cell holds a shape: half the cells, so counts spread over 0–5 and no single guess is often right.' },
  use_image: { kind: 'boolean', default: true, reason: 'The policy sees the picture. Off (the text_only preset): the same model and questions with no image tokens, the floor that guessing from the question gives.' },
  sft_steps: {
    kind: 'number',
    default: 800,
    min: 0,
    max: 100000,
    integer: true,
    reason: 'The first 800 steps are SFT on described pictures (question, right answer): short on purpose. Measured (wasm): held-out accuracy is 44.8–50.0% at 800 steps (seeds 0–2) and ~70% at 2,500 (seed 0), so the model reads the picture somewhat and GRPO has room to lift it.',
  },
  sft_learning_rate: { kind: 'number', default: 3e-3, min: 0, max: 1, exclusiveMin: true, reason: 'As the SFT lab: a tiny model from scratch tolerates a large step.' },
  sft_batch_size: { kind: 'number', default: 32, min: 1, max: 512, integer: true, reason: 'As the SFT lab.' },
  learning_rate: { ...grpoSchema.learning_rate, default: 1e-3, reason: 'GRPO’s rate. Higher than the arithmetic lab’s 3e-4: answers are one or two tokens, so each update moves little. Measured (seed 0): 3e-3 collapses the policy (45% → 30%).' },
  per_device_train_batch_size: {
    ...grpoSchema.per_device_train_batch_size,
    default: 256,
    reason: 'Answers per GRPO step: 32 pictures × 8 answers each, as many pictures as an SFT step sees. Measured (wasm, from the 800-step SFT start): with 8 pictures a step the sampled answers turn deterministic (groups whose 8 answers all agree, so their advantage is zero: ~30% at the switch, ~70% after 1,000 steps) before accuracy moves, and held-out accuracy wanders ±5 points; 32 pictures give each update ~4 times the groups that carry a signal.',
  },
  num_generations: { ...grpoSchema.num_generations, reason: 'Answers per picture and question (G): the group each answer’s reward is compared with.' },
  temperature: grpoSchema.temperature,
  beta: grpoSchema.beta,
  epsilon: grpoSchema.epsilon,
  loss_type: grpoSchema.loss_type,
  scale_rewards: grpoSchema.scale_rewards,
  max_grad_norm: grpoSchema.max_grad_norm,
  max_steps: { ...grpoSchema.max_steps, default: 1600, reason: 'SFT steps included: 800 of SFT, then 800 of GRPO (32 pictures a step). How long the whole run takes in a browser is measured, not written here: the lab card gives it (npm run record:browser-times).' },
  eval_steps: { ...grpoSchema.eval_steps, default: 200, reason: 'Held-out accuracy every 200 steps, and so at the end of SFT (step 800).' },
  eval_samples: { ...grpoSchema.eval_samples, default: 500, reason: '500 held-out pictures and questions: accuracy to about ±2 points (a greedy evaluation costs well under a second).' },
  seed: grpoSchema.seed,
} satisfies Schema;

export const visionPresets = {
  default: {
    description: 'SFT on described pictures for 800 steps, then 800 GRPO steps of 32 pictures × 8 answers with a correctness reward. Measured (wasm, seeds 0, 1, 2): held-out accuracy 50.0%, 48.2%, 44.8% after SFT and 65.6%, 71.2%, 56.4% after GRPO, 15.6, 23 and 11.6 points up; 34 to 48 points above text_only (22.2%, 22.8%, 22.2%). Claims vision-grpo-lifts and vision-sees (npm run claims).',
    overrides: {},
  },
  text_only: {
    description: 'The same model, questions and steps with the picture replaced by nothing: what guessing from the question alone reaches (22.2%, 22.8%, 22.2% on seeds 0, 1 and 2), the floor that shows the default model really looks.',
    overrides: { use_image: false },
  },
  counting: {
    description: 'A 5 × 5 picture (25 image tokens) and only counting questions: how many of a colour, of a shape, or shapes in all. Each answer depends on every cell, so the policy must attend to the whole picture. Measured (seed 0): 48.4% after SFT and 46.6% after GRPO: GRPO does not lift this preset. By the end the total count is 97% right, while counts of one colour or one shape stay near guessing (22.3%, 21.7%). Without the picture: 17.4%. Claim vision-counting (npm run claims).',
    overrides: { questions: 'counting', grid_size: 5 },
  },
} satisfies Presets<typeof visionSchema>;
