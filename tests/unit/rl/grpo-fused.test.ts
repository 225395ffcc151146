/**
 * grpoLossOnArrays (lib/rl/grpo-fused.ts) against grpoLoss's tfjs ops on the wasm backend, bit for bit: the loss, every
 * metric, the token view's terms and the gradient into the log-probs (under an upstream gradient of 1 and of another
 * value), over random batches for every loss type, on- and off-policy, with masked rows, zero advantages and ratios
 * on the clip bounds; and expf (lib/rl/expf.ts) against tfjs-wasm's Exp.
 */
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { expf } from '@/lib/rl/expf';
import { grpoLoss, type GrpoLossArgs, type GrpoLossOut } from '@/lib/rl/grpo';
import { grpoLossOnArrays, grpoLossOnArraysCovers } from '@/lib/rl/grpo-fused';
import { selectBackend } from '@/lib/tf/backend';
import { keepTokenTerms, readTokenTerms } from '@/lib/train/token-terms';

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});
afterAll(async () => {
  await tf.setBackend('cpu');
});

const bitsOf = (x: ArrayLike<number>) => Array.from(new Uint32Array(Float32Array.from(x).buffer));

describe('expf', () => {
  it('is tfjs-wasm’s Exp bit for bit, over a million float32 values and the special cases', () => {
    const n = 1_000_000;
    const x = new Float32Array(n + 16);
    for (let i = 0; i < n; i++) x[i] = -110 + (200 * i) / n;
    [0, -0, 1e-45, -1e-45, Infinity, -Infinity, 88.72283172607422, 88.7229, 89, -103.97207641601562, -103.98, -87.3, 1e-8, -1e-8, 0.5, 1].forEach((v, k) => (x[n + k] = v));
    const want = tf.tidy(() => tf.exp(tf.tensor1d(x)).dataSync());
    const got = x.map((v) => expf(v));
    expect(bitsOf(got)).toEqual(bitsOf(want));
    expect(Number.isNaN(expf(NaN))).toBe(true);
  });
});

/** A float32 log-ratio whose expf is exactly `target`, searched within 100 ulps of log(target), or null when none is. */
function logOf(target: number): number | null {
  const x = new Float32Array([Math.log(target)]);
  const u = new Uint32Array(x.buffer);
  const start = u[0];
  for (let k = -100; k <= 100; k++) {
    u[0] = start + k;
    if (expf(x[0]) === target) return x[0];
  }
  return null;
}

interface Case {
  B: number;
  T: number;
  lp: Float32Array;
  old: Float32Array | null;
  advantages: Float32Array;
  mask: Float32Array;
  entropies: Float32Array | null;
}

/** A batch: log-probs, old log-probs near them (some ratios exactly on the clip bounds), advantages with zeros. */
function randomCase(seed: number, offPolicy: boolean, epsilon: number, epsilonHigh: number): Case {
  const rng = createRng(seed);
  const B = 1 + Math.floor(rng.next() * 12);
  const T = 1 + Math.floor(rng.next() * 10);
  const n = B * T;
  const lp = Float32Array.from({ length: n }, () => -4 * rng.next());
  const onBound = [logOf(Math.fround(1 - epsilon)), logOf(Math.fround(1 + epsilonHigh))];
  expect(onBound).not.toContain(null);
  // Off-policy, a fifth of the tokens get log π = a log-ratio whose exp is exactly 1 − ε or 1 + ε_high, and log π_old = 0.
  const old = offPolicy ? new Float32Array(n) : null;
  if (old) {
    for (let i = 0; i < n; i++) {
      const u = rng.next();
      const bound = u < 0.1 ? onBound[0] : u < 0.2 ? onBound[1] : null;
      if (bound !== null) [lp[i], old[i]] = [bound, 0];
      else old[i] = Math.fround(lp[i] + (rng.next() - 0.5) * (u < 0.6 ? 0.3 : 3)); // inside and far outside the clip range
    }
  }
  const advantages = Float32Array.from({ length: B }, () => {
    const u = rng.next();
    return u < 0.2 ? 0 : Math.fround((rng.next() - 0.5) * 4);
  });
  const mask = Float32Array.from({ length: n }, () => (rng.next() < 0.8 ? 1 : 0));
  if (B > 2) mask.fill(0, 0, T); // a row with nothing in the loss
  const entropies = rng.next() < 0.7 ? Float32Array.from({ length: n }, () => 3 * rng.next()) : null;
  return { B, T, lp, old, advantages, mask, entropies };
}

