/**
 * The vision lab as a TRL project: a real vision-language model (VISION_MODEL) trained by TRL's SFTTrainer on
 * described pictures, then by GRPOTrainer with the lab's correctness reward, on the lab's own scenes.
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
import { TRL_VERSION, trlDefaults } from '@/content/trl-defaults';
import { createRng } from '@/lib/random';
import { COUNTING_KINDS, createVisionTask, MIXED_KINDS, type VisionProblem } from '@/lib/tasks/vision';
import type { FieldValue } from '@/lib/train/config';
import { ACCELERATE_CONFIGS } from './accelerate';
import { BATCH_LAYOUT_PY } from './python/common';
import { batchLayout, LR_WARNING, type Kwarg, type Row, type Status } from './mapping';
import { code, float, kwargLines, py, shortNumber } from './py';
import { mappingMarkdown } from './readme';
import { PINS, SMOKE_PINS, SMOKE_TORCH, TORCH_REQUIREMENT, TRL_RELEASE, VLLM_REQUIREMENT } from './versions';

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

export const VISION_COLOURS = ['red', 'green', 'blue', 'yellow'] as const;
const COLOUR_WORD: Record<string, string> = { r: 'red', g: 'green', b: 'blue', y: 'yellow' };

type Settings = Readonly<Record<string, FieldValue>>;

export interface VisionOutcome {
  status: Status;
  /** GRPOConfig keywords (train_grpo.py). */
  grpo?: Kwarg[];
  /** SFTConfig keywords (train_sft.py). */
  sft?: Kwarg[];
  constant?: { file: string; name: string; value: import('./py').Py };
  note: string;
}

export interface VisionPlan {
  method: 'vision';
  rows: Row[];
  grpo: Kwarg[];
  sft: Kwarg[];
  constants: Record<string, { file: string; value: import('./py').Py }>;
  warnings: string[];
}

const trlDefault = (config: 'SFTConfig' | 'GRPOConfig', field: string) => {
  const d = trlDefaults.find((x) => x.config === config && x.field === field)!;
  return { value: d.value as number, where: `${d.file}:${d.line} at ${TRL_VERSION}` };
};

function rate(config: 'SFTConfig' | 'GRPOConfig', lab: number, key: 'sft' | 'grpo'): VisionOutcome {
  const real = trlDefault(config, 'learning_rate');
  const why = `lab: ${shortNumber(lab)}, right for a tiny model trained from scratch; ${shortNumber(real.value)} is TRL’s default (${real.where}). ${LR_WARNING.replace('~0.6B', '3B')}`;
  return { status: 'changed', [key]: [{ name: 'learning_rate', value: real.value, comment: why }], note: why };
}

const copiedGrpo = (name: string, value: import('./py').Py, note = ''): VisionOutcome => ({ status: 'copied', grpo: [{ name, value }], note });

type Rule = (value: FieldValue, s: Settings) => VisionOutcome;

