/**
 * README.md and requirements.txt of the vision project, from readme.ts's shared pieces (files table, warnings,
 * accelerate commands, the mapping and versions tables). Its hardware section is an estimate in words, not a table:
 * the memory calculator behind the GSM8K projects' tables (hardware.ts) knows the shapes of text models
 * (lib/dist/models.ts), not a VLM with its image encoder.
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import { accelerateFileRows, accelerateLaunch, filesTable, mappingMarkdown, requirementsTxt, versionsTable, warningsMarkdown, type ExtraRequirements } from './readme';
import { scopeMarkdown, type ExportScope } from './scope';
import { CELL_PIXELS, PILLOW, TORCHVISION_REQUIREMENT, VISION_MODEL, VISION_MODEL_ALTERNATIVE, type VisionPlan } from './vision';
import { SMOKE_PINS, SMOKE_TORCH, TRL_RELEASE, VLLM_REQUIREMENT } from './versions';

/** Beyond the GSM8K projects' pins: Pillow draws the pictures, and the processor needs a torchvision matching torch. */
const VISION_REQUIREMENTS: ExtraRequirements = { pins: [PILLOW], builds: [TORCHVISION_REQUIREMENT] };

export const visionRequirementsTxt = () => requirementsTxt(VISION_REQUIREMENTS);

const FILES: [string | string[], string][] = [
  ['README.md', 'this file'],
  ['requirements.txt', `exact versions of TRL ${TRL_RELEASE} and the libraries around it, Pillow for the pictures`],
  [['scenes/train.jsonl', 'scenes/test.jsonl'], 'the lab\'s scenes and questions: grid size, cells as colour+shape codes ("rs" a red square, ".." empty), question, answer'],
  ['common.py', 'the model, the processor, `draw_scene`, the prompt and the correctness reward'],
  ['prepare_data.py', 'draws the scenes into `data/` (an `image` column beside a conversational `prompt`)'],
  ['train_sft.py', 'SFT on described pictures (the lab\'s first `sft_steps` steps)'],
  ['train_grpo.py', 'the lab run: GRPOConfig with its values, `correctness_reward`, the processor as `processing_class`'],
  ['eval.py', 'held-out accuracy, greedy, overall and per question kind'],
  ...accelerateFileRows(),
  ['lab-run.json', 'the lab settings this project was exported from'],
];

export function visionReadmeMd(plan: VisionPlan, lab: { name: string; preset: string; summary: string; scenes: { train: number; test: number }; scope: ExportScope }): string {
  const { name, preset, summary, scenes: counts } = lab;
  const skipSft = typeof plan.constants.START_FROM.value !== 'string';
  const warnings = warningsMarkdown(plan.warnings);
  return `# ${name}: the vision lab on a real vision-language model with TRL ${TRL_RELEASE}

Exported from Agentic RL Lab (the \`vision\` trainer, ${summary}; preset \`${preset}\`). The lab trained a tiny
image encoder and language model from scratch in a browser; this project trains \`${VISION_MODEL}\` on the same
scenes and questions with TRL ${TRL_VERSION}: SFT on described pictures, then GRPO with the lab's correctness reward.
${warnings ? `\n${warnings}\n` : ''}
${scopeMarkdown(lab.scope)}
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

${filesTable(FILES)}

## Run it, in order

\`\`\`bash
pip install -r requirements.txt          # after torch and torchvision for your CUDA
python prepare_data.py                   # 1. pictures: CPU, seconds
${skipSft ? '# 2. SFT: skipped, as in the run (sft_steps=0)' : `${accelerateLaunch('train_sft.py')}   # 2. SFT on described pictures`}
${accelerateLaunch('train_grpo.py')}   # 3. GRPO: the lab run
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

${versionsTable(VISION_REQUIREMENTS)}
`;
}
