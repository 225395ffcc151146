/**
 * Which ZeRO stage fits on how many GPUs of how much memory, for the exported model and step: chapter 3's memory
 * calculator (lib/dist/memory.ts) with the exported config's sequence length and micro-batch. Every number the
 * README prints comes from here.
 */
import { memoryPerGpu, type MemoryReport } from '@/lib/dist/memory';
import { findModel, paramCount } from '@/lib/dist/models';
import { ZERO_STAGES, type ZeroStage } from '@/lib/dist/zero';
import { MODEL_SHAPE } from './versions';

export const HARDWARE_GPUS = [1, 2, 4, 8] as const;
export const HARDWARE_GB = [24, 40, 80] as const;

export interface HardwareStep {
  /** The script, e.g. "train_grpo.py". */
  script: string;
  /** Tokens per sequence: the longest prompt budget plus the completion (or max_length). */
  seqLen: number;
  /** per_device_train_batch_size. */
  microBatch: number;
}

export interface HardwareCell {
  stage: ZeroStage;
  gpus: number;
  /** GB per GPU (10^9 bytes, as the calculator counts). */
  gb: number;
  fits: Record<(typeof HARDWARE_GB)[number], boolean>;
}

export interface HardwareTable {
  step: HardwareStep;
  cells: HardwareCell[];
  /** The smallest setting that fits: fewest GPUs, then the smallest GPU, then the lowest stage. */
  smallest: { stage: ZeroStage; gpus: number; gpuGB: number } | null;
  params: number;
}

/** Per-GPU memory of one step's micro-batch on `gpus` GPUs at ZeRO `stage` (activation checkpointing on, TRL's default). */
export function stepMemory(step: HardwareStep, stage: ZeroStage, gpus: number, gpuGB = 80): MemoryReport {
  return memoryPerGpu({
    model: MODEL_SHAPE,
    dp: gpus,
    tp: 1,
    pp: 1,
    sequenceParallel: false,
    zero: stage,
    // TRL's _BaseConfig turns gradient_checkpointing on: each layer keeps only its input, as 'full' recomputation.
    recompute: 'full',
    microBatch: step.microBatch,
    seqLen: step.seqLen,
    microbatches: 1,
    gpuGB,
  });
}

export function hardwareTable(step: HardwareStep): HardwareTable {
  const cells: HardwareCell[] = [];
  for (const stage of ZERO_STAGES) {
    for (const gpus of HARDWARE_GPUS) {
      const report = stepMemory(step, stage, gpus);
      const fits = Object.fromEntries(HARDWARE_GB.map((gb) => [gb, report.total <= gb * 1e9])) as HardwareCell['fits'];
      cells.push({ stage, gpus, gb: report.total / 1e9, fits });
    }
  }
  const options = HARDWARE_GPUS.flatMap((gpus) => HARDWARE_GB.flatMap((gpuGB) => ZERO_STAGES.map((stage) => ({ stage, gpus, gpuGB }))));
  const smallest = options.find((o) => cells.some((c) => c.stage === o.stage && c.gpus === o.gpus && c.fits[o.gpuGB])) ?? null;
  return { step, cells, smallest, params: paramCount(findModel(MODEL_SHAPE)) };
}

/** The table as Markdown: one row per ZeRO stage and GPU count, one column per GPU size. */
export function hardwareMarkdown(table: HardwareTable): string {
  const head = `| ZeRO stage | GPUs | GB per GPU | ${HARDWARE_GB.map((gb) => `${gb} GB GPU`).join(' | ')} |`;
  const rule = `| --- | --- | --- | ${HARDWARE_GB.map(() => '---').join(' | ')} |`;
  const rows = table.cells.map(
    (c) => `| ${c.stage === 0 ? '0 (DDP)' : c.stage} | ${c.gpus} | ${c.gb.toFixed(1)} | ${HARDWARE_GB.map((gb) => (c.fits[gb] ? 'fits' : 'no')).join(' | ')} |`,
  );
  return [head, rule, ...rows].join('\n');
}

/** GB of fp32 logits for one micro-batch (micro-batch × tokens × vocabulary × 4 bytes): what the calculator leaves out. */
export function logitsGB(step: HardwareStep): number {
  return (step.microBatch * step.seqLen * findModel(MODEL_SHAPE).vocab * 4) / 1e9;
}