/** What each field of the vision lab becomes (a schema field without a rule makes visionPlan throw). */
export const VISION_RULES: Record<string, Rule> = {
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
  occupancy: (v) => ({ status: 'copied', note: `the scenes were drawn with it (${String(v)} of the cells hold a shape) when the project was exported.` }),
  use_image: (v) => ({
    status: 'copied',
    constant: { file: 'common.py', name: 'USE_IMAGE', value: v as boolean },
    note: v ? 'the prompts carry the picture (an "image" column).' : 'the text_only floor: the same questions with no picture (prepare_data.py leaves the image column out), so the VLM can only guess.',
  }),
  sft_steps: (v) =>
    (v as number) === 0
      ? { status: 'copied', constant: { file: 'train_grpo.py', name: 'START_FROM', value: code('MODEL') }, note: 'no SFT phase in the run: train_grpo.py starts from MODEL (skip train_sft.py).' }
      : {
          status: 'copied',
          sft: [{ name: 'max_steps', value: v as number }],
          constant: { file: 'train_grpo.py', name: 'START_FROM', value: 'outputs/sft' },
          note: `the lab’s first ${String(v)} steps are SFT on described pictures: train_sft.py runs them, train_grpo.py starts from its output. A pretrained VLM already reads pictures; here SFT mostly teaches the one-word answer.`,
        },
  sft_learning_rate: (v) => rate('SFTConfig', v as number, 'sft'),
  sft_batch_size: (v) => {
    const one = batchLayout(v as number, VISION_MICRO_BATCH_CAP.sft, 1)!;
    const note = `${String(v)} described pictures per SFT step, as in the lab, on any number of GPUs (one GPU: ${one.micro} × ${one.accumulation} accumulation steps).`;
    return {
      status: 'copied',
      sft: [
        { name: 'per_device_train_batch_size', value: code('PER_DEVICE_BATCH') },
        { name: 'gradient_accumulation_steps', value: code('ACCUMULATION'), comment: note },
      ],
      constant: { file: 'train_sft.py', name: 'SFT_BATCH_PER_STEP', value: v as number },
      note,
    };
  },
  learning_rate: (v) => rate('GRPOConfig', v as number, 'grpo'),
  per_device_train_batch_size: (v) => {
    const one = batchLayout(v as number, VISION_MICRO_BATCH_CAP.grpo, 1)!;
    const note = `${String(v)} answers per GRPO step, as in the lab, on any number of GPUs (one GPU: ${one.micro} × ${one.accumulation} accumulation steps); TRL generates once per optimizer step, so every update is on-policy as in the lab.`;
    return {
      status: 'copied',
      grpo: [
        { name: 'per_device_train_batch_size', value: code('PER_DEVICE_BATCH') },
        { name: 'gradient_accumulation_steps', value: code('ACCUMULATION'), comment: note },
      ],
      constant: { file: 'train_grpo.py', name: 'BATCH_PER_STEP', value: v as number },
      note,
    };
  },
  num_generations: (v) => copiedGrpo('num_generations', v as number),
  temperature: (v) => copiedGrpo('temperature', float(v as number)),
  beta: (v) => ({
    status: 'copied',
    grpo: [
      { name: 'beta', value: float(v as number) },
      {
        name: 'use_bias_correction_kl',
        value: false,
        comment: `The lab’s KL term is k3 alone; TRL ${TRL_VERSION} multiplies it by the importance ratio by default (grpo_config.py:967), so the lab’s choice is passed.`,
      },
    ],
    note: (v as number) > 0 ? 'β > 0 loads a reference copy of the 3B model (more memory).' : '',
  }),
  epsilon: (v) => copiedGrpo('epsilon', float(v as number)),
  loss_type: (v) => copiedGrpo('loss_type', v as string),
  scale_rewards: (v) => copiedGrpo('scale_rewards', v as string),
  max_grad_norm: (v) => ({ status: 'copied', grpo: [{ name: 'max_grad_norm', value: float(v as number) }], sft: [{ name: 'max_grad_norm', value: float(v as number) }], note: 'both phases, as in the lab.' }),
  max_steps: (v, s) => {
    const grpo = (v as number) - (s.sft_steps as number);
    const note = `the lab counts its SFT steps in max_steps: ${String(s.sft_steps)} of SFT (train_sft.py) and ${grpo} of GRPO (train_grpo.py).`;
    return { status: 'copied', grpo: [{ name: 'max_steps', value: grpo }], note };
  },
  eval_steps: (v) => ({
    status: 'none',
    grpo: [{ name: 'eval_strategy', value: 'no' }],
    note: `the lab measures held-out accuracy every ${String(v)} steps by greedy decoding; TRL’s in-training evaluation would sample num_generations answers per picture and report rewards. eval.py measures the lab’s number instead, after SFT and after GRPO: the two points the lab’s claim compares.`,
  }),
  eval_samples: (v) => ({
    status: 'copied',
    constant: { file: 'common.py', name: 'EVAL_SAMPLES', value: v as number },
    note: `scenes/test.jsonl holds the lab’s ${String(v)} held-out problems (its testSet); eval.py scores them greedily.`,
  }),
  seed: (v) => ({
    status: 'copied',
    grpo: [{ name: 'seed', value: v as number }],
    sft: [{ name: 'seed', value: v as number }],
    note: 'TrainingArguments.seed in both phases; the scenes were drawn with it too (the same train split, not the lab’s order of draws).',
  }),
};

