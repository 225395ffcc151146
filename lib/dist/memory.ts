/**
 * Per-GPU training memory of a model under a parallel layout: model states by ZeRO's accounting (zero.ts)
 * and activations by Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
 * Models" (arXiv:2205.05198, Table 2). Conventions:
 *   - bf16 weights and gradients (2 bytes each), fp32 Adam state K = 12 bytes per parameter;
 *   - TP (size t) splits every layer and the (vocabulary-parallel) embeddings t ways; PP (size p) gives each
 *     stage ⌈L/p⌉ or ⌊L/p⌋ layers, the first stage the input embedding, the last the output layer (a copy
 *     when the embeddings are tied); we report the fuller of the two; ZeRO then shards over the DP ranks;
 *   - activations in bytes per layer and micro-batch of b sequences of s tokens, with hidden size h and a
 *     attention heads, 16-bit activations, as the paper counts them for a GPT layer:
 *       no recomputation   sbh(34 + 5as/h);  with TP: sbh(10 + 24/t + 5as/(ht));  with TP + SP: sbh(34 + 5as/h)/t
 *       selective          drops the quadratic attention term (what FlashAttention-style kernels also avoid)
 *       full               2sbh, only each layer's input (÷t when SP shards it)
 *     The quadratic term 5as²b is, by the paper's section 4, the softmax output (2as²b), the attention-dropout
 *     mask (as²b) and the dropout output (2as²b). A model without attention dropout keeps only the softmax
 *     output, 2as²b, so 5 becomes 2 (attentionDropout: false; every preset here has attention_dropout 0.0).
 *     The linear 34sbh keeps the paper's count, which includes two sbh dropout masks these models lack.
 *     The formula was derived for GPT layers (4h GeLU MLP, full multi-head attention, dropout): for Llama and
 *     Qwen (SwiGLU, grouped K/V heads, no dropout) it is an estimate, not an exact count;
 *   - with 1F1B the first stage holds min(p, m) micro-batches at once (Narayanan et al. 2021); without PP
 *     gradient accumulation holds one;
 *   - not counted: logits for the loss, communication buffers, temporary tensors, allocator fragmentation.
 *   - GB are 10^9 bytes (the ZeRO paper's unit); a "80 GB" GPU is taken at 80·10^9 bytes.
 */
import { findModel, layerParams, paramCount, type ModelShape } from './models';
import { ZERO_STAGES, zeroBreakdown, type ZeroStage } from './zero';

export type Recompute = 'none' | 'selective' | 'full';
export const RECOMPUTE: readonly Recompute[] = ['none', 'selective', 'full'];
export const GPU_SIZES_GB: readonly number[] = [24, 40, 48, 80, 96, 141, 192];
export const GB = 1e9;

export interface Layout {
  /** A preset id from MODEL_PRESETS. */
  model: string;
  dp: number;
  tp: number;
  pp: number;
  /** Megatron sequence parallelism: shards the activations TP leaves replicated (needs tp > 1 to matter). */
  sequenceParallel: boolean;
  zero: ZeroStage;
  recompute: Recompute;
  /** b, sequences per micro-batch. */
  microBatch: number;
  /** s, tokens per sequence. */
  seqLen: number;
  /** m, micro-batches per step per pipeline (gradient accumulation). */
  microbatches: number;
  gpuGB: number;
}

export const DEFAULT_LAYOUT: Layout = {
  model: 'llama-3.1-8b',
  dp: 8,
  tp: 1,
  pp: 1,
  sequenceParallel: false,
  zero: 1,
  recompute: 'selective',
  microBatch: 1,
  seqLen: 4096,
  microbatches: 8,
  gpuGB: 80,
};

export interface MemoryReport {
  model: ModelShape;
  /** Parameters on the fullest GPU (before ZeRO shards their states). */
  paramsPerGpu: number;
  weights: number;
  gradients: number;
  optimizer: number;
  activations: number;
  /** Activation bytes of one layer for one micro-batch, as the formula gives. */
  activationsPerLayer: number;
  /** Micro-batches whose activations the first stage holds at once. */
  inFlight: number;
  layersPerStage: number;
  total: number;
  gpuBytes: number;
  fits: boolean;
  gpus: number;
  /** Worth knowing about this layout, but not an error. */
  notes: string[];
}

const isInt = (x: number, min: number, max: number) => Number.isInteger(x) && x >= min && x <= max;

