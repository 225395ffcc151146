import * as tf from '@tensorflow/tfjs';
import seedrandom from 'seedrandom';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  completionLogprobs,
  completionLogprobsAndEntropy,
  sequenceLogprobs,
  tokenEntropy,
} from '@/lib/rl/logprobs';
import { sftLoss } from '@/lib/rl/sft';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

// Independent float64 reference: log softmax(z / τ) per row.
function logSoftmax64(z: number[], tau = 1): number[] {
  const s = z.map((v) => v / tau);
  const mx = Math.max(...s);
  const lse = mx + Math.log(s.reduce((a, v) => a + Math.exp(v - mx), 0));
  return s.map((v) => v - lse);
}

function randomLogits(rng: () => number, B: number, T: number, V: number): number[][][] {
  return Array.from({ length: B }, () => Array.from({ length: T }, () => Array.from({ length: V }, () => 4 * rng() - 2)));
}

function expectClose(actual: number[] | number[][], expected: number[] | number[][], tol = 1e-5): void {
  const a = actual.flat();
  const e = expected.flat();
  expect(a.length).toBe(e.length);
  a.forEach((v, i) => expect(Math.abs(v - e[i])).toBeLessThanOrEqual(tol * (1 + Math.abs(e[i]))));
}

describe('completionLogprobs', () => {
  it('picks log softmax(logits / τ) at the target ids (float64 reference, τ = 1 and τ = 0.7)', () => {
    const rng = seedrandom('logprobs');
    const [B, T, V] = [3, 4, 5];
    const logits = randomLogits(rng, B, T, V);
    const targets = logits.map((row) => row.map(() => Math.floor(rng() * V)));
    for (const tau of [1, 0.7]) {
      const got = tf.tidy(() =>
        completionLogprobs(tf.tensor3d(logits), tf.tensor2d(targets, undefined, 'int32'), tau).arraySync(),
      );
      const want = logits.map((row, b) => row.map((z, t) => logSoftmax64(z, tau)[targets[b][t]]));
      expectClose(got, want);
    }
  });

  it('by hand: uniform logits give −log V; a mask zeroes padded positions', () => {
    const logits = tf.zeros([1, 2, 4]) as tf.Tensor3D;
    const got = completionLogprobs(logits, tf.tensor2d([[1, 3]], undefined, 'int32'), 1, tf.tensor2d([[1, 0]]));
    expectClose(got.arraySync() as number[][], [[-Math.log(4), 0]]);
  });

  it('gradient w.r.t. logits is (onehot − softmax) / τ (the oneHot pick is differentiable)', () => {
    const rng = seedrandom('grad');
    const [B, T, V] = [2, 3, 4];
    const logits = randomLogits(rng, B, T, V);
    const targets = logits.map((row) => row.map(() => Math.floor(rng() * V)));
    const tau = 0.8;
    const g = tf.tidy(() =>
      tf
        .grad((x: tf.Tensor) => tf.sum(completionLogprobs(x as tf.Tensor3D, tf.tensor2d(targets, undefined, 'int32'), tau)))(
          tf.tensor3d(logits),
        )
        .arraySync(),
    ) as number[][][];
    const want = logits.map((row, b) =>
      row.map((z, t) => logSoftmax64(z, tau).map((lp, v) => ((v === targets[b][t] ? 1 : 0) - Math.exp(lp)) / tau)),
    );
    expectClose(g.flat(), want.flat());
  });

  it('entropy matches −Σ p log p, and the fused call equals the separate ones', () => {
    const rng = seedrandom('entropy');
    const logits = randomLogits(rng, 2, 3, 6);
    const targets = logits.map((row) => row.map(() => Math.floor(rng() * 6)));
    const tau = 1.3;
    const want = logits.map((row) => row.map((z) => -logSoftmax64(z, tau).reduce((a, lp) => a + Math.exp(lp) * lp, 0)));
    tf.tidy(() => {
      const L = tf.tensor3d(logits);
      const ids = tf.tensor2d(targets, undefined, 'int32');
      expectClose(tokenEntropy(L, tau).arraySync(), want);
      const fused = completionLogprobsAndEntropy(L, ids, tau);
      expectClose(fused.entropy.arraySync(), want);
      expectClose(fused.logps.arraySync(), completionLogprobs(L, ids, tau).arraySync());
    });
    // Uniform over V has entropy log V.
    expectClose([tokenEntropy(tf.zeros([1, 1, 6]) as tf.Tensor3D).dataSync()[0]], [Math.log(6)]);
  });

  it('sequenceLogprobs sums under the mask', () => {
    const s = sequenceLogprobs(tf.tensor2d([[-1, -2, -3], [-0.5, -0.5, -9]]), tf.tensor2d([[1, 1, 1], [1, 1, 0]]));
    expectClose(Array.from(s.dataSync()), [-6, -1]);
  });

  it('rejects bad shapes and temperatures', () => {
    const L = tf.zeros([1, 2, 3]) as tf.Tensor3D;
    expect(() => completionLogprobs(L, tf.tensor2d([[0, 1, 2]], undefined, 'int32'))).toThrow(/targets must be/);
    expect(() => completionLogprobs(L, tf.tensor2d([[0, 1]], undefined, 'int32'), 0)).toThrow(/temperature/);
    expect(() => tokenEntropy(tf.zeros([2, 3]) as unknown as tf.Tensor3D)).toThrow(/\[B, T, V\]/);
  });

  it('leaks no tensors', () => {
    const L = tf.randomNormal([2, 3, 5]) as tf.Tensor3D;
    const ids = tf.tensor2d([[0, 1, 2], [3, 4, 0]], undefined, 'int32');
    const m = tf.tensor2d([[1, 1, 0], [1, 0, 0]]);
    const before = tf.memory().numTensors;
    const a = completionLogprobs(L, ids, 0.9, m);
    const b = tokenEntropy(L, 0.9);
    const c = completionLogprobsAndEntropy(L, ids, 0.9);
    const d = sftLoss(L, ids, m);
    expect(tf.memory().numTensors).toBe(before + 1 + 1 + 2 + 3);
    tf.dispose([a, b, c, d]);
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('sftLoss (completion-only cross-entropy)', () => {
  it('is the token mean of −log p over completion tokens only (by hand and float64 reference)', () => {
    // Uniform logits: every token costs log V whatever the mask.
    const u = sftLoss(tf.zeros([2, 3, 4]) as tf.Tensor3D, tf.zeros([2, 3], 'int32') as tf.Tensor2D, tf.tensor2d([[0, 1, 1], [0, 0, 1]]));
    expect(u.loss.dataSync()[0]).toBeCloseTo(Math.log(4), 6);
    expect(u.entropy.dataSync()[0]).toBeCloseTo(Math.log(4), 6);

    const rng = seedrandom('sft');
    const logits = randomLogits(rng, 2, 4, 5);
    const targets = logits.map((row) => row.map(() => Math.floor(rng() * 5)));
    const mask = [[0, 1, 1, 1], [0, 0, 1, 0]];
    let num = 0;
    let den = 0;
    let hits = 0;
    logits.forEach((row, b) =>
      row.forEach((z, t) => {
        if (!mask[b][t]) return;
        num -= logSoftmax64(z)[targets[b][t]];
        den += 1;
        hits += z.indexOf(Math.max(...z)) === targets[b][t] ? 1 : 0;
      }),
    );
    const out = sftLoss(tf.tensor3d(logits), tf.tensor2d(targets, undefined, 'int32'), tf.tensor2d(mask));
    expect(out.loss.dataSync()[0]).toBeCloseTo(num / den, 5);
    expect(out.meanTokenAccuracy.dataSync()[0]).toBeCloseTo(hits / den, 6);
  });

  it('prompt tokens get no gradient; completion tokens get (softmax − onehot) / N', () => {
    const rng = seedrandom('sft-grad');
    const logits = randomLogits(rng, 1, 3, 4);
    const targets = [[1, 2, 3]];
    const mask = [[0, 1, 1]];
    const g = tf
      .grad((x: tf.Tensor) => sftLoss(x as tf.Tensor3D, tf.tensor2d(targets, undefined, 'int32'), tf.tensor2d(mask)).loss)(
        tf.tensor3d(logits),
      )
      .arraySync() as number[][][];
    const want = logits[0].map((z, t) =>
      logSoftmax64(z).map((lp, v) => (mask[0][t] * (Math.exp(lp) - (v === targets[0][t] ? 1 : 0))) / 2),
    );
    expectClose(g[0], want);
  });

  it('is differentiable inside optimizer.minimize and lowers the loss', () => {
    const w = tf.variable(tf.zeros([1, 2, 3]));
    const ids = tf.tensor2d([[2, 0]], undefined, 'int32');
    const m = tf.tensor2d([[1, 1]]);
    const opt = tf.train.sgd(1);
    const first = sftLoss(w as unknown as tf.Tensor3D, ids, m).loss.dataSync()[0];
    for (let i = 0; i < 5; i++) opt.minimize(() => sftLoss(w as unknown as tf.Tensor3D, ids, m).loss);
    expect(sftLoss(w as unknown as tf.Tensor3D, ids, m).loss.dataSync()[0]).toBeLessThan(first - 0.5);
  });
});