function target(o: VisionOutcome): string {
  const kw = (k: Kwarg) => `${k.name}=${py(k.value)}`;
  const parts: string[] = [];
  if (o.sft?.length) parts.push(`SFTConfig(${o.sft.map(kw).join(', ')})`);
  if (o.grpo?.length) parts.push(`GRPOConfig(${o.grpo.map(kw).join(', ')})`);
  if (o.constant) parts.push(`${o.constant.file}: ${o.constant.name} = ${py(o.constant.value)}`);
  return parts.length ? parts.join('; ') : o.status === 'none' ? 'no counterpart' : 'scenes/*.jsonl';
}

/** The mapping of one vision run (its settings complete and valid for the vision schema). */
export function visionPlan(fields: readonly string[], settings: Settings): VisionPlan {
  const rows: Row[] = [];
  const grpo: Kwarg[] = [];
  const sft: Kwarg[] = [];
  const constants: VisionPlan['constants'] = {};
  for (const field of fields) {
    const rule = Object.hasOwn(VISION_RULES, field) ? VISION_RULES[field] : undefined;
    if (!rule) throw new Error(`lib/export/vision.ts has no rule for the vision field ${field}`);
    const o = rule(settings[field], settings);
    rows.push({ field, value: settings[field], status: o.status, target: target(o), note: o.note });
    grpo.push(...(o.grpo ?? []));
    sft.push(...(o.sft ?? []));
    if (o.constant) constants[o.constant.name] = { file: o.constant.file, value: o.constant.value };
  }
  const warnings: string[] = [];
  if ((settings.max_steps as number) <= (settings.sft_steps as number)) warnings.push(`The run’s ${String(settings.max_steps)} steps are all SFT (sft_steps ${String(settings.sft_steps)}): train_grpo.py would train for no steps. Raise max_steps above sft_steps.`);
  if (settings.use_image === false) warnings.push('This is the text_only floor: the VLM is asked about pictures it never sees. Export the default preset for the run that looks.');
  return { method: 'vision', rows, grpo, sft, constants, warnings };
}

// ---- The scenes --------------------------------------------------------------------------------------------------

/** One problem as scenes/*.jsonl stores it: the scene in the lab's cell codes ("rs" red square, ".." empty). */
export interface SceneRow {
  size: number;
  cells: string;
  kind: string;
  question: string;
  answer: string;
}

const SHAPE_CODE: Record<string, string> = { square: 's', circle: 'c', triangle: 't' };

export function sceneRow(p: VisionProblem): SceneRow {
  const cells = p.scene.cells.map((c) => (c ? c.colour[0] + SHAPE_CODE[c.shape] : '..')).join('');
  // The lab answers a colour with its letter (one token); the VLM answers with the word.
  const answer = p.kind === 'colour_at' ? COLOUR_WORD[p.answer] : p.answer;
  return { size: p.scene.size, cells, kind: p.kind, question: p.question, answer };
}

/** Train problems for both phases, from the lab's train split, seeded; and the lab's own held-out set. */
export function visionScenes(settings: Settings): { train: SceneRow[]; test: SceneRow[] } {
  const task = createVisionTask({
    size: settings.grid_size as number,
    kinds: settings.questions === 'counting' ? COUNTING_KINDS : MIXED_KINDS,
    occupancy: settings.occupancy as number,
  });
  const grpoPrompts = Math.max(0, (settings.max_steps as number) - (settings.sft_steps as number)) * ((settings.per_device_train_batch_size as number) / (settings.num_generations as number));
  const sftExamples = (settings.sft_steps as number) * (settings.sft_batch_size as number);
  // As many problems as the longer phase consumes (each phase reads the file from the start), at most 20,000.
  const n = Math.min(20_000, Math.max(64, grpoPrompts, sftExamples));
  const train = task.sample('train', n, createRng(`vision-export/${String(settings.seed)}`)).map(sceneRow);
  const test = task.testSet(settings.eval_samples as number).map(sceneRow);
  return { train, test };
}