type Read = { loss: number[]; metrics: Record<string, number[]>; terms: Record<string, number[]>; grad: number[]; scaledGrad: number[] };

/** Loss, metrics and terms of `fn`, and the gradient into the log-probs of loss and of 3.7·loss. */
function run(fn: (a: GrpoLossArgs) => GrpoLossOut, c: Case, opts: Omit<GrpoLossArgs, 'logps' | 'advantages' | 'mask'>): Read {
  return tf.tidy(() => {
    const logps = tf.tensor2d(c.lp, [c.B, c.T]);
    const args = (x: tf.Tensor2D): GrpoLossArgs => ({
      ...opts,
      logps: x,
      oldLogps: c.old ? tf.tensor2d(c.old, [c.B, c.T]) : undefined,
      advantages: tf.tensor1d(c.advantages),
      mask: tf.tensor2d(c.mask, [c.B, c.T]),
      entropies: c.entropies ? tf.tensor2d(c.entropies, [c.B, c.T]) : undefined,
      withTerms: true,
    });
    const out = fn(args(logps));
    const read = (t: tf.Tensor) => bitsOf(t.dtype === 'bool' ? Float32Array.from(t.dataSync() as Uint8Array) : t.dataSync());
    const metrics = Object.fromEntries(Object.entries(out.metrics).filter(([, v]) => v).map(([k, v]) => [k, read(v as tf.Tensor)]));
    const terms = Object.fromEntries(Object.entries(out.terms ?? {}).filter(([, v]) => v instanceof tf.Tensor).map(([k, v]) => [k, read(v as tf.Tensor)]));
    const grad = read(tf.grad((x: tf.Tensor) => fn(args(x as tf.Tensor2D)).loss)(logps));
    const scaledGrad = read(tf.grad((x: tf.Tensor) => tf.mul(fn(args(x as tf.Tensor2D)).loss, 3.7))(logps));
    return { loss: read(out.loss), metrics, terms, grad, scaledGrad };
  });
}

