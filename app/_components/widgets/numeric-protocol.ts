// The typed messages between a chapter widget and the numeric worker (numeric.worker.ts). Types and a list
// of names only: a page that imports this loads no tfjs.
import type * as rl from '@/lib/rl';

/** The functions of the numeric face (lib/rl/index.ts) that the widgets call. */
export const NUMERIC_FNS = ['grpoAdvantages', 'grpoLoss', 'gae', 'dpoLoss'] as const;
export type NumericFn = (typeof NUMERIC_FNS)[number];

export type Args<F extends NumericFn> = Parameters<(typeof rl)[F]>[0];
export type Result<F extends NumericFn> = ReturnType<(typeof rl)[F]>;

/** The widgets' view of the numeric face: lib/rl's functions, answered asynchronously (by a worker in the browser). */
export type NumericFace = { [F in NumericFn]: (args: Args<F>) => Promise<Result<F>> };

export type ToNumeric = { [F in NumericFn]: { id: number; fn: F; args: Args<F> } }[NumericFn];
export type FromNumeric = { id: number; result: unknown } | { id: number; error: string };