const jsonl = (rows: readonly SceneRow[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

// ---- The Python --------------------------------------------------------------------------------------------------

const I = '        ';
const constantsIn = (plan: VisionPlan, file: string) =>
  Object.entries(plan.constants)
    .filter(([, c]) => c.file === file)
    .map(([name, c]) => `${name} = ${py(c.value)}\n`)
    .join('');

export const VISION_SYSTEM_PROMPT =
  'The picture is a grid of cells; some cells hold a red, green, blue or yellow square, circle or triangle. Rows and columns are counted from 1, starting at the top left. Answer with one number or one colour word, nothing else.';

function commonPy(plan: VisionPlan, preset: string): string {
  return `"""Shared by every script: the model, the processor, the scenes drawn as pictures, the prompt and the reward.

Exported from Agentic RL Lab (the vision trainer, preset ${preset}) for TRL ${TRL_VERSION}.
"""
import json
import os
import re

# The one model every script trains. ${VISION_MODEL_ALTERNATIVE} (R1-V's model) has the same processor and chat format.
MODEL = ${py(VISION_MODEL)}
${constantsIn(plan, 'common.py')}# Pixels per cell: Qwen2(.5)-VL merges 14-pixel patches 2 x 2 into one 28-pixel token, so a cell is 2 x 2 tokens.
CELL_PIXELS = ${CELL_PIXELS}
SYSTEM_PROMPT = ${py(VISION_SYSTEM_PROMPT)}
COLOURS = {"r": (255, 0, 0), "g": (0, 255, 0), "b": (0, 0, 255), "y": (255, 255, 0)}  # the lab's RGB, 0-1 scaled to 0-255


def load_processor():
    """The model's processor, told to keep each picture at its drawn size (no GRPOConfig field sizes images: the
    processor does). Left padding, as GRPOTrainer wants for generation."""
    from transformers import AutoProcessor

    pixels = (GRID_SIZE * CELL_PIXELS) ** 2
    return AutoProcessor.from_pretrained(MODEL, min_pixels=pixels, max_pixels=pixels, padding_side="left")


def draw_scene(size: int, cells: str):
    """A scene from scenes/*.jsonl as a picture: black background, each cell's shape in its colour with a margin
    (the lab's masks: a full square, a disc, a right triangle in the lower left). No pixel noise (the lab's noise keeps
    its 48-value patches from being trivial; a VLM's encoder does not need it)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (size * CELL_PIXELS, size * CELL_PIXELS), (0, 0, 0))
    draw = ImageDraw.Draw(image)
    m = CELL_PIXELS // 8
    for i in range(size * size):
        code = cells[2 * i : 2 * i + 2]
        if code == "..":
            continue
        x, y = (i % size) * CELL_PIXELS, (i // size) * CELL_PIXELS
        box = (x + m, y + m, x + CELL_PIXELS - 1 - m, y + CELL_PIXELS - 1 - m)
        colour = COLOURS[code[0]]
        if code[1] == "s":
            draw.rectangle(box, fill=colour)
        elif code[1] == "c":
            draw.ellipse(box, fill=colour)
        elif code[1] == "t":
            draw.polygon([(box[0], box[1]), (box[0], box[3]), (box[2], box[3])], fill=colour)
        else:
            raise ValueError(f"unknown shape code {code!r} in cell {i}")
    return image


def read_scenes(split: str) -> list:
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenes", f"{split}.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def prompt(row: dict) -> list:
    """The conversation GRPOTrainer and SFTTrainer take: plain text; the trainers insert the picture before the question."""
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": row["question"].capitalize()}]


${BATCH_LAYOUT_PY}


def completion_text(completion) -> str:
    if isinstance(completion, str):
        return completion
    for m in reversed(completion):
        if m.get("role") == "assistant" and m.get("content"):
            content = m["content"]
            return content if isinstance(content, str) else " ".join(p.get("text", "") for p in content if p.get("type") == "text")
    return ""


def normalise(text: str) -> str:
    """What the reward compares: lower case, no surrounding spaces, no final full stop ("Red." -> "red")."""
    return re.sub(r"\\.$", "", text.strip().lower()).strip()


def correctness_reward(completions, answer, **kwargs) -> list[float]:
    """1.0 when the whole answer is the truth (a number, or a colour word), else 0.0: the lab's exact-match reward,
    forgiving only case, spaces and a final full stop."""
    return [1.0 if normalise(completion_text(c)) == truth else 0.0 for c, truth in zip(completions, answer)]
`;
}

function preparePy(): string {
  return `"""Step 1: the lab's scenes (scenes/*.jsonl) drawn as pictures, into data/ as datasets.

  data/grpo: prompt (conversation), image (unless USE_IMAGE is off), answer       -> train_grpo.py
  data/sft:  prompt, completion (the right answer), image                          -> train_sft.py

Run: python prepare_data.py   (CPU, seconds)
"""
from datasets import Dataset, DatasetDict

from common import USE_IMAGE, draw_scene, prompt, read_scenes


def rows(split: str, sft: bool) -> list:
    out = []
    for row in read_scenes(split):
        example = {"prompt": prompt(row)}
        if sft:
            example["completion"] = [{"role": "assistant", "content": row["answer"]}]
        else:
            example["answer"] = row["answer"]
            example["kind"] = row["kind"]
        if USE_IMAGE:
            example["image"] = draw_scene(row["size"], row["cells"])
        out.append(example)
    return out


def main():
    for name, sft in (("grpo", False), ("sft", True)):
        data = DatasetDict({split: Dataset.from_list(rows(split, sft)) for split in ("train", "test")})
        data.save_to_disk(f"data/{name}")
        print(name, {split: len(d) for split, d in data.items()})


if __name__ == "__main__":
    main()
`;
}

const runKwargs = (outputDir: string): Kwarg[] => [
  { name: 'output_dir', value: outputDir },
  { name: 'model_init_kwargs', value: { dtype: 'float32' }, comment: 'fp32 weights (TRL’s own default for a model given by name): Adam’s steps near 1e-6 would round away in bf16.' },
  { name: 'bf16', value: true, comment: 'Mixed precision (an Ampere or newer GPU).' },
  { name: 'gradient_checkpointing', value: true },
  { name: 'logging_steps', value: 5 },
  { name: 'save_strategy', value: 'steps' },
  { name: 'save_steps', value: 100 },
  { name: 'save_total_limit', value: 2 },
  { name: 'report_to', value: 'none', comment: 'Set "trackio", "wandb" or "tensorboard" to see the curves the lab draws.' },
];

function trainSftPy(plan: VisionPlan): string {
  return `"""Step 2: SFT on described pictures (the lab's first sft_steps steps): the picture, the question, the right answer.

Run: accelerate launch --config_file accelerate/multi_gpu.yaml train_sft.py   (or: python train_sft.py on one GPU)
"""
from datasets import load_from_disk
from trl import SFTConfig, SFTTrainer

from common import MODEL, batch_layout, load_processor

OUTPUT_DIR = "outputs/sft"
${constantsIn(plan, 'train_sft.py')}PER_DEVICE_BATCH, ACCUMULATION = batch_layout(SFT_BATCH_PER_STEP, ${VISION_MICRO_BATCH_CAP.sft})


def main():
    data = load_from_disk("data/sft")
    config = SFTConfig(
${kwargLines(runKwargs('outputs/sft'), I)}
${kwargLines(
  [
    ...plan.sft,
    { name: 'max_length', value: null, comment: 'No truncation: cutting a prompt would cut image tokens the model then cannot match to the picture.' },
    { name: 'completion_only_loss', value: true, comment: 'Loss on the answer only, as the lab’s SFT.' },
    { name: 'eval_strategy', value: 'no' },
  ],
  I,
)}
    )
    processor = load_processor()
    trainer = SFTTrainer(model=MODEL, args=config, train_dataset=data["train"], processing_class=processor)
    trainer.train()
    trainer.save_model(OUTPUT_DIR)
    processor.save_pretrained(OUTPUT_DIR)


if __name__ == "__main__":
    main()
`;
}

function trainGrpoPy(plan: VisionPlan): string {
  const start = plan.constants.START_FROM;
  return `"""Step 3: GRPO with the lab's correctness reward (the lab's steps after SFT), GRPOConfig with the run's values.

Run: accelerate launch --config_file accelerate/multi_gpu.yaml train_grpo.py   (or: python train_grpo.py on one GPU)
"""
from datasets import load_from_disk
from trl import GRPOConfig, GRPOTrainer

from common import MODEL, batch_layout, correctness_reward, load_processor

OUTPUT_DIR = "outputs/grpo"
${constantsIn(plan, 'train_grpo.py').replace(/^START_FROM = .*\n/m, '')}START_FROM = ${py(start.value)}  # ${typeof start.value === 'string' ? "train_sft.py's output" : 'the run had no SFT phase'}
PER_DEVICE_BATCH, ACCUMULATION = batch_layout(BATCH_PER_STEP, ${VISION_MICRO_BATCH_CAP.grpo})


def main():
    data = load_from_disk("data/grpo")
    config = GRPOConfig(
${kwargLines(runKwargs('outputs/grpo'), I)}
${kwargLines(
  [
    ...plan.grpo,
    { name: 'max_completion_length', value: VISION_MAX_COMPLETION, comment: 'Not a lab field: the lab’s answers are one or two tokens; a number or a colour word, and the end of the turn.' },
    { name: 'log_completions', value: true, comment: 'With log_multimodal (on by default) the pictures are logged beside the answers.' },
  ],
  I,
)}
    )
    # A processor (not a tokenizer) as processing_class is what makes GRPOTrainer treat the model as a VLM.
    processor = load_processor()
    trainer = GRPOTrainer(model=START_FROM, args=config, reward_funcs=[correctness_reward], train_dataset=data["train"], processing_class=processor)
    trainer.train()
    trainer.save_model(OUTPUT_DIR)
    processor.save_pretrained(OUTPUT_DIR)


if __name__ == "__main__":
    main()
`;
}

function evalPy(): string {
  return `"""Held-out accuracy, the lab's number: greedy answers to the lab's held-out problems (scenes/test.jsonl), scored by
correctness_reward, overall and per question kind. Writes eval-<model folder>.json.

Run: python eval.py --model outputs/sft   (then --model outputs/grpo)
"""
import argparse
import json
import os

import torch
from transformers import AutoModelForImageTextToText

import common
from common import EVAL_SAMPLES, USE_IMAGE, correctness_reward, draw_scene, prompt, read_scenes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=common.MODEL)
    parser.add_argument("--limit", type=int, default=EVAL_SAMPLES)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--max_new_tokens", type=int, default=${VISION_MAX_COMPLETION})
    args = parser.parse_args()
    processor = common.load_processor()
    model = AutoModelForImageTextToText.from_pretrained(args.model, dtype="auto")
    model.to("cuda" if torch.cuda.is_available() else "cpu").eval()
    rows = read_scenes("test")[: args.limit]
    scores, kinds = [], {}
    for start in range(0, len(rows), args.batch_size):
        batch = rows[start : start + args.batch_size]
        conversations = []
        for row in batch:
            messages = prompt(row)
            content = ([{"type": "image", "image": draw_scene(row["size"], row["cells"])}] if USE_IMAGE else []) + [{"type": "text", "text": messages[-1]["content"]}]
            conversations.append([messages[0], {"role": "user", "content": content}])
        inputs = processor.apply_chat_template(conversations, add_generation_prompt=True, tokenize=True, return_dict=True, return_tensors="pt", processor_kwargs={"padding": True}).to(model.device)
        with torch.no_grad():
            out = model.generate(**inputs, max_new_tokens=args.max_new_tokens, do_sample=False)
        texts = processor.batch_decode(out[:, inputs["input_ids"].shape[1] :], skip_special_tokens=True)
        for row, score in zip(batch, correctness_reward(texts, [r["answer"] for r in batch])):
            scores.append(score)
            kinds.setdefault(row["kind"], []).append(score)
    summary = {"model": args.model, "problems": len(scores), "accuracy": sum(scores) / max(1, len(scores)), "by_kind": {k: sum(v) / len(v) for k, v in kinds.items()}}
    print(json.dumps(summary))
    with open(f"eval-{os.path.basename(os.path.normpath(args.model))}.json", "w") as f:
        json.dump(summary, f, indent=2)


if __name__ == "__main__":
    main()
`;
}

export function visionRequirementsTxt(): string {
  const lines = [...PINS, PILLOW].map((p) => `${p.name}==${p.version}`.padEnd(24) + `# ${p.why}`);
  return `# Exact versions for TRL ${TRL_VERSION}. Install torch and torchvision first, the builds for your CUDA (${TORCH_REQUIREMENT.why}).
${TORCH_REQUIREMENT.spec}
${TORCHVISION_REQUIREMENT.spec}                   # ${TORCHVISION_REQUIREMENT.why}
${lines.join('\n')}
`;
}

function readme(plan: VisionPlan, name: string, preset: string, summary: string, counts: { train: number; test: number }): string {
  const skipSft = typeof plan.constants.START_FROM.value !== 'string';
  const accel = (script: string) => `accelerate launch --config_file accelerate/multi_gpu.yaml --num_processes 2 ${script}`;
  const warnings = plan.warnings.map((w) => `> **Warning.** ${w}`).join('\n>\n');
  return `# ${name}: the vision lab on a real vision-language model with TRL ${TRL_RELEASE}

Exported from Agentic RL Lab (the \`vision\` trainer, ${summary}; preset \`${preset}\`). The lab trained a tiny
image encoder and language model from scratch in a browser; this project trains \`${VISION_MODEL}\` on the same
scenes and questions with TRL ${TRL_VERSION}: SFT on described pictures, then GRPO with the lab's correctness reward.
${warnings ? `\n${warnings}\n` : ''}
## What differs from the lab

- **Model.** \`${VISION_MODEL}\` (a pretrained VLM, ~3.8B parameters), not the lab's 16-token patch encoder in front of
  a ~30k-parameter language model. \`${VISION_MODEL_ALTERNATIVE}\` (R1-V's model) is the smaller choice: change
  \`MODEL\` in \`common.py\`.
- **Pictures.** The same scenes, ${counts.train} train problems from the lab's train split (seeded with the run's seed, not
  in the lab's order) and its ${counts.test} held-out problems, drawn by \`common.draw_scene\` with Pillow at
  ${CELL_PIXELS} pixels a cell (Qwen2.5-VL: 2 × 2 image tokens a cell) instead of the lab's 4 × 4 pixels and one token
  a cell, and without the lab's pixel noise. The questions are asked in words with a system prompt; colours are
  answered with words ("red"), not the lab's letters.
- **SFT phase.** The lab's SFT teaches a model from scratch to read pictures at all; a pretrained VLM already can, so
  here it mostly teaches the one-word answer. Skipping it (\`START_FROM = MODEL\` in \`train_grpo.py\`) is a fair
  experiment: GRPO alone then has to find the format.
- **Evaluation.** The lab evaluates during training; here \`eval.py\` measures the same held-out accuracy after each phase.
- **Learning rates.** The lab's suit its tiny model; the scripts use TRL's defaults (see the table below).

## What was run, and what was not

The course's export smoke test runs every step of the default vision project at toy scale on a CPU: a random
Qwen2.5-VL of a few hundred thousand parameters with Qwen2.5-VL's chat template in place of \`${VISION_MODEL}\`, a
few problems, a few steps of each trainer, with ${SMOKE_PINS.map((p) => `${p.name} ${p.version}`).join(', ')}, ${PILLOW.name} ${PILLOW.version} and ${SMOKE_TORCH.replace('==', ' ')} for CPU. Its
package index has no torchvision, so it builds the processor from Qwen2-VL's Pillow image processor and no video
processor; with \`requirements.txt\` installed, \`load_processor()\` loads the model's own. It shows the scripts run and
that every keyword and data format is one TRL ${TRL_RELEASE} accepts; nothing about accuracy, memory or speed on a GPU.

## Files

| file | what it does |
| --- | --- |
| \`README.md\` | this file |
| \`requirements.txt\` | exact versions of TRL ${TRL_RELEASE} and the libraries around it, Pillow for the pictures |
| \`scenes/train.jsonl\`, \`scenes/test.jsonl\` | the lab's scenes and questions: grid size, cells as colour+shape codes ("rs" a red square, ".." empty), question, answer |
| \`common.py\` | the model, the processor, \`draw_scene\`, the prompt and the correctness reward |
| \`prepare_data.py\` | draws the scenes into \`data/\` (an \`image\` column beside a conversational \`prompt\`) |
| \`train_sft.py\` | SFT on described pictures (the lab's first \`sft_steps\` steps) |
| \`train_grpo.py\` | the lab run: GRPOConfig with its values, \`correctness_reward\`, the processor as \`processing_class\` |
| \`eval.py\` | held-out accuracy, greedy, overall and per question kind |
${ACCELERATE_CONFIGS.map((c) => `| \`${c.path}\` | ${c.summary} |`).join('\n')}
| \`lab-run.json\` | the lab settings this project was exported from |

## Run it, in order

\`\`\`bash
pip install -r requirements.txt          # after torch and torchvision for your CUDA
python prepare_data.py                   # 1. pictures: CPU, seconds
${skipSft ? '# 2. SFT: skipped, as in the run (sft_steps=0)' : `${accel('train_sft.py')}   # 2. SFT on described pictures`}
${accel('train_grpo.py')}   # 3. GRPO: the lab run
python eval.py --model ${skipSft ? VISION_MODEL : 'outputs/sft'}          # 4. held-out accuracy before GRPO
python eval.py --model outputs/grpo        #    and after
\`\`\`

Serve with \`pip install "${VLLM_REQUIREMENT}"\` and \`vllm serve outputs/grpo\` (vLLM serves Qwen2.5-VL with images in
the OpenAI chat format), or load it with \`AutoModelForImageTextToText\` as \`eval.py\` does.

## Hardware

Full fine-tuning of a ~3.8B model in fp32 with Adam needs about 16 bytes a parameter of model states, ~60 GB, before
activations: one 80 GB GPU with small micro-batches, or \`accelerate/zero3.yaml\` across several. With \`beta\` > 0 the
reference model adds ~15 GB. A 224-pixel picture is 64 image tokens, so sequences stay short (~150 tokens).
This is a calculation, not a measurement.

## What carried over

${mappingMarkdown(plan.rows)}

## Versions

| package | version | why |
| --- | --- | --- |
${[...PINS, PILLOW].map((p) => `| ${p.name} | ${p.version} | ${p.why.replace(/\|/g, '\\|')} |`).join('\n')}
| ${TORCHVISION_REQUIREMENT.spec} | not pinned | ${TORCHVISION_REQUIREMENT.why} |
`;
}

