// The memory calculator's choices and its reading of a layout: shared by the build-time default and the browser.
import { GPU_SIZES_GB, memoryPerGpu, type Layout, type MemoryReport } from '@/lib/dist';

export const CHOICES = {
  dp: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
  tp: [1, 2, 4, 8],
  pp: [1, 2, 4, 8, 16],
  microBatch: [1, 2, 4, 8, 16],
  seqLen: [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072],
  microbatches: [1, 2, 4, 8, 16, 32, 64],
  gpuGB: [...GPU_SIZES_GB],
} as const;

export type NumericField = keyof typeof CHOICES;

/** The choices for one field, including a value an author set in the chapter that is not in the list. */
export function choicesFor(field: NumericField, current: number): number[] {
  const list: number[] = [...CHOICES[field]];
  return list.includes(current) ? list : [...list, current].sort((a, b) => a - b);
}

export type Part = 'weights' | 'gradients' | 'optimizer' | 'activations';
export const PARTS: { key: Part; label: string }[] = [
  { key: 'weights', label: 'Weights (bf16)' },
  { key: 'gradients', label: 'Gradients (bf16)' },
  { key: 'optimizer', label: 'Adam state (fp32 master, m, v)' },
  { key: 'activations', label: 'Activations' },
];

/** The largest part of the bill and what shrinks it, in one sentence. */
export function advice(layout: Layout, r: MemoryReport): string {
  const largest = PARTS.reduce((a, b) => (r[b.key] > r[a.key] ? b : a));
  switch (largest.key) {
    case 'optimizer':
      return layout.zero === 0
        ? 'The Adam state is the largest part: ZeRO-1 shards it over the data-parallel GPUs.'
        : 'The Adam state is still the largest part: more data-parallel GPUs, or TP/PP, shrink each share.';
    case 'weights':
    case 'gradients':
      return layout.zero < 3
        ? `The ${largest.key} are the largest part: ZeRO-${layout.zero < 2 ? '2 shards the gradients, ZeRO-3 also' : '3 shards'} the weights; TP and PP split them too.`
        : 'Weights and gradients are already sharded: TP or PP split the model further.';
    case 'activations':
      return layout.recompute === 'full'
        ? 'Activations are the largest part even with full recomputation: a shorter sequence, a smaller micro-batch, or TP with SP.'
        : 'Activations are the largest part: recomputation, TP with sequence parallelism, or a smaller micro-batch shrink them.';
  }
}

export function report(layout: Layout): MemoryReport | string {
  try {
    return memoryPerGpu(layout);
  } catch (e) {
    return (e as Error).message;
  }
}
