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

/**
 * requirements.txt, in order; tests check the named packages are exact and that TRL's comes from TRL_VERSION. Every
 * version here was installed together and ran every exported project at toy scale on a CPU (tests/export-smoke, which
 * .ci/run runs on each submission), except deepspeed: it has no CPU wheel on the index CI reaches, so the smoke test
 * leaves it out (only accelerate/zero2.yaml and zero3.yaml need it).
 */
export const PINS: readonly Pin[] = [
  { name: 'trl', version: TRL_RELEASE, why: `the release this course quotes (${TRL_VERSION}): every config field the scripts pass exists there` },
  {
    name: 'transformers',
    version: '5.17.0',
    why: `TRL ${TRL_VERSION} needs ≥ 4.56.2, GRPOTrainer's tools ≥ 5.0.0 (grpo_trainer.py:597-601), continuous batching ≥ 5.8.0 (grpo_trainer.py:763); from 5.13.0 tool calls are parsed without jmespath (grpo_trainer.py:610-616); 5.1.0 is excluded by TRL's deepspeed extra and 5.3.x needs a padding workaround (grpo_trainer.py:1793)`,
  },
  { name: 'datasets', version: '5.0.1', why: `TRL ${TRL_VERSION} needs ≥ 4.7.0 (JSON-typed columns, for tool-call messages)` },
  { name: 'accelerate', version: '1.15.0', why: `TRL ${TRL_VERSION} needs ≥ 1.4.0 (the accelerate/ configs use its keys)` },
  { name: 'peft', version: '0.21.0', why: `TRL's peft extra needs ≥ 0.13.0; LoraConfig's fields as chapter 2 describes them` },
  { name: 'deepspeed', version: '0.19.2', why: "only for accelerate/zero2.yaml and zero3.yaml; TRL's deepspeed extra needs ≥ 0.18.6" },
];

/** The vLLM releases TRL's vllm extra accepts (its METADATA: vllm>=0.19.1,<=0.28.0), for the README's serving step. */
export const VLLM_REQUIREMENT = 'vllm>=0.19.1,<=0.28.0';

/** The packages the smoke test's environment installs (PINS without deepspeed), and the CPU torch it runs on. */
export const SMOKE_PINS = PINS.filter((p) => p.name !== 'deepspeed');
export const SMOKE_TORCH = 'torch==2.13.0';

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
