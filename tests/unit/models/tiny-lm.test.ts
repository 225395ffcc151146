import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baseParamCount, type TinyLMConfig } from '@/lib/models/config';
import { configForTask, LAB_TINY_LM } from '@/lib/models/presets';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const cfg: TinyLMConfig = { vocab_size: 11, context_length: 8, d_model: 16, n_layers: 2, n_heads: 2 };
const made: TinyLM[] = [];
const make = (c: TinyLMConfig = cfg, seed = 1) => {
  const m = createTinyLM(c, seed);
  made.push(m);
  return m;
};
afterEach(() => made.splice(0).forEach((m) => m.dispose()));

const ids = (rows: number[][]) => tf.tensor2d(rows, [rows.length, rows[0].length], 'int32');
const logitsOf = (m: TinyLM, rows: number[][]) =>
  tf.tidy(() => m.forward(ids(rows)).logits.arraySync()) as number[][][];

describe('TinyLM forward', () => {
  it('returns logits [B, T, V] for T ≤ context_length', () => {
    const m = make();
    const out = m.forward(ids([[1, 2, 3], [4, 5, 6]]));
    expect(out.logits.shape).toEqual([2, 3, 11]);
    expect(out.values).toBeUndefined();
    out.logits.dispose();
    const full = m.forward(ids([[1, 2, 3, 4, 5, 6, 7, 8]]));
    expect(full.logits.shape).toEqual([1, 8, 11]);
    full.logits.dispose();
  });

  it('is causal: changing a later token leaves earlier logits unchanged', () => {
    const m = make();
    const a = logitsOf(m, [[1, 2, 3, 4, 5, 6]]);
    const b = logitsOf(m, [[1, 2, 3, 9, 9, 9]]);
    for (let t = 0; t < 3; t++) a[0][t].forEach((v, i) => expect(b[0][t][i]).toBeCloseTo(v, 5));
    expect(Math.abs(a[0][3][0] - b[0][3][0]) + Math.abs(a[0][5][2] - b[0][5][2])).toBeGreaterThan(1e-4);
  });

  it('rows are independent: a row gives the same logits alone or in a batch', () => {
    const m = make();
    const alone = logitsOf(m, [[3, 1, 4]]);
    const batched = logitsOf(m, [[2, 7, 1], [3, 1, 4]]);
    alone[0].forEach((row, t) => row.forEach((v, i) => expect(batched[1][t][i]).toBeCloseTo(v, 5)));
  });

  it('has a value head [B, T] when asked', () => {
    const m = make({ ...cfg, value_head: true });
    const out = m.forward(ids([[1, 2, 3], [4, 5, 6]]));
    expect(out.values?.shape).toEqual([2, 3]);
    tf.dispose([out.logits, out.values!]);
  });

  it('refuses sequences longer than the context and non-int32 ids', () => {
    const m = make();
    expect(() => m.forward(ids([[1, 2, 3, 4, 5, 6, 7, 8, 9]]))).toThrow(/exceeds context_length 8/);
    expect(() => m.forward(tf.tensor2d([[1, 2]]))).toThrow(/int32/);
  });

  it('validates its config', () => {
    expect(() => createTinyLM({ ...cfg, n_heads: 3 }, 1)).toThrow(/divisible by n_heads/);
    expect(() => createTinyLM({ ...cfg, d_model: 0 }, 1)).toThrow(/d_model must be a positive integer/);
  });
});

describe('parameters', () => {
  it('count equals the hand formula', () => {
    const [V, T, D, L, F] = [11, 8, 16, 2, 64];
    const block = 2 * D + (3 * D * D + 3 * D) + (D * D + D) + 2 * D + (D * F + F) + (F * D + D);
    const hand = V * D + T * D + L * block + 2 * D + D * V + V;
    const m = make();
    expect(m.paramCount()).toBe(hand);
    expect(baseParamCount(cfg)).toBe(hand);
    const withValue = make({ ...cfg, value_head: true });
    expect(withValue.paramCount()).toBe(hand + D + 1);
    expect(m.trainableParamCount()).toBe(hand);
  });

  it('the lab default is in the 20k–500k range', () => {
    const lab = configForTask(createArithmeticTask({ scratchpad: true }));
    const m = make(lab);
    expect(m.paramCount()).toBe(baseParamCount(lab));
    expect(m.paramCount()).toBeGreaterThan(20_000);
    expect(m.paramCount()).toBeLessThan(500_000);
  });
});

