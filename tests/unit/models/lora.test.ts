import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LORA, loraParamCount, loraScaling, type LoraConfig, type TinyLMConfig } from '@/lib/models/config';
import { createLinear } from '@/lib/models/linear';
import { createParamStore } from '@/lib/models/params';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const base: TinyLMConfig = { vocab_size: 10, context_length: 6, d_model: 16, n_layers: 2, n_heads: 2 };
const lora: LoraConfig = { ...DEFAULT_LORA, r: 2, lora_alpha: 4, target_modules: ['qkv', 'out', 'fc1', 'fc2', 'head'] };
const made: TinyLM[] = [];
const keep = (m: TinyLM) => (made.push(m), m);
afterEach(() => made.splice(0).forEach((m) => m.dispose()));

const x = () => tf.tensor2d([[1, 2, 3, 4], [5, 6, 7, 8]], [2, 4], 'int32');
const logits = (m: TinyLM) => tf.tidy(() => m.forward(x()).logits.arraySync()) as number[][][];
const maxDiff = (a: number[][][], b: number[][][]) => Math.max(...a.flat(2).map((v, i) => Math.abs(v - b.flat(2)[i])));

/** Gives every adapter a nonzero B so that ΔW ≠ 0 (as after some training). */
function perturbAdapters(m: TinyLM, seed = 3) {
  const rng = createRng(seed);
  m.namedWeights().forEach((v, name) => {
    if (name.endsWith('.lora_B')) tf.tidy(() => v.assign(tf.tensor(Array.from({ length: v.size }, () => 0.2 * rng.normal()), v.shape)));
  });
}

describe('LoRA on the TinyLM', () => {
  it('starts equal to the base model (B = 0)', () => {
    const m = keep(createTinyLM(base, 1));
    const adapted = keep(m.withAdapters({ lora }, 2));
    expect(maxDiff(logits(adapted), logits(m))).toBeLessThan(1e-5);
    // Created directly, the same seed gives the same base weights (adapters draw from their own stream).
    const direct = keep(createTinyLM({ ...base, lora, value_head: true }, 1));
    expect(maxDiff(logits(direct), logits(m))).toBeLessThan(1e-5);
  });

  it('trains only adapters, r·(in + out) per target', () => {
    const m = keep(createTinyLM({ ...base, lora }, 1));
    const [D, F, V, L, r] = [16, 64, 10, 2, 2];
    const expected = L * r * (D + 3 * D) + L * r * (D + D) + L * r * (D + F) + L * r * (F + D) + r * (D + V);
    expect(m.trainableParamCount()).toBe(expected);
    expect(loraParamCount(m.config)).toBe(expected);
    expect(m.trainableVariables().length).toBe(2 * (4 * L + 1));
    const names = [...m.namedWeights()].filter(([, v]) => v.trainable).map(([n]) => n);
    expect(names.every((n) => /\.lora_[AB]$/.test(n))).toBe(true);
    const only = keep(createTinyLM({ ...base, lora: { ...lora, target_modules: ['qkv'] } }, 1));
    expect(only.trainableParamCount()).toBe(L * r * (D + 3 * D));
  });

  it('with a value head, the head trains too', () => {
    const m = keep(createTinyLM({ ...base, lora, value_head: true }, 1));
    expect(m.trainableParamCount()).toBe(loraParamCount(m.config) + 16 + 1);
  });

  it('merge gives the adapted outputs; unmerge restores the base weights', () => {
    const m = keep(createTinyLM({ ...base, lora }, 1));
    perturbAdapters(m);
    const W0 = m.namedWeights().get('blocks.0.qkv.W')!.arraySync() as number[][];
    const adapted = logits(m);
    const plain = keep(createTinyLM(base, 1));
    expect(maxDiff(adapted, logits(plain))).toBeGreaterThan(1e-3); // the adapters do something
    m.mergeLora();
    expect(m.loraMerged).toBe(true);
    expect(maxDiff(logits(m), adapted)).toBeLessThan(1e-4);
    m.unmergeLora();
    expect(m.loraMerged).toBe(false);
    const W1 = m.namedWeights().get('blocks.0.qkv.W')!.arraySync() as number[][];
    expect(Math.max(...W1.flat().map((v, i) => Math.abs(v - W0.flat()[i])))).toBeLessThan(1e-6);
    expect(maxDiff(logits(m), adapted)).toBeLessThan(1e-5);
  });

  it('withAdapters({ lora: null }) bakes the adapters into a plain model', () => {
    const m = keep(createTinyLM({ ...base, lora }, 1));
    perturbAdapters(m);
    const plain = keep(m.withAdapters({ lora: null }, 5));
    expect(plain.config.lora).toBeNull();
    expect(plain.trainableParamCount()).toBe(plain.paramCount());
    expect(maxDiff(logits(plain), logits(m))).toBeLessThan(1e-4);
  });

  it('lora_dropout only acts in training mode', () => {
    const m = keep(createTinyLM({ ...base, lora: { ...lora, lora_dropout: 0.5 } }, 1));
    perturbAdapters(m);
    const run = (training: boolean) => tf.tidy(() => m.forward(x(), { training }).logits.arraySync()) as number[][][];
    expect(maxDiff(run(false), run(false))).toBe(0);
    expect(maxDiff(run(true), run(false))).toBeGreaterThan(1e-4);
  });

  it('rejects unknown target modules', () => {
    expect(() => createTinyLM({ ...base, lora: { ...lora, target_modules: ['q_proj' as never] } }, 1)).toThrow(/target_modules/);
  });
});

describe('LoRA linear layer', () => {
  it('computes x·(W + s·A·B) + b with s = α/r, or α/√r with use_rslora', () => {
    expect(loraScaling({ ...lora, r: 4, lora_alpha: 8, use_rslora: false })).toBe(2);
    expect(loraScaling({ ...lora, r: 4, lora_alpha: 8, use_rslora: true })).toBe(4);
    for (const use_rslora of [false, true]) {
      const store = createParamStore();
      const cfg = { ...lora, r: 4, lora_alpha: 8, use_rslora };
      const lin = createLinear(store, { name: 'l', inDim: 3, outDim: 2, init: { kind: 'normal', std: 1 }, trainable: false, lora: cfg }, createRng(1));
      store.get('l.lora_B').assign(tf.ones([4, 2]));
      store.get('l.b').assign(tf.tensor1d([0.5, -0.5]));
      const xs = tf.tensor2d([[1, 2, 3]]);
      const W = store.get('l.W').arraySync() as number[][];
      const A = store.get('l.lora_A').arraySync() as number[][];
      const s = use_rslora ? 8 / 2 : 8 / 4;
      const expected = [0, 1].map((o) =>
        [1, 2, 3].reduce((acc, xi, i) => acc + xi * (W[i][o] + s * A[i].reduce((p, a) => p + a, 0)), 0) + (o === 0 ? 0.5 : -0.5),
      );
      const y = tf.tidy(() => lin.apply(xs).arraySync()) as number[][];
      y[0].forEach((v, o) => expect(v).toBeCloseTo(expected[o], 4));
      xs.dispose();
      store.dispose();
    }
  });
});