/** Every file of the vision project, in a fixed order; the same settings give the same bytes. */
export function buildVisionProject(fields: readonly string[], settings: Settings, preset: string, summary: string) {
  const plan = visionPlan(fields, settings);
  const name = `trl-vision-${preset.replace(/[^a-z0-9_-]/gi, '_')}`;
  const scenes = visionScenes(settings);
  const files = [
    { path: 'README.md', text: readme(plan, name, preset, summary, { train: scenes.train.length, test: scenes.test.length }) },
    { path: 'requirements.txt', text: visionRequirementsTxt() },
    { path: 'common.py', text: commonPy(plan, preset) },
    { path: 'prepare_data.py', text: preparePy() },
    { path: 'train_sft.py', text: trainSftPy(plan) },
    { path: 'train_grpo.py', text: trainGrpoPy(plan) },
    { path: 'eval.py', text: evalPy() },
    { path: 'scenes/train.jsonl', text: jsonl(scenes.train) },
    { path: 'scenes/test.jsonl', text: jsonl(scenes.test) },
    ...ACCELERATE_CONFIGS.map((c) => ({ path: c.path, text: c.text })),
    { path: 'lab-run.json', text: `${JSON.stringify({ exported_from: 'Agentic RL Lab', trl: TRL_VERSION, trainer: 'vision', model: VISION_MODEL, preset, settings }, null, 2)}\n` },
  ];
  return { name, plan, files };
}
