// What the demonstration table shows for each result: the comparison, its largest difference, and a verdict.
import type { DemoName, DemoResult } from '@/lib/dist/equivalence';

/** The bar for "equal": float32 keeps about 7 significant digits, and these values are of order 1. */
export const FLOAT32_BAR = 1e-5;

export interface DemoRow {
  key: string;
  what: string;
  /** Largest absolute differences; several for per-step rows. */
  values: number[];
  /** 'equal': should be within the bar; 'different': a contrast that should not be; 'rounding': shown for what it teaches. */
  expect: 'equal' | 'different' | 'rounding';
  detail: string;
}

export const DEMO_TITLES: Record<DemoName, string> = {
  dp: 'Data parallelism',
  tp: 'Tensor parallelism',
  zero: 'ZeRO-sharded Adam',
};

export function rowsFor(r: DemoResult): DemoRow[] {
  switch (r.name) {
    case 'dp':
      return [
        {
          key: 'dp',
          what: `Mean of ${r.workers} workers’ gradients (each on ${r.batchSize / r.workers} of the ${r.batchSize} problems) vs. one worker’s gradient on the whole batch`,
          values: [r.maxAbsDiff],
          expect: 'equal',
          detail: `${r.params.toLocaleString('en-US')} gradient entries, the largest ${r.maxAbsGradient.toFixed(3)}; completion tokens per worker: ${r.tokensPerWorker.join(', ')}. Each worker scales its loss by K·n_k/N.`,
        },
        {
          key: 'dp-pitfall',
          what: 'The same, had each worker averaged its loss over its own tokens only',
          values: [r.perShardMeanMaxAbsDiff],
          expect: 'different',
          detail: 'Shards hold different numbers of tokens, so the mean of per-shard means is not the mean over the batch.',
        },
      ];
    case 'tp':
      return [
        {
          key: 'tp',
          what: `Block 0’s MLP split on 2 devices, W₁ by columns and W₂ by rows, one sum (the all-reduce) vs. the unsplit MLP`,
          values: [r.maxAbsDiff],
          expect: 'equal',
          detail: `Input ${r.rows} tokens × ${r.dModel}; each device holds ${r.dModel}×${r.dFF / 2} of W₁ and ${r.dFF / 2}×${r.dModel} of W₂. Largest output ${r.maxAbsOutput.toFixed(3)}.`,
        },
        {
          key: 'tp-contrast',
          what: 'The other way round: W₁ split by rows, each device applying ReLU to its partial sum',
          values: [r.rowFirstMaxAbsDiff],
          expect: 'different',
          detail: 'ReLU(a + b) is not ReLU(a) + ReLU(b): a row split needs an all-reduce before the nonlinearity.',
        },
      ];
    case 'zero':
      return [
        {
          key: 'zero',
          what: `${r.steps} Adam steps with the optimiser state sharded over ${r.workers} workers (${r.shardSize.toLocaleString('en-US')} parameters each), then all-gathered, vs. one Adam over all ${r.params.toLocaleString('en-US')}`,
          values: r.perStep,
          expect: 'equal',
          detail: `Parameters after each step; they moved by up to ${r.maxAbsUpdate.toFixed(4)}. No gradient clipping: the same arithmetic, done in slices.`,
        },
        {
          key: 'zero-clipped',
          what: `The same with clipping at max_grad_norm = ${r.clipped.maxGradNorm}: the global norm summed shard by shard`,
          values: r.clipped.perStep,
          expect: 'rounding',
          detail: 'A sum in another order can differ in its last bit; Adam divides by √v and so magnifies such rounding where a gradient is near zero.',
        },
      ];
  }
}

/** 0 → "0", else two significant digits in scientific notation: 4.5e-8. */
export function sci(x: number): string {
  return x === 0 ? '0' : x.toExponential(1).replace('e-', 'e−');
}