/** What is wrong with a layout, one sentence each; empty when it can be computed. */
export function layoutProblems(l: Layout): string[] {
  const problems: string[] = [];
  let model: ModelShape | null = null;
  try {
    model = findModel(l.model);
  } catch (e) {
    problems.push((e as Error).message);
  }
  if (!isInt(l.dp, 1, 4096)) problems.push(`DP size must be a whole number from 1 to 4096, got ${l.dp}.`);
  if (!isInt(l.tp, 1, 64)) problems.push(`TP size must be a whole number from 1 to 64, got ${l.tp}.`);
  else if (model && (model.heads % l.tp !== 0 || model.kvHeads % l.tp !== 0)) {
    problems.push(`TP size ${l.tp} must divide the ${model.heads} attention heads and the ${model.kvHeads} K/V heads of ${model.name}.`);
  }
  if (!isInt(l.pp, 1, 512)) problems.push(`PP size must be a whole number ≥ 1, got ${l.pp}.`);
  else if (model && l.pp > model.layers) problems.push(`PP size ${l.pp} is more than the ${model.layers} layers of ${model.name}.`);
  if (!ZERO_STAGES.includes(l.zero)) problems.push(`ZeRO stage must be 0, 1, 2 or 3, got ${l.zero}.`);
  if (!RECOMPUTE.includes(l.recompute)) problems.push(`recomputation must be none, selective or full, got ${String(l.recompute)}.`);
  if (!isInt(l.microBatch, 1, 1024)) problems.push(`micro-batch size must be a whole number from 1 to 1024, got ${l.microBatch}.`);
  if (!isInt(l.seqLen, 1, 1 << 20)) problems.push(`sequence length must be a whole number from 1 to 1,048,576, got ${l.seqLen}.`);
  if (!isInt(l.microbatches, 1, 4096)) problems.push(`micro-batches per step must be a whole number from 1 to 4096, got ${l.microbatches}.`);
  if (!(Number.isFinite(l.gpuGB) && l.gpuGB > 0)) problems.push(`GPU memory must be a positive number of GB, got ${l.gpuGB}.`);
  return problems;
}

/** Korthikanti et al.'s per-layer activation bytes for one micro-batch (see the file comment). */
export function activationsPerLayer(args: {
  s: number;
  b: number;
  h: number;
  a: number;
  t: number;
  sp: boolean;
  recompute: Recompute;
  /** Whether attention probabilities go through dropout (the paper's GPT layer: yes, the default). */
  attentionDropout?: boolean;
}): number {
  const { s, b, h, a, t, sp, recompute } = args;
  const sbh = s * b * h;
  if (recompute === 'full') return (2 * sbh) / (sp ? t : 1);
  // Softmax output (2 bytes per score), plus, with attention dropout, its mask (1) and its output (2).
  const quadratic = (args.attentionDropout ?? true) ? 5 : 2;
  const scores = recompute === 'selective' ? 0 : (quadratic * a * s) / h;
  if (sp) return (sbh * (34 + scores)) / t;
  return sbh * (10 + 24 / t + scores / t);
}

export function memoryPerGpu(l: Layout): MemoryReport {
  const problems = layoutProblems(l);
  if (problems.length > 0) throw new Error(problems.join(' '));
  const model = findModel(l.model);
  const { tp: t, pp: p } = l;
  const perLayer = layerParams(model);
  const embedding = model.vocab * model.hidden;
  const most = Math.ceil(model.layers / p);
  const fewest = Math.floor(model.layers / p);
  const stageParams =
    p === 1
      ? paramCount(model)
      : Math.max(most * perLayer + embedding, fewest * perLayer + embedding + model.hidden);
  const paramsPerGpu = stageParams / t;
  const states = zeroBreakdown({ params: paramsPerGpu, dp: l.dp, stage: l.zero });
  const sp = l.sequenceParallel && t > 1;
  const layer = activationsPerLayer({
    s: l.seqLen,
    b: l.microBatch,
    h: model.hidden,
    a: model.heads,
    t,
    sp,
    recompute: l.recompute,
    attentionDropout: model.attentionDropout,
  });
  const inFlight = Math.min(p, l.microbatches);
  const activations = layer * most * inFlight;
  const total = states.total + activations;
  const gpuBytes = l.gpuGB * GB;
  const notes: string[] = [];
  if (l.zero >= 2 && p > 1) notes.push("DeepSpeed's pipeline engine accepts only ZeRO stage 0 or 1; Megatron-LM's distributed optimizer shards like stage 1.");
  if (t > 8) notes.push('TP beyond the 8 GPUs of one node puts its per-layer all-reduces on the slower network between nodes.');
  if (l.sequenceParallel && t === 1) notes.push('Sequence parallelism splits what TP replicates: with TP size 1 it changes nothing.');
  if (p > 1 && l.microbatches < p) notes.push(`With fewer micro-batches (${l.microbatches}) than stages (${p}) most of the pipeline idles.`);
  return {
    model,
    paramsPerGpu,
    weights: states.weights,
    gradients: states.gradients,
    optimizer: states.optimizer,
    activations,
    activationsPerLayer: layer,
    inFlight,
    layersPerStage: most,
    total,
    gpuBytes,
    fits: total <= gpuBytes,
    gpus: l.dp * t * p,
    notes,
  };
}
