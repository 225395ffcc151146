/**
 * Ring all-reduce (Patarasuk & Yuan 2009, doi:10.1016/j.jpdc.2008.09.002; popularised for deep learning by
 * Horovod, Sergeev & Del Balso 2018, arXiv:1802.05799). N workers in a ring split their buffer into N chunks.
 * Reduce-scatter: in N − 1 steps each worker sends one chunk to its right neighbour, which adds it to its
 * own; afterwards worker i holds the full sum of chunk (i + 1) mod N. All-gather: N − 1 more steps pass the
 * finished chunks around. Each worker sends 2(N − 1) chunks of size/N: 2(N − 1)/N × size, almost
 * independent of N, which is why the ring is bandwidth-optimal.
 */

export interface RingArgs {
  /** N, the number of workers in the ring. */
  workers: number;
  /** Size of the buffer being all-reduced, in bytes (each worker holds one such buffer). */
  bytes: number;
}

function check({ workers, bytes }: RingArgs): void {
  if (!(Number.isInteger(workers) && workers >= 1)) throw new Error(`workers must be an integer ≥ 1, got ${workers}`);
  if (!(Number.isFinite(bytes) && bytes >= 0)) throw new Error(`bytes must be a number ≥ 0, got ${bytes}`);
}

/** Bytes each worker sends (and receives) in one ring all-reduce: 2(N − 1)/N × bytes; 0 for one worker. */
export function ringAllReduceBytes(args: RingArgs): number {
  check(args);
  return (2 * (args.workers - 1) * args.bytes) / args.workers;
}

export interface RingTransfer {
  from: number;
  to: number;
  chunk: number;
  /** The value carried: a partial sum during reduce-scatter, the finished sum during all-gather. */
  value: number;
}

export interface RingStep {
  phase: 'start' | 'reduce-scatter' | 'all-gather';
  /** 0 for the starting state, then 1 … 2(N − 1). */
  step: number;
  transfers: RingTransfer[];
  /** Every worker's chunks after this step: values[worker][chunk]. */
  values: number[][];
  /** Chunks each worker has sent so far (multiply by size/N for bytes). */
  chunksSent: number;
}

/**
 * The ring all-reduce step by step on real numbers: values[worker][chunk] is each worker's starting buffer
 * (one number per chunk, N chunks). Returns the start and the state after each of the 2(N − 1) steps; at the
 * end every worker holds the elementwise sum.
 */
export function ringAllReduceSteps(values: number[][]): RingStep[] {
  const n = values.length;
  if (n < 2) throw new Error(`a ring needs at least 2 workers, got ${n}`);
  if (values.some((row) => row.length !== n)) throw new Error(`each worker needs exactly ${n} chunks (one per worker)`);
  if (values.some((row) => row.some((x) => !Number.isFinite(x)))) throw new Error('every value must be a finite number');
  const state = values.map((row) => [...row]);
  const mod = (x: number) => ((x % n) + n) % n;
  const steps: RingStep[] = [{ phase: 'start', step: 0, transfers: [], values: state.map((r) => [...r]), chunksSent: 0 }];
  for (let k = 0; k < 2 * (n - 1); k++) {
    const reducing = k < n - 1;
    // Step k of reduce-scatter: worker i sends chunk i − k; of all-gather (k' = k − (n − 1)): chunk i + 1 − k'.
    const transfers = Array.from({ length: n }, (_, i): RingTransfer => {
      const chunk = reducing ? mod(i - k) : mod(i + 1 - (k - (n - 1)));
      return { from: i, to: mod(i + 1), chunk, value: state[i][chunk] };
    });
    // All sends of a step happen at once: read every value before writing any.
    for (const t of transfers) state[t.to][t.chunk] = reducing ? state[t.to][t.chunk] + t.value : t.value;
    steps.push({ phase: reducing ? 'reduce-scatter' : 'all-gather', step: k + 1, transfers, values: state.map((r) => [...r]), chunksSent: k + 1 });
  }
  return steps;
}
