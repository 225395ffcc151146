/**
 * The vision lab as a TRL project: a real vision-language model (VISION_MODEL) trained by TRL's SFTTrainer on
 * described pictures, then by GRPOTrainer with the lab's correctness reward, on the lab's own scenes. This file maps
 * the lab's fields (mapping.ts's machinery, as the GSM8K projects do); vision-scenes.ts writes the scenes,
 * python/vision.ts the scripts, vision-readme.ts the README and vision-project.ts puts them together.
 *
 * What TRL supports (read at the pinned release, file:line in TRL's wheel; the git mirror here has no such tag):
 *   - GRPOTrainer takes a processor as processing_class and then treats the model as a VLM (_is_vlm;
 *     trl/trainer/grpo_trainer.py:383-388); without one it loads AutoProcessor (grpo_trainer.py:368-375), and the model
 *     class named in the checkpoint's config (trl/trainer/utils.py:1189-1202: Qwen2_5_VLForConditionalGeneration).
 *   - The dataset's picture is an "image" column (one PIL image) or "images" (a list) beside a conversational "prompt"
 *     (grpo_trainer.py:2422-2427); the trainer inserts {"type": "image"} before the first user text itself
 *     (grpo_trainer.py:2443-2446, trl/data_utils.py:79-86) and refuses a prompt already templated as text
 *     (grpo_trainer.py:2436-2442). Those columns survive remove_unused_columns (grpo_trainer.py:1221).
 *   - No GRPOConfig field sizes images (no max_pixels): the processor does (Qwen2-VL's min_pixels/max_pixels), so the
 *     scripts build it themselves. log_multimodal (trl/trainer/grpo_config.py:987) logs the pictures with completions.
 *   - Limits: transformers' continuous batching refuses VLMs (grpo_trainer.py:377-380); GRPOConfig has no
 *     max_prompt_length any more, so nothing truncates (and so nothing cuts image tokens out of) a prompt.
 *   - SFTTrainer takes the same image column with prompt/completion rows (trl/trainer/sft_trainer.py:1039-1052,
 *     700-718), and refuses packing and padding-free batches for them (sft_trainer.py:1048-1055).
 *
 * The scenes are written by the export (scenes/*.jsonl: the lab's generator, lib/tasks/vision.ts, with the run's
 * grid size, occupancy and questions; train problems from the train split, the held-out set the lab evaluates on) and
 * drawn by the project's Python with Pillow at the model's resolution. Why not PNGs: the same scenes in about a megabyte of
 * text (9,600 SFT problems for the default run) that the zip carries as it carries the scripts, and the drawing scale is one constant (CELL_PIXELS) in
 * common.py, to change for another model's patch size.
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import { sftStepsBehind, VISION_SFT, visionSchema } from '@/lib/train/vision-config';
import { CONFIG_OF } from './mapping';
import { code, float, type Py } from './py';
import { batchOutcome, copied, inBothPhases, inSftPhase, learningRate, mapFields, pythonLiteral, type Kwarg, type Row, type Rule, type Settings } from './rules';

/** The model the vision project trains: in TRL's list of VLMs tested with GRPO (docs/source/grpo_trainer.md:981 at v1.9.0). */
export const VISION_MODEL = 'Qwen/Qwen2.5-VL-3B-Instruct';
/** The model R1-V trained to count (Chen et al. 2025), same processor and chat format, smaller. */
export const VISION_MODEL_ALTERNATIVE = 'Qwen/Qwen2-VL-2B-Instruct';
/**
 * Pixels per cell side in the drawn picture. Qwen2-VL and Qwen2.5-VL cut a picture into 14-pixel patches and merge
 * 2 × 2 of them into one token, 28 pixels a side: a 56-pixel cell is 2 × 2 tokens, and a 4 × 4 scene (224 pixels) is 64.
 */
export const CELL_PIXELS = 56;
/** Answers are one number or one colour word; a few tokens more for "3." and the end of turn. */
export const VISION_MAX_COMPLETION = 16;
/** Per-GPU micro-batch caps for a 3B VLM with a 224-pixel picture. */
export const VISION_MICRO_BATCH_CAP = { sft: 8, grpo: 8 } as const;
/** Pillow draws the scenes (TRL's vlm extra names Pillow and torchvision: the wheel's METADATA:66-69, Provides-Extra: vlm). */
export const PILLOW = { name: 'Pillow', version: '12.3.0', why: 'draws the scenes (common.draw_scene) and is what the image processor reads; TRL’s vlm extra asks for it' };
export const TORCHVISION_REQUIREMENT = {
  spec: 'torchvision',
  why: 'the build that matches your torch (pytorch.org); transformers’ Qwen2-VL video processor imports it, and the processor will not load without one',
};

