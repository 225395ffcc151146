/**
 * The image encoder and the vision-language model built on TinyLM: the encoder's outputs by hand and its gradients
 * against float64 finite differences; a prefix of token embeddings gives exactly what those tokens give; the
 * attention returned is the last layer's softmax; image tokens carry gradient into the encoder; greedy sampling is the
 * forward's argmax; no tensor leaks across training steps; and a text-only forward is the TinyLM's own.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createImageEncoder, imageEncoderParamCount, type ImageEncoderConfig } from '@/lib/models/image-encoder';
import { createVisionLM, sampleAnswers, type VisionLMConfig } from '@/lib/models/vision-lm';
import { createRng } from '@/lib/random';
import { selectBackend } from '@/lib/tf/backend';

beforeAll(async () => {
  await selectBackend({ requested: 'cpu', order: ['cpu'] });
});

const ENC: ImageEncoderConfig = { patch_size: 1, num_channels: 2, patch_grid: 2, d_model: 4 }; // P = 4, patch_dim = 2
const randoms = (n: number, seed: number) => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => rng.next() * 2 - 1);
};
const CONFIG: VisionLMConfig = {
  lm: { vocab_size: 7, context_length: 10, d_model: 8, n_layers: 2, n_heads: 2 },
  encoder: { patch_size: 2, num_channels: 3, patch_grid: 2, d_model: 8 }, // P = 4 image tokens of 12 values
};

describe('image encoder', () => {
  it('maps each patch to x·W + b plus its position’s embedding (hand-computed)', () => {
    const enc = createImageEncoder(ENC, 0);
    const w = enc.namedWeights();
    w.get('image.proj.W')!.assign(tf.tensor2d([[1, 0, 2, 0], [0, 1, 0, -1]]));
    w.get('image.proj.b')!.assign(tf.tensor1d([0.5, 0, 0, 0]));
    w.get('image.pos')!.assign(tf.tensor2d([[0, 0, 0, 0], [1, 1, 1, 1], [0, 0, 0, 0], [0, 0, 0, 10]]));
    const out = enc.encode(tf.tensor3d([[[1, 2], [3, 4], [0, 0], [1, 1]]]));
    // patch (1,2): [1, 2, 2, -2] + b → [1.5, 2, 2, -2]; patch (3,4) + pos 1: [3.5, 4, 6, -4] + 1; patch 3 + pos: [1.5, 1, 2, -1+10]
    expect(Array.from(out.dataSync())).toEqual([1.5, 2, 2, -2, 4.5, 5, 7, -3, 0.5, 0, 0, 0, 1.5, 1, 2, 9]);
    expect(enc.paramCount()).toBe(imageEncoderParamCount(ENC));
    expect(imageEncoderParamCount(ENC)).toBe(2 * 4 + 4 + 4 * 4);
    expect(() => enc.encode(tf.zeros([1, 3, 2]) as tf.Tensor3D)).toThrow(/patches must be \[B, 4, 2\]/);
    tf.dispose(out);
    enc.dispose();
  });

  it('has the gradients of a float64 reference (finite differences)', () => {
    const enc = createImageEncoder(ENC, 3);
    const x = randoms(2 * 4 * 2, 1); // [B=2, P=4, 2]
    const c = randoms(2 * 4 * 4, 2); // loss = Σ c ⊙ encode(x)
    const [W0, b0, pos0] = ['image.proj.W', 'image.proj.b', 'image.pos'].map((n) => Array.from(enc.namedWeights().get(n)!.dataSync()));
    const reference = (W: number[], b: number[], pos: number[]) => {
      let loss = 0;
      for (let n = 0; n < 2; n++) for (let p = 0; p < 4; p++) for (let d = 0; d < 4; d++) {
        let y = b[d] + pos[p * 4 + d];
        for (let k = 0; k < 2; k++) y += x[(n * 4 + p) * 2 + k] * W[k * 4 + d];
        loss += c[(n * 4 + p) * 4 + d] * y;
      }
      return loss;
    };
    const numeric = (which: 0 | 1 | 2) => {
      const base = [W0, b0, pos0];
      return base[which].map((_, i) => {
        const up = base.map((a) => a.slice());
        const down = base.map((a) => a.slice());
        up[which][i] += 1e-6;
        down[which][i] -= 1e-6;
        return (reference(up[0], up[1], up[2]) - reference(down[0], down[1], down[2])) / 2e-6;
      });
    };
    const vars = ['image.proj.W', 'image.proj.b', 'image.pos'].map((n) => enc.namedWeights().get(n)!);
    const { grads } = tf.variableGrads(() => tf.sum(tf.mul(enc.encode(tf.tensor3d(x, [2, 4, 2])), tf.tensor3d(c, [2, 4, 4]))) as tf.Scalar, vars);
    [0, 1, 2].forEach((i) => {
      const got = Array.from(grads[vars[i].name].dataSync());
      numeric(i as 0 | 1 | 2).forEach((g, j) => expect(got[j]).toBeCloseTo(g, 4));
    });
    tf.dispose(Object.values(grads));
    enc.dispose();
  });
});

describe('vision LM', () => {
  it('reads a prefix of embeddings exactly as it reads the tokens they embed', () => {
    const m = createVisionLM(CONFIG, 1);
    const ids = [[1, 3, 4, 5, 6], [1, 2, 6, 6, 3]];
    const K = 2;
    const whole = m.lm.forward(tf.tensor2d(ids, [2, 5], 'int32')).logits;
    const prefix = tf.gather(m.lm.namedWeights().get('tok_emb')!, tf.tensor1d(ids.flatMap((r) => r.slice(0, K)), 'int32')).reshape([2, K, 8]) as tf.Tensor3D;
    const rest = m.lm.forward(tf.tensor2d(ids.map((r) => r.slice(K)), [2, 3], 'int32'), { prefix }).logits;
    expect(rest.shape).toEqual([2, 3, 7]);
    const a = tf.slice(whole, [0, K, 0], [2, 3, 7]).dataSync();
    const b = rest.dataSync();
    a.forEach((v, i) => expect(b[i]).toBeCloseTo(v, 5));
    expect(() => m.lm.forward(tf.tensor2d([[1, 2, 3, 4, 5, 6, 1, 2, 3]], [1, 9], 'int32'), { prefix: tf.zeros([1, 2, 8]) as tf.Tensor3D })).toThrow(/prefix \(2\) \+ sequence length 9 exceeds context_length 10/);
    tf.dispose([whole, prefix, rest]);
    m.dispose();
  });

  it('returns the last layer’s attention: causal, each row a distribution, logits unchanged', () => {
    const m = createVisionLM(CONFIG, 2);
    const ids = tf.tensor2d([[1, 3, 4], [1, 5, 6]], [2, 3], 'int32');
    const patches = tf.tensor3d(randoms(2 * 4 * 12, 5), [2, 4, 12]);
    const plain = m.forward(ids, patches);
    const withAtt = m.forward(ids, patches, { returnAttention: true });
    expect(Array.from(withAtt.logits.dataSync())).toEqual(Array.from(plain.logits.dataSync()));
    const att = withAtt.attention!;
    expect(att.shape).toEqual([2, 2, 7, 7]); // [B, H, P + T, P + T]
    const a = att.arraySync();
    for (const head of a.flat()) head.forEach((row, i) => {
      expect(row.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 5);
      row.forEach((v, j) => j > i && expect(v).toBe(0));
    });
    tf.dispose([ids, patches, plain.logits, withAtt.logits, att]);
    m.dispose();
  });

  it('sends gradient through the image tokens into the encoder (directional finite difference)', () => {
    const m = createVisionLM(CONFIG, 4);
    const ids = tf.tensor2d([[1, 3, 4], [1, 5, 6]], [2, 3], 'int32');
    const patches = tf.tensor3d(randoms(2 * 4 * 12, 6), [2, 4, 12]);
    const W = m.encoder.namedWeights().get('image.proj.W')!;
    const dir = tf.tensor(randoms(W.size, 7), W.shape);
    const loss = () => tf.tidy(() => tf.sum(tf.mul(m.forward(ids, patches).logits, tf.linspace(-1, 1, 7))) as tf.Scalar);
    const { grads } = tf.variableGrads(loss, [W]);
    const analytic = tf.sum(tf.mul(grads[W.name], dir)).dataSync()[0];
    const W0 = W.clone();
    const h = 1e-3; // float32: 1e-2 is already off by the curvature (3%)
    W.assign(tf.add(W0, tf.mul(dir, h)));
    const up = loss().dataSync()[0];
    W.assign(tf.sub(W0, tf.mul(dir, h)));
    const down = loss().dataSync()[0];
    W.assign(W0);
    expect(Math.abs(analytic)).toBeGreaterThan(1e-3);
    expect(Math.abs(analytic - (up - down) / (2 * h)) / Math.abs(analytic)).toBeLessThan(1e-3);
    tf.dispose([ids, patches, dir, W0, ...Object.values(grads)]);
    m.dispose();
  });

  it('without a picture is the TinyLM itself', () => {
    const m = createVisionLM(CONFIG, 5);
    const ids = tf.tensor2d([[1, 3, 4, 2]], [1, 4], 'int32');
    expect(Array.from(m.forward(ids, null).logits.dataSync())).toEqual(Array.from(m.lm.forward(ids).logits.dataSync()));
    m.dispose();
  });

  it('samples greedily the forward’s argmax, PAD after EOS', async () => {
    const m = createVisionLM(CONFIG, 6);
    const prompts = [[1, 3], [1, 4], [1, 5]];
    const patches = tf.tensor3d(randoms(3 * 4 * 12, 8), [3, 4, 12]);
    const out = await sampleAnswers(m, prompts, patches, { max_completion_length: 3, eos_id: 2, pad_id: 0, temperature: 0 }, createRng(0));
    for (let i = 0; i < 3; i++) {
      const row = [...prompts[i]];
      for (let t = 0; t < 3; t++) {
        if (row.slice(2).includes(2)) {
          expect(out.completions[i][t]).toBe(0);
          expect(out.completionMask[i][t]).toBe(0);
          continue;
        }
        const logits = m.forward(tf.tensor2d([row], [1, row.length], 'int32'), tf.slice(patches, [i, 0, 0], [1, 4, 12])).logits;
        const best = tf.argMax(tf.reshape(tf.slice(logits, [0, row.length - 1, 0], [1, 1, 7]), [7])).dataSync()[0];
        expect(out.completions[i][t]).toBe(best);
        row.push(best);
      }
    }
    patches.dispose();
    m.dispose();
  });

  it('keeps tf.memory().numTensors flat across training steps', () => {
    const m = createVisionLM(CONFIG, 7);
    const opt = tf.train.adam(1e-2);
    const ids = tf.tensor2d([[1, 3, 4], [1, 5, 6]], [2, 3], 'int32');
    const patches = tf.tensor3d(randoms(2 * 4 * 12, 9), [2, 4, 12]);
    const step = () => opt.minimize(() => tf.mean(m.forward(ids, patches, { training: true }).logits) as tf.Scalar, false, m.trainableVariables());
    step(); // burn-in: Adam makes its slots
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) step();
    expect(tf.memory().numTensors).toBe(before);
    expect(m.clone().trainableVariables()).toHaveLength(0); // a reference copy is frozen
    tf.dispose([ids, patches]);
    opt.dispose();
    m.dispose();
  });
});
