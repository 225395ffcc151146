/**
 * What an exported TRL project runs on: the TRL release the course pins (named once, in content/trl-defaults.ts), the
 * exact versions of the libraries around it, each with the reason it was chosen, and the model.
 */
import { TRL_VERSION } from '@/content/trl-defaults';

/** The pinned TRL release as pip writes it (TRL_VERSION without its "v"). */
export const TRL_RELEASE = TRL_VERSION.replace(/^v/, '');

export interface Pin {
  name: string;
  version: string;
  why: string;
}

/** requirements.txt, in order; tests check the six named packages are exact and that TRL's comes from TRL_VERSION. */
export const PINS: readonly Pin[] = [
  { name: 'trl', version: TRL_RELEASE, why: `the release this course quotes (${TRL_VERSION}): every config field the scripts pass exists there` },
  {
    name: 'transformers',
    version: '5.8.0',
    why: `TRL ${TRL_VERSION} needs ≥ 4.56.2, GRPOTrainer's tools ≥ 5.0.0 (grpo_trainer.py:586-591), continuous batching ≥ 5.8.0 (grpo_trainer.py:750); 5.1.0 is excluded by TRL's deepspeed extra (transformers#43780) and 5.3.x needs a padding workaround (grpo_trainer.py:1757)`,
  },
  { name: 'datasets', version: '5.0.0', why: `TRL ${TRL_VERSION} needs ≥ 4.7.0 (JSON-typed columns, for tool-call messages); 5.0.0 is the release before TRL's tag` },
  { name: 'accelerate', version: '1.14.0', why: `TRL ${TRL_VERSION} needs ≥ 1.4.0; 1.14.0 is the release before TRL's tag (the accelerate/ configs use its keys)` },
  { name: 'peft', version: '0.20.0', why: 'the PEFT release chapter 2 cites for LoraConfig; TRL needs ≥ 0.8.0' },
  { name: 'deepspeed', version: '0.19.2', why: "TRL's deepspeed extra needs ≥ 0.14.4; 0.19.2 is the release before TRL's tag (ZeRO-2/3 configs)" },
  { name: 'jmespath', version: '1.0.1', why: 'GRPOTrainer parses tool calls with it and refuses tools without it (grpo_trainer.py:599-603)' },
];

/** Not pinned: the wheel must match the machine's CUDA. A lower bound only. */
export const TORCH_REQUIREMENT = { spec: 'torch>=2.4', why: 'pick the build for your CUDA from pytorch.org; bf16 needs an Ampere or newer GPU' };

/** The one model every exported script trains (chapter 2's model; chapter 3's memory calculator knows its shape). */
export const MODEL = 'Qwen/Qwen3-0.6B';
/** Same family, same size, no thinking mode: the alternative to change MODEL to. */
export const MODEL_ALTERNATIVE = 'Qwen/Qwen2.5-0.5B-Instruct';
/** lib/dist/models.ts preset id of MODEL, for the hardware table. */
export const MODEL_SHAPE = 'qwen3-0.6b';

/** The Hub data set every project trains and evaluates on. */
export const DATASET = { id: 'openai/gsm8k', config: 'main' } as const;