describe('factories and copies', () => {
  it('the same seed gives the same model; another seed a different one', () => {
    const a = logitsOf(make(cfg, 7), [[1, 2, 3]]);
    const b = logitsOf(make(cfg, 7), [[1, 2, 3]]);
    const c = logitsOf(make(cfg, 8), [[1, 2, 3]]);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('models are independent: changing or disposing one leaves the other intact', () => {
    const a = make(cfg, 7);
    const b = createTinyLM(cfg, 7);
    const before = logitsOf(a, [[1, 2, 3]]);
    const w = b.namedWeights().get('tok_emb')!;
    w.assign(tf.zerosLike(w));
    expect(logitsOf(b, [[1, 2, 3]])).not.toEqual(before);
    b.dispose();
    expect(logitsOf(a, [[1, 2, 3]])).toEqual(before);
  });

  it('clone() is frozen, equal, and independent of later training', () => {
    const m = make();
    const ref = m.clone();
    made.push(ref);
    expect(ref.frozen).toBe(true);
    expect(ref.trainableVariables()).toEqual([]);
    expect(logitsOf(ref, [[1, 2, 3]])).toEqual(logitsOf(m, [[1, 2, 3]]));
    const w = m.namedWeights().get('head.W')!;
    tf.tidy(() => w.assign(tf.add(w, 1)));
    expect(logitsOf(ref, [[1, 2, 3]])).not.toEqual(logitsOf(m, [[1, 2, 3]]));
  });

  it('withAdapters({ value_head: true }) keeps the function and adds a trainable value head (PPO)', () => {
    const m = make();
    const withValue = m.withAdapters({ value_head: true }, 3);
    made.push(withValue);
    expect(logitsOf(withValue, [[1, 2, 3]])).toEqual(logitsOf(m, [[1, 2, 3]]));
    expect(withValue.paramCount()).toBe(m.paramCount() + 16 + 1);
    expect(withValue.trainableVariables()).toHaveLength(m.trainableVariables().length + 2);
  });

  it('configForTask sizes the model to a task', () => {
    const task = { tokenizer: { vocabSize: 22 }, promptLength: 7, maxCompletionLength: 15 };
    expect(configForTask(task)).toEqual({ ...LAB_TINY_LM, vocab_size: 22, context_length: 22 });
    expect(configForTask(task, { d_model: 48 }).d_model).toBe(48);
  });

  it('names weights in a stable order', () => {
    const names = [...make().namedWeights().keys()];
    expect(names.slice(0, 4)).toEqual(['tok_emb', 'pos_emb', 'blocks.0.ln1.g', 'blocks.0.ln1.b']);
    expect(names).toContain('blocks.1.qkv.W');
    expect(names[names.length - 1]).toBe('head.b');
  });
});

describe('training step', () => {
  it('updates every weight, lowers the loss, and leaks no tensors', async () => {
    const m = make({ ...cfg, value_head: true });
    const opt: tf.Optimizer = tf.train.adam(1e-2); // the base type takes variableGrads' map
    const x = ids([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]]);
    const target = tf.cast(tf.oneHot(ids([[2, 3, 4, 5, 6], [4, 3, 2, 1, 0]]), 11), 'float32');
    const step = () =>
      tf.tidy(() => {
        const { value, grads } = tf.variableGrads(() => {
          const { logits, values } = m.forward(x, { training: true });
          const ce = tf.losses.softmaxCrossEntropy(target, logits);
          return tf.add(ce, tf.mean(tf.square(values!))) as tf.Scalar;
        }, m.trainableVariables());
        opt.applyGradients(grads);
        return { loss: value, grads: Object.fromEntries(Object.entries(grads).map(([k, g]) => [k, tf.max(tf.abs(g))])) };
      });
    const first = step(); // burn-in: Adam creates its slots
    const gradMax = await Promise.all(Object.values(first.grads).map(async (g) => (await g.data())[0]));
    expect(gradMax).toHaveLength(m.trainableVariables().length);
    expect(gradMax.every((g) => g > 0 && Number.isFinite(g))).toBe(true);
    const loss0 = (await first.loss.data())[0];
    tf.dispose([first.loss, ...Object.values(first.grads)]);
    const n = tf.memory().numTensors;
    let loss = loss0;
    for (let i = 0; i < 5; i++) {
      const s = step();
      loss = (await s.loss.data())[0];
      tf.dispose([s.loss, ...Object.values(s.grads)]);
      expect(tf.memory().numTensors).toBe(n);
    }
    expect(loss).toBeLessThan(loss0);
    tf.dispose([x, target]);
    opt.dispose();
  });

  it('forward alone leaks nothing but its outputs', () => {
    const m = make();
    const x = ids([[1, 2, 3]]);
    const n = tf.memory().numTensors;
    const { logits } = m.forward(x);
    expect(tf.memory().numTensors).toBe(n + 1);
    logits.dispose();
    x.dispose();
  });
});
