import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { selectBackend } from '@/lib/tf/backend';

/** The wasm backend in Node: the embedding gradient (oneHot·E) and the custom dense backward must work there. */
beforeAll(async () => {
  await selectBackend({ requested: 'wasm' });
});
afterAll(async () => {
  await tf.setBackend('cpu');
});

const cfg = { vocab_size: 10, context_length: 6, d_model: 16, n_layers: 1, n_heads: 2, value_head: true };
const ids = [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]];
const targets = [[2, 3, 4, 5, 6], [4, 3, 2, 1, 0]];

/** Loss and gradients of one step, read back as plain arrays. */
function gradients() {
  const m = createTinyLM(cfg, 1);
  const out = tf.tidy(() => {
    const x = tf.tensor2d(ids, [2, 5], 'int32');
    const y = tf.cast(tf.oneHot(tf.tensor2d(targets, [2, 5], 'int32'), 10), 'float32');
    const { value, grads } = tf.variableGrads(() => {
      const { logits, values } = m.forward(x);
      return tf.add(tf.losses.softmaxCrossEntropy(y, logits), tf.mean(values!)) as tf.Scalar;
    }, m.trainableVariables());
    const names = [...m.namedWeights().keys()];
    const vars = m.allVariables();
    return { loss: value.arraySync() as number, grads: names.map((n, i) => [n, grads[vars[i].name].arraySync()] as const) };
  });
  m.dispose();
  return out;
}

describe('TinyLM on wasm', () => {
  it('runs a gradient step (embedding included) and matches cpu', async () => {
    expect(tf.getBackend()).toBe('wasm');
    const onWasm = gradients();
    const emb = onWasm.grads.find(([n]) => n === 'tok_emb')![1] as number[][];
    expect(emb.flat().some((g) => g !== 0)).toBe(true);
    expect(emb[9].every((g) => g === 0)).toBe(true); // token 9 never appears: no gradient
    await tf.setBackend('cpu');
    const onCpu = gradients();
    await tf.setBackend('wasm');
    expect(onWasm.loss).toBeCloseTo(onCpu.loss, 4);
    onWasm.grads.forEach(([name, g], i) => {
      const a = [g].flat(3) as number[];
      const b = [onCpu.grads[i][1]].flat(3) as number[];
      const scale = Math.max(1e-3, ...b.map(Math.abs));
      a.forEach((v, j) => expect(Math.abs(v - b[j]) / scale, name).toBeLessThan(1e-3));
    });
  });

  it('a training step leaks no tensors on wasm', () => {
    const m = createTinyLM(cfg, 2);
    const opt = tf.train.adam(0.01);
    const x = tf.tensor2d(ids, [2, 5], 'int32');
    const step = () => opt.minimize(() => tf.mean(m.forward(x).logits) as tf.Scalar, true, m.trainableVariables())!;
    step().dispose();
    const n = tf.memory().numTensors;
    step().dispose();
    step().dispose();
    expect(tf.memory().numTensors).toBe(n);
    x.dispose();
    opt.dispose();
    m.dispose();
  });
});

describe('a short seeded run learns (wasm)', () => {
  it('learns to copy three digits, which needs attention', async () => {
    // "<bos> a b c = a b c": the last three tokens must be read from earlier positions.
    const m = createTinyLM({ vocab_size: 13, context_length: 8, d_model: 16, n_layers: 2, n_heads: 2 }, 1);
    const opt = tf.train.adam(1e-2);
    let seed = 1;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const batch = (n: number) =>
      Array.from({ length: n }, () => {
        const d = [0, 1, 2].map(() => 3 + Math.floor(rand() * 10));
        return [1, ...d, 2, ...d];
      });
    const loss = (rows: number[][]) => {
      const x = tf.tensor2d(rows.map((r) => r.slice(0, 7)), [rows.length, 7], 'int32');
      const y = tf.cast(tf.oneHot(tf.tensor2d(rows.map((r) => r.slice(1)), [rows.length, 7], 'int32'), 13), 'float32');
      const mask = tf.tensor2d([[0, 0, 0, 1, 1, 1, 1]]); // only the copied part (and "=") counts
      const nll = tf.neg(tf.sum(tf.mul(y, tf.logSoftmax(m.forward(x).logits)), -1)); // [B, 7]
      return tf.div(tf.sum(tf.mul(nll, mask)), tf.mul(tf.sum(mask), rows.length)) as tf.Scalar;
    };
    for (let i = 0; i < 80; i++) tf.dispose(opt.minimize(() => loss(batch(32)), true, m.trainableVariables())!);
    const test = batch(64);
    const pred = tf.tidy(() => tf.argMax(m.forward(tf.tensor2d(test.map((r) => r.slice(0, 7)), [64, 7], 'int32')).logits, -1).arraySync()) as number[][];
    const correct = test.reduce((s, r, i) => s + [4, 5, 6].filter((t) => pred[i][t - 1] === r[t]).length, 0);
    expect(correct / (64 * 3)).toBeGreaterThan(0.9);
    opt.dispose();
    m.dispose();
  });
});
