/**
 * Model-state memory and communication of data parallelism with ZeRO (Rajbhandari et al. 2019,
 * arXiv:1910.02054, section 5). Conventions, the paper's own:
 *   - mixed-precision Adam: 2 bytes of 16-bit weights and 2 of 16-bit gradients per parameter, plus
 *     K bytes of optimiser state (fp32 master weight, momentum and variance: K = 4 + 4 + 4 = 12);
 *   - stage 1 shards the optimiser state over the N_d data-parallel ranks, stage 2 also the gradients,
 *     stage 3 also the 16-bit weights;
 *   - bytes, not GB; no activations, buffers or fragmentation (memory.ts adds activations).
 */

export type ZeroStage = 0 | 1 | 2 | 3;
export const ZERO_STAGES: readonly ZeroStage[] = [0, 1, 2, 3];

/** Adam's fp32 master weight, momentum and variance: the ZeRO paper's K. */
export const ADAM_K = 12;
export const BYTES_16BIT = 2;

export interface ZeroArgs {
  /** Ψ, the number of parameters this data-parallel group trains (after any TP/PP split). */
  params: number;
  /** N_d, the data-parallel size: how many ranks share the states. */
  dp: number;
  /** 0 = plain data parallelism (everything replicated). */
  stage: ZeroStage;
  /** Bytes of optimiser state per parameter. Default 12 (mixed-precision Adam). */
  k?: number;
}

export interface ZeroBreakdown {
  weights: number;
  gradients: number;
  optimizer: number;
  total: number;
}

function check(args: ZeroArgs): Required<ZeroArgs> {
  const k = args.k ?? ADAM_K;
  if (!(Number.isFinite(args.params) && args.params >= 0)) throw new Error(`params must be a number ≥ 0, got ${args.params}`);
  if (!(Number.isInteger(args.dp) && args.dp >= 1)) throw new Error(`dp must be an integer ≥ 1, got ${args.dp}`);
  if (!ZERO_STAGES.includes(args.stage)) throw new Error(`stage must be 0, 1, 2 or 3, got ${args.stage}`);
  if (!(Number.isFinite(k) && k >= 0)) throw new Error(`k must be a number ≥ 0, got ${k}`);
  return { ...args, k };
}

/** Per-GPU bytes of weights, gradients and optimiser state under ZeRO stage 0–3. */
export function zeroBreakdown(args: ZeroArgs): ZeroBreakdown {
  const { params: psi, dp, stage, k } = check(args);
  const weights = (BYTES_16BIT * psi) / (stage >= 3 ? dp : 1);
  const gradients = (BYTES_16BIT * psi) / (stage >= 2 ? dp : 1);
  const optimizer = (k * psi) / (stage >= 1 ? dp : 1);
  return { weights, gradients, optimizer, total: weights + gradients + optimizer };
}

/**
 * Per-GPU bytes of model states: (2 + 2 + K)Ψ for stage 0, 4Ψ + KΨ/N_d for stage 1, 2Ψ + (2 + K)Ψ/N_d for
 * stage 2 and (4 + K)Ψ/N_d for stage 3. The paper's example, 7.5B parameters on 64 GPUs: 120, 31.4, 16.6
 * and 1.88 GB.
 */
export function zeroMemory(args: ZeroArgs): number {
  return zeroBreakdown(args).total;
}

/**
 * Elements each rank sends per training step, in units of Ψ (the ZeRO paper's section 7): plain DP and
 * stages 1–2 all-reduce the gradients (a reduce-scatter plus an all-gather, ≈ 2Ψ); stage 3 adds an
 * all-gather of the weights before the backward pass as well as before the forward pass: ≈ 3Ψ, 1.5×.
 * Exactly, with the ring algorithm, each collective moves (N_d − 1)/N_d of the data.
 */
export function zeroCommunication({ params, dp, stage }: Omit<ZeroArgs, 'k'>): number {
  check({ params, dp, stage });
  const passes = stage === 3 ? 3 : 2;
  return (passes * params * (dp - 1)) / dp;
}
