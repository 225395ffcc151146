/**
 * The vision project's Python: common.py (the model, the processor, draw_scene, the prompt, the reward),
 * prepare_data.py, train_sft.py, train_grpo.py and eval.py. Keywords come from the plan (lib/export/vision.ts); the
 * scenes the scripts read are vision-scenes.ts's.
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import { assignments, KWARG_INDENT as I, kwargLines, py } from '../py';
import type { Kwarg } from '../rules';
import { CELL_PIXELS, VISION_MAX_COMPLETION, VISION_MICRO_BATCH_CAP, VISION_MODEL, VISION_MODEL_ALTERNATIVE, type VisionPlan } from '../vision';
import { BATCH_LAYOUT_PY } from './common';

const constantsIn = (plan: VisionPlan, file: string, skip: readonly string[] = []) =>
  assignments(plan.constants, file, skip)
    .map((line) => `${line}\n`)
    .join('');

export const VISION_SYSTEM_PROMPT =
  'The picture is a grid of cells; some cells hold a red, green, blue or yellow square, circle or triangle. Rows and columns are counted from 1, starting at the top left. Answer with one number or one colour word, nothing else.';

export function visionCommonPy(plan: VisionPlan, preset: string): string {
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

export function visionPrepareDataPy(): string {
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

export function visionTrainSftPy(plan: VisionPlan): string {
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

export function visionTrainGrpoPy(plan: VisionPlan): string {
  const start = plan.constants.START_FROM;
  return `"""Step 3: GRPO with the lab's correctness reward (the lab's steps after SFT), GRPOConfig with the run's values.

Run: accelerate launch --config_file accelerate/multi_gpu.yaml train_grpo.py   (or: python train_grpo.py on one GPU)
"""
from datasets import load_from_disk
from trl import GRPOConfig, GRPOTrainer

from common import MODEL, batch_layout, correctness_reward, load_processor

OUTPUT_DIR = "outputs/grpo"
${constantsIn(plan, 'train_grpo.py', ['START_FROM'])}START_FROM = ${py(start.value)}  # ${typeof start.value === 'string' ? "train_sft.py's output" : 'the run had no SFT phase'}
PER_DEVICE_BATCH, ACCUMULATION = batch_layout(BATCH_PER_STEP, ${VISION_MICRO_BATCH_CAP.grpo})


def main():
    data = load_from_disk("data/grpo")
    config = GRPOConfig(
${kwargLines(runKwargs('outputs/grpo'), I)}
${kwargLines(
  [
    ...plan.config,
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

export function visionEvalPy(): string {
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