/** The vision rate's comment: the lab's model and the real one. */
const visionRate = (config: 'SFTConfig' | 'GRPOConfig', lab: number) => learningRate(config, lab, { labModel: 'a tiny model trained from scratch', realModel: '3B' });

/**
 * What each field of the vision lab becomes (a schema field without a rule makes visionPlan throw). Float fields are
 * written as floats in the rules themselves, so that the README's table shows `temperature=1.0` as the script does.
 */
export const VISION_RULES = {
  questions: (v) => ({
    status: 'copied',
    constant: { file: 'common.py', name: 'QUESTIONS', value: v as string },
    note: `scenes/*.jsonl hold the lab’s ${v === 'counting' ? 'counting questions (a colour, a shape, or every shape)' : 'mixed questions (count a colour, count a shape, the colour at a cell)'}, asked in words (“${v === 'counting' ? 'how many shapes?' : 'how many red?'}”) instead of the lab’s one-token codes.`,
  }),
  grid_size: (v) => ({
    status: 'changed',
    constant: { file: 'common.py', name: 'GRID_SIZE', value: v as number },
    note: `the same ${String(v)} × ${String(v)} scenes, drawn ${CELL_PIXELS} pixels a cell (${(v as number) * CELL_PIXELS} pixels a side: ${((v as number) * CELL_PIXELS) / 28} × ${((v as number) * CELL_PIXELS) / 28} = ${(((v as number) * CELL_PIXELS) / 28) ** 2} tokens for Qwen2.5-VL) instead of the lab’s 4, without the lab’s pixel noise; the lab gives each cell one image token.`,
  }),
  occupancy: (v) => ({ status: 'copied', data: 'scenes/*.jsonl', note: `the scenes were drawn with it (${String(v)} of the cells hold a shape) when the project was exported.` }),
  use_image: (v) => ({
    status: 'copied',
    constant: { file: 'common.py', name: 'USE_IMAGE', value: v as boolean },
    note: v ? 'the prompts carry the picture (an "image" column).' : 'the text_only floor: the same questions with no picture (prepare_data.py leaves the image column out), so the VLM can only guess.',
  }),
  init_from: (v) =>
    v === 'sft'
      ? {
          status: 'changed',
          note: `the lab starts from its shipped SFT checkpoint, ${VISION_SFT.steps} steps of SFT on described pictures (seed ${VISION_SFT.seed}); train_sft.py runs those ${VISION_SFT.steps} steps on the pretrained VLM instead, then the run’s own sft_steps, and train_grpo.py starts from its output.`,
        }
      : { status: 'copied', note: 'the lab’s model starts untrained, and its SFT phase is the run’s own sft_steps; the project starts from MODEL, a pretrained VLM.' },
  sft_steps: (v, s) => {
    const steps = sftStepsBehind(s); // from the checkpoint: its SFT steps, then the run's own
    return steps === 0
      ? { status: 'copied', constant: { file: 'train_grpo.py', name: 'START_FROM', value: code('MODEL') }, note: 'no SFT phase in the run: train_grpo.py starts from MODEL (skip train_sft.py).' }
      : {
          status: 'copied',
          sft: [{ name: 'max_steps', value: steps }],
          constant: { file: 'train_grpo.py', name: 'START_FROM', value: 'outputs/sft' },
          note: `${s.init_from === 'sft' ? `the checkpoint’s ${VISION_SFT.steps} SFT steps and the run’s own ${String(v)}` : `the lab’s first ${String(v)} steps`} are SFT on described pictures: train_sft.py runs ${steps}, train_grpo.py starts from its output. A pretrained VLM already reads pictures; here SFT mostly teaches the one-word answer.`,
        };
  },
  sft_learning_rate: (v) => inSftPhase(visionRate('SFTConfig', v as number)),
  sft_batch_size: (v) =>
    inSftPhase(
      batchOutcome(
        v as number,
        VISION_MICRO_BATCH_CAP.sft,
        { file: 'train_sft.py', name: 'SFT_BATCH_PER_STEP' },
        (one) => `${String(v)} described pictures per SFT step, as in the lab, on any number of GPUs (one GPU: ${one.micro} × ${one.accumulation} accumulation steps).`,
      ),
    ),
  learning_rate: (v) => visionRate('GRPOConfig', v as number),
  per_device_train_batch_size: (v) =>
    batchOutcome(
      v as number,
      VISION_MICRO_BATCH_CAP.grpo,
      { file: 'train_grpo.py', name: 'BATCH_PER_STEP' },
      (one) =>
        `${String(v)} answers per GRPO step, as in the lab, on any number of GPUs (one GPU: ${one.micro} × ${one.accumulation} accumulation steps); TRL generates once per optimizer step, so every update is on-policy as in the lab.`,
    ),
  num_generations: (v) => copied('num_generations', v as number),
  temperature: (v) => copied('temperature', float(v as number)),
  beta: (v) => ({
    status: 'copied',
    config: [
      { name: 'beta', value: float(v as number) },
      {
        name: 'use_bias_correction_kl',
        value: false,
        comment: `The lab’s KL term is k3 alone; TRL ${TRL_VERSION} multiplies it by the importance ratio by default (grpo_config.py:967), so the lab’s choice is passed.`,
      },
    ],
    note: (v as number) > 0 ? 'β > 0 loads a reference copy of the 3B model (more memory).' : '',
  }),
  epsilon: (v) => copied('epsilon', float(v as number)),
  loss_type: (v) => copied('loss_type', v as string),
  scale_rewards: (v) => copied('scale_rewards', v as string),
  max_grad_norm: (v) => inBothPhases(copied('max_grad_norm', float(v as number), 'both phases, as in the lab.')),
  max_steps: (v, s) => {
    const grpo = (v as number) - (s.sft_steps as number);
    return copied('max_steps', grpo, `the lab counts its SFT steps in max_steps: ${String(s.sft_steps)} of SFT (train_sft.py) and ${grpo} of GRPO (train_grpo.py).`);
  },
  eval_steps: (v) => ({
    status: 'none',
    config: [{ name: 'eval_strategy', value: 'no' }],
    note: `the lab measures held-out accuracy every ${String(v)} steps by greedy decoding; TRL’s in-training evaluation would sample num_generations answers per picture and report rewards. eval.py measures the lab’s number instead, after SFT and after GRPO: the two points the lab’s claim compares.`,
  }),
  eval_samples: (v) => ({
    status: 'copied',
    constant: { file: 'common.py', name: 'EVAL_SAMPLES', value: v as number },
    note: `scenes/test.jsonl holds the lab’s ${String(v)} held-out problems (its testSet); eval.py scores them greedily.`,
  }),
  seed: (v) =>
    inBothPhases(copied('seed', v as number, 'TrainingArguments.seed in both phases; the scenes were drawn with it too (the same train split, not the lab’s order of draws).')),
} satisfies Record<keyof typeof visionSchema, Rule>;

export interface VisionPlan {
  method: 'vision';
  rows: Row[];
  /** GRPOConfig keywords (train_grpo.py), in the order of the rows. */
  config: Kwarg[];
  /** SFTConfig keywords (train_sft.py). */
  sft: Kwarg[];
  constants: Record<string, { file: string; value: Py }>;
  warnings: string[];
}

/** The mapping of one vision run (its settings complete and valid for the vision schema). */
export function visionPlan(settings: Settings): VisionPlan {
  const { rows, config, sft, constants } = mapFields('vision', visionSchema, VISION_RULES, settings, CONFIG_OF.vision, pythonLiteral);
  const warnings: string[] = [];
  if ((settings.max_steps as number) <= (settings.sft_steps as number)) warnings.push(`The run’s ${String(settings.max_steps)} steps are all SFT (sft_steps ${String(settings.sft_steps)}): train_grpo.py would train for no steps. Raise max_steps above sft_steps.`);
  if (settings.use_image === false) warnings.push('This is the text_only floor: the VLM is asked about pictures it never sees. Export the default preset for the run that looks.');
  return { method: 'vision', rows, config, sft, constants, warnings };
}
