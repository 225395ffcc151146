import { ConfigError, sftOrBase, type Presets, type Schema } from './config';
import { grpoSchema } from './grpo-config';

/**
 * How the shipped SFT checkpoint (public/models/vision-sft.arlw, lib/train/vision-sft.ts) is made: the lab's own SFT
 * phase, from a fresh model of the default's pictures and questions, seed 0, for this many steps. The default preset
 * starts its GRPO there; from_scratch runs the same phase live.
 */
export const VISION_SFT = { steps: 800, seed: 0, grid_size: 4 } as const;
/** SFT steps behind a run's GRPO: the checkpoint's (init_from 'sft') and the run's own sft_steps (the export's SFT phase). */
export function sftStepsBehind(settings: { init_from?: unknown; sft_steps?: unknown }): number {
  return Number(settings.sft_steps) + (settings.init_from === 'sft' ? VISION_SFT.steps : 0);
}
/** The default's GRPO steps from the checkpoint: as many as end within 30 s in a browser (issue 50). */
export const VISION_GRPO_STEPS = 150;

/** The shipped checkpoint a run starts from (init_from 'sft'), or null (base: the run builds its own model). */
export function visionCheckpoint(config: { init_from: string; grid_size: number }): 'vision_sft' | null {
  if (config.init_from === 'base') return null;
  if (config.grid_size !== VISION_SFT.grid_size) {
    throw new ConfigError([`init_from "sft" is a model of ${VISION_SFT.grid_size} × ${VISION_SFT.grid_size} pictures; for grid_size ${config.grid_size} choose init_from "base" (and sft_steps for its SFT phase)`]);
  }
  return 'vision_sft';
}

/**
 * The vision lab: a tiny vision-language model (lib/models/vision-lm.ts) fine-tuned on described pictures (SFT: the
 * shipped checkpoint, or the run's own first sft_steps steps), then trained by GRPO (GRPOConfig's names, TRL v1.13)
 * with a correctness reward, as R1-V (Chen et al. 2025) trains a VLM to count. One trainer step is one SFT step for the first sft_steps, then one GRPO step. The GRPO fields keep
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
  init_from: sftOrBase(
    'Start from the shipped SFT checkpoint: 800 steps of SFT on described pictures (4 × 4, mixed questions, seed 0; 50.0% held out), so the run spends its time on GRPO. "base": an untrained model that learns from its own SFT phase first (sft_steps; the from_scratch, text_only and counting presets). The checkpoint fits 4 × 4 pictures only.',
    { value: 'base', reason: 'Before the checkpoint shipped (2026-12-06) every vision run built a fresh model and ran its own SFT phase (sft_steps) first: an assignment or submission written then, which has no init_from, ran from base.' },
  ),
  sft_steps: {
    kind: 'number',
    default: 0,
    min: 0,
    max: 100000,
    integer: true,
    reason: 'The run’s own SFT steps on described pictures (question, right answer) before GRPO: none from the checkpoint, which holds them already; 800 from base (from_scratch), short on purpose. Measured (wasm): held-out accuracy is 44.8–50.0% at 800 steps (seeds 0–2) and ~70% at 2,500 (seed 0), so the model reads the picture somewhat and GRPO has room to lift it.',
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
  max_steps: {
    ...grpoSchema.max_steps,
    default: VISION_GRPO_STEPS,
    reason: 'The run’s own SFT steps included. From the checkpoint: 150 GRPO steps (32 pictures a step), as many as end within 30 s in a browser. Measured from the checkpoint (wasm, seeds 0–2): held-out accuracy flattens after about 100 steps, 6.4 to 7.4 points up at 150; in the same time a rate of 2e-3 (150 steps: 2.0 to 4.6 points) or 16 pictures a step (300 steps: 3.6 to 5.8) lifted it less. from_scratch: 800 of SFT, then 800 of GRPO. How long a run takes in a browser is measured, not written here: the lab card gives it (npm run record:browser-times).',
  },
  eval_steps: { ...grpoSchema.eval_steps, default: 25, reason: 'Held-out accuracy every 25 steps: a curve of 7 points over the default’s 150 GRPO steps (a greedy evaluation of 500 pictures takes about a tenth of a second in Node). Runs with an SFT phase of their own evaluate every 200 or 50 steps, and so at its end too.' },
  eval_samples: { ...grpoSchema.eval_samples, default: 500, reason: '500 held-out pictures and questions: accuracy to about ±2 points (a greedy evaluation costs well under a second).' },
  seed: grpoSchema.seed,
} satisfies Schema;

/** The presets that train their own model: the SFT phase the checkpoint holds, run live from base. */
const FROM_BASE = { init_from: 'base', sft_steps: VISION_SFT.steps } as const;

export const visionPresets = {
  default: {
    description: 'GRPO from the shipped SFT checkpoint (800 steps of SFT on described pictures, seed 0: 50.0% held out): 150 steps of 32 pictures × 8 answers with a correctness reward, as many as end within 30 s in a browser. Measured (wasm, seeds 0, 1, 2): 56.8%, 56.4%, 57.4% after GRPO, 6.8, 6.4 and 7.4 points up (from_scratch’s 800 GRPO steps lift 11.6 to 23 points: the short run trades lift for time); 34.2 to 35.2 points above text_only (22.6%, 22.2%, 22.2%). Claims vision-grpo-lifts and vision-sees (npm run claims).',
    overrides: {},
  },
  from_scratch: {
    description: 'The whole pipeline, live: SFT on described pictures for 800 steps from an untrained model (the checkpoint’s recipe: watch the loss fall and the answers form), then 800 GRPO steps of 32 pictures × 8 answers. Measured (wasm, seeds 0, 1, 2): held-out accuracy 50.0%, 48.2%, 44.8% after SFT and 65.6%, 71.2%, 56.4% after GRPO, 15.6, 23 and 11.6 points up. About six times the default’s time. Claim vision-from-scratch-lifts (npm run claims).',
    overrides: { ...FROM_BASE, max_steps: 1600, eval_steps: 200 },
  },
  text_only: {
    description: 'The default’s training with the picture replaced by nothing, from an untrained model (the checkpoint has seen pictures): 800 SFT steps, then 150 GRPO steps. What guessing from the question alone reaches (22.6%, 22.2%, 22.2% on seeds 0, 1 and 2), the floor that shows the default model really looks.',
    overrides: { ...FROM_BASE, use_image: false, max_steps: VISION_SFT.steps + VISION_GRPO_STEPS, eval_steps: 50 },
  },
  counting: {
    description: 'A 5 × 5 picture (25 image tokens) and only counting questions: how many of a colour, of a shape, or shapes in all. Each answer depends on every cell, so the policy must attend to the whole picture. A model of its own (the checkpoint reads 4 × 4 pictures): 800 SFT steps, then 800 GRPO steps. Measured (seed 0): 48.4% after SFT and 46.6% after GRPO: GRPO does not lift this preset. By the end the total count is 97% right, while counts of one colour or one shape stay near guessing (22.3%, 21.7%). Without the picture: 17.4%. Claim vision-counting (npm run claims).',
    overrides: { ...FROM_BASE, questions: 'counting', grid_size: 5, max_steps: 1600, eval_steps: 200 },
  },
} satisfies Presets<typeof visionSchema>;
