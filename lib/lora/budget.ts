// What a LoRA adapter on a real model costs: trainable parameters and the static memory of training.
// Pure arithmetic on shapes, no tfjs, so a chapter page can import it (and the chapter's numbers are checked by it).
//
// Accounting conventions (all bytes, activations and framework overhead excluded):
// - Adapter on a d_in → d_out projection: A is r × d_in, B is d_out × r, so r·(d_in + d_out) parameters per
//   layer, no bias (PEFT's default bias="none").
// - Adapter training state: 16 bytes per trainable parameter: fp32 weight (4), fp32 gradient (4), Adam's two
//   fp32 moments (8). PEFT ≥ 0.12 casts bf16 adapters to fp32 by default (autocast_adapter_dtype=True); a mixed
//   precision adapter (bf16 weight and gradient, fp32 master copy and moments) also totals 16.
// - Frozen base weights: 4 bytes/param in fp32, 2 in bf16. In 4-bit (QLoRA, bitsandbytes) only the nn.Linear
//   weights of the decoder blocks are quantised: 4-bit NF4 codes plus one fp32 absmax per block of 64 weights
//   (4.5 bits/weight), or with double quantisation an 8-bit absmax per 64 weights and one fp32 constant per 256
//   absmax values (4 + 8/64 + 32/(64·256) ≈ 4.127 bits/weight; arXiv 2305.14314 §3). Embeddings, lm_head
//   (transformers keeps it unquantised) and norms stay in bf16.
// - Full fine-tuning with Adam in mixed precision: 16 bytes/param: bf16 weight (2) and gradient (2), fp32 master
//   weight (4), fp32 moments (8), the ZeRO paper's 2 + 2 + 12 (arXiv 1910.02054).
import { loraScaling } from '@/lib/rl/lora';
import { LORA_MODULES, modelParams, moduleShapes, type LoraModule, type ModelPreset, type ParamCount } from './models';

export * from './models';

export const BASE_PRECISIONS = ['bf16', 'fp32', 'nf4', 'nf4-dq'] as const;
export type BasePrecision = (typeof BASE_PRECISIONS)[number];

export const MAX_RANK = 1024;
export const NF4_BLOCK = 64; // weights per absmax constant (bitsandbytes' 4-bit default blocksize)
export const DQ_BLOCK = 256; // absmax constants per second-level fp32 constant
export const ADAPTER_BYTES_PER_PARAM = { weight: 4, grad: 4, adam: 8 } as const;
export const FULL_FT_BYTES_PER_PARAM = { weight: 2, grad: 2, master: 4, adam: 8 } as const;

export interface LoraBudgetInput {
  model: ModelPreset;
  targets: readonly LoraModule[];
  r: number;
  base: BasePrecision;
  loraAlpha?: number;
  useRslora?: boolean;
}

export interface ModuleRow {
  name: LoraModule;
  dIn: number;
  dOut: number;
  /** r·(d_in + d_out): A and B of one layer. */
  perLayer: number;
  /** perLayer × layers. */
  total: number;
}

export interface LoraBudget {
  modules: ModuleRow[];
  trainable: number;
  model: ParamCount;
  /** PEFT's print_trainable_parameters: 100 · trainable / (base + adapter parameters). */
  trainablePercent: number;
  /** α/r, or α/√r with rsLoRA. */
  scaling: number;
  memory: { baseWeights: number; adapterWeights: number; adapterGrads: number; adamStates: number; total: number };
  fullFineTuning: { weights: number; grads: number; masterWeights: number; adamStates: number; total: number };
}

/** Bytes of one quantised weight matrix of n entries: codes, absmax constants, and (with double quantisation) their constants. */
export function quantizedMatrixBytes(n: number, doubleQuant: boolean): number {
  const blocks = Math.ceil(n / NF4_BLOCK);
  const codes = Math.ceil(n / 2);
  return doubleQuant ? codes + blocks + 4 * Math.ceil(blocks / DQ_BLOCK) : codes + 4 * blocks;
}

/** Bytes of the frozen base model's weights in a given precision. */
export function baseWeightBytes(model: ModelPreset, precision: BasePrecision): number {
  const p = modelParams(model);
  if (precision === 'fp32') return 4 * p.total;
  if (precision === 'bf16') return 2 * p.total;
  const shapes = moduleShapes(model);
  const perLayer = LORA_MODULES.reduce((sum, name) => sum + quantizedMatrixBytes(shapes[name].dIn * shapes[name].dOut, precision === 'nf4-dq'), 0);
  return model.layers * perLayer + 2 * (p.total - p.blockLinear);
}

function checkInput({ model, targets, r, base, loraAlpha }: LoraBudgetInput): void {
  if (!Number.isInteger(r) || r < 1 || r > MAX_RANK) throw new Error(`The rank r must be a whole number from 1 to ${MAX_RANK}, got ${r}.`);
  if (targets.length === 0) throw new Error('Choose at least one target module.');
  const unknown = targets.find((t) => !(LORA_MODULES as readonly string[]).includes(t));
  if (unknown !== undefined) throw new Error(`Unknown target module "${unknown}"; choose from ${LORA_MODULES.join(', ')}.`);
  if (!(BASE_PRECISIONS as readonly string[]).includes(base)) throw new Error(`Unknown base precision "${base}".`);
  if (loraAlpha !== undefined && !(loraAlpha > 0 && Number.isFinite(loraAlpha))) throw new Error(`lora_alpha must be a number > 0, got ${loraAlpha}.`);
  for (const key of ['layers', 'hidden', 'intermediate', 'heads', 'kvHeads', 'headDim', 'vocab'] as const) {
    if (!Number.isInteger(model[key]) || model[key] < 1) throw new Error(`${model.name}: ${key} must be a positive integer.`);
  }
}

export function loraBudget(input: LoraBudgetInput): LoraBudget {
  checkInput(input);
  const { model, r, base, loraAlpha = 2 * r, useRslora = false } = input;
  const shapes = moduleShapes(model);
  // In PEFT's order, each module once however often it was listed.
  const modules = LORA_MODULES.filter((name) => input.targets.includes(name)).map((name): ModuleRow => {
    const { dIn, dOut } = shapes[name];
    const perLayer = r * (dIn + dOut);
    return { name, dIn, dOut, perLayer, total: perLayer * model.layers };
  });
  const trainable = modules.reduce((sum, m) => sum + m.total, 0);
  const params = modelParams(model);
  const adapterWeights = ADAPTER_BYTES_PER_PARAM.weight * trainable;
  const adapterGrads = ADAPTER_BYTES_PER_PARAM.grad * trainable;
  const adamStates = ADAPTER_BYTES_PER_PARAM.adam * trainable;
  const baseWeights = baseWeightBytes(model, base);
  const ft = FULL_FT_BYTES_PER_PARAM;
  return {
    modules,
    trainable,
    model: params,
    trainablePercent: (100 * trainable) / (params.total + trainable),
    scaling: loraScaling(loraAlpha, r, useRslora),
    memory: { baseWeights, adapterWeights, adapterGrads, adamStates, total: baseWeights + adapterWeights + adapterGrads + adamStates },
    fullFineTuning: {
      weights: ft.weight * params.total,
      grads: ft.grad * params.total,
      masterWeights: ft.master * params.total,
      adamStates: ft.adam * params.total,
      total: (ft.weight + ft.grad + ft.master + ft.adam) * params.total,
    },
  };
}