describe('grpoLossOnArrays', () => {
  it('covers per-token importance sampling with beta 0, and nothing else', () => {
    expect(grpoLossOnArraysCovers({})).toBe(true);
    expect(grpoLossOnArraysCovers({ lossType: 'grpo', epsilonHigh: 0.28 })).toBe(true);
    expect(grpoLossOnArraysCovers({ beta: 0.04 })).toBe(false);
    expect(grpoLossOnArraysCovers({ importanceSamplingLevel: 'sequence' })).toBe(false);
    const logps = tf.zeros([2, 3]) as tf.Tensor2D;
    expect(() => grpoLossOnArrays({ logps, advantages: tf.zeros([2]) as tf.Tensor1D, mask: tf.ones([2, 3]) as tf.Tensor2D, beta: 0.1, refLogps: logps })).toThrow(/beta 0 only/);
    expect(() => grpoLossOnArrays({ logps, advantages: tf.zeros([3]) as tf.Tensor1D, mask: tf.ones([2, 3]) as tf.Tensor2D })).toThrow(/advantages must be \[2\]/);
    tf.dispose(logps);
  });

  it('gives grpoLoss’s loss, metrics, terms and gradients bit for bit on wasm', () => {
    let cases = 0;
    let onBound = 0;
    for (const lossType of ['dapo', 'grpo', 'bnpo', 'dr_grpo'] as const) {
      for (const offPolicy of [false, true]) {
        for (let seed = 0; seed < 12; seed++) {
          const [epsilon, epsilonHigh] = seed % 3 === 0 ? [0.2, 0.28] : [0.2, 0.2];
          const c = randomCase(1000 * seed + (offPolicy ? 7 : 0), offPolicy, epsilon, epsilonHigh);
          const extra = lossType === 'dapo' && seed % 2 ? { numItemsInBatch: 37 } : lossType === 'dr_grpo' && seed % 2 ? { maxCompletionLength: c.T + 3 } : {};
          const opts = { lossType, epsilon, epsilonHigh, ...extra };
          const label = `${lossType} ${offPolicy ? 'off' : 'on'}-policy seed ${seed}`;
          const got = run(grpoLossOnArrays, c, opts);
          const want = run(grpoLoss, c, opts);
          expect(got.loss, label).toEqual(want.loss);
          expect(got.metrics, label).toEqual(want.metrics);
          expect(Object.keys(got.terms).sort(), label).toEqual(['clippedHigh', 'clippedLow', 'clippedRatio', 'logRatio', 'perToken', 'ratio']);
          for (const k of Object.keys(got.terms)) expect(got.terms[k], `${label} ${k}`).toEqual(want.terms[k]);
          expect(got.grad, label).toEqual(want.grad);
          expect(got.scaledGrad, label).toEqual(want.scaledGrad);
          const ratios = new Float32Array(new Uint32Array(got.terms.ratio).buffer);
          onBound += ratios.filter((r) => r === Math.fround(1 - epsilon) || r === Math.fround(1 + epsilonHigh)).length;
          cases++;
        }
      }
    }
    expect(cases).toBe(96);
    expect(onBound).toBeGreaterThan(20); // the clip's boundary rule was exercised, not only its inside and outside
  });

  it('feeds the token view the numbers the tensor terms give (weights included), for every loss type', async () => {
    let clippedShown = 0;
    for (const lossType of ['dapo', 'grpo', 'bnpo', 'dr_grpo'] as const) {
      const c = randomCase(lossType.length * 31, true, 0.2, 0.28);
      const positions = [0, c.B - 1, Math.floor(c.B / 2)].filter((p, i, all) => all.indexOf(p) === i);
      const opts = { lossType, maxCompletionLength: lossType === 'dr_grpo' ? c.T + 2 : undefined };
      const view = async (stripValues: boolean) => {
        const kept = tf.tidy(() => {
          const mask = tf.tensor2d(c.mask, [c.B, c.T]);
          const advantages = tf.tensor1d(c.advantages);
          const out = grpoLossOnArrays({ logps: tf.tensor2d(c.lp, [c.B, c.T]), oldLogps: tf.tensor2d(c.old!, [c.B, c.T]), advantages, mask, lossType, epsilon: 0.2, epsilonHigh: 0.28, withTerms: true });
          expect(out.terms?.values).toBeDefined();
          const terms = stripValues ? { ...out.terms!, values: undefined } : out.terms!;
          return keepTokenTerms(terms, { mask, advantages }, positions, opts, tf.keep);
        });
        const meta = { lossType, level: 'token' as const, beta: 0, epsilon: 0.2, epsilonHigh: 0.28, update: 1, updates: 1 };
        const read = await readTokenTerms(kept, positions, meta);
        tf.dispose(Object.values(kept).filter((t): t is tf.Tensor => t instanceof tf.Tensor));
        return read;
      };
      const fromArrays = await view(false);
      const fromTensors = await view(true);
      expect(fromArrays, lossType).toEqual(fromTensors);
      clippedShown += fromArrays.rows.flatMap((r) => r.clipped).filter((x) => x !== null).length;
    }
    expect(clippedShown).toBeGreaterThan(0); // the clip labels were compared, not only nulls
  });

  it('leaves no tensors behind but what it returns, forward and backward (no tidy around it)', () => {
    const c = randomCase(5, true, 0.2, 0.2);
    const inputs = {
      logps: tf.tensor2d(c.lp, [c.B, c.T]),
      oldLogps: tf.tensor2d(c.old!, [c.B, c.T]),
      advantages: tf.tensor1d(c.advantages),
      mask: tf.tensor2d(c.mask, [c.B, c.T]),
    };
    const before = tf.memory().numTensors;
    const out = grpoLossOnArrays({ ...inputs, withTerms: true });
    const returned = [out.loss, ...Object.values(out.metrics), ...Object.values(out.terms!).filter((t) => t instanceof tf.Tensor)] as tf.Tensor[];
    expect(tf.memory().numTensors).toBe(before + returned.length);
    tf.dispose(returned);
    const grad = tf.grad((x: tf.Tensor) => grpoLossOnArrays({ ...inputs, logps: x as tf.Tensor2D }).loss)(inputs.logps);
    expect(tf.memory().numTensors).toBe(before + 1); // the gradient, and nothing from the metrics or the tape
    tf.dispose([grad, ...Object.values(inputs)]);
  });
});
