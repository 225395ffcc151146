import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, nextTokenProbs, sampleToken } from '@/lib/models/generate';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { createScriptedLM } from './fake-lm';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const cfg = { vocab_size: 12, context_length: 16, d_model: 16, n_layers: 1, n_heads: 2 };
const gen = { max_completion_length: 8, eos_id: 2, pad_id: 0, temperature: 1 };
const prompts = [
  [1, 5, 6],
  [1, 7, 8],
  [1, 9, 3],
  [1, 4, 4],
];

describe('generate with a TinyLM', () => {
  it('same seed → same completions; different seed → different', async () => {
    const m = createTinyLM(cfg, 3);
    const a = await generate(m, prompts, gen, createRng(42));
    const b = await generate(m, prompts, gen, createRng(42));
    const c = await generate(m, prompts, gen, createRng(43));
    expect(a.completions).toEqual(b.completions);
    expect(a.completions).not.toEqual(c.completions);
    expect(a.completions).toHaveLength(4);
    a.completions.forEach((row) => expect(row).toHaveLength(8));
    m.dispose();
  });

  it('leaks no tensors', async () => {
    const m = createTinyLM(cfg, 3);
    await generate(m, prompts, gen, createRng(1)); // warm-up
    const before = tf.memory().numTensors;
    await generate(m, prompts, { ...gen, top_k: 3 }, createRng(2));
    expect(tf.memory().numTensors).toBe(before);
    m.dispose();
  });

  it('refuses prompts that cannot fit', async () => {
    const m = createTinyLM(cfg, 3);
    await expect(generate(m, [new Array(10).fill(1)], gen, createRng(1))).rejects.toThrow(/exceeds context_length 16/);
    m.dispose();
  });
});

describe('generate with a scripted model', () => {
  // Row i writes 3, 4, … and ends with EOS after (i + 1) tokens of its own.
  const lm = () =>
    createScriptedLM({
      vocab_size: 12,
      context_length: 16,
      next: (row) => {
        const own = row.length - 3; // tokens generated so far
        return own >= row[1] - 4 ? 2 : 3 + own;
      },
    });

  it('stops each row at EOS, pads after it, and masks through EOS', async () => {
    const g = await generate(lm(), [[1, 5, 0], [1, 6, 0], [1, 4, 0]], { ...gen, max_completion_length: 5 }, createRng(0));
    expect(g.completions).toEqual([
      [3, 2, 0, 0, 0],
      [3, 4, 2, 0, 0],
      [2, 0, 0, 0, 0],
    ]);
    expect(g.completionMask).toEqual([
      [1, 1, 0, 0, 0],
      [1, 1, 1, 0, 0],
      [1, 0, 0, 0, 0],
    ]);
    expect(g.lengths).toEqual([2, 3, 1]);
    expect(g.finished).toEqual([true, true, true]);
  });

  it('marks rows cut off at max_completion_length as unfinished, and stops calling the model when all are done', async () => {
    const model = lm();
    const g = await generate(model, [[1, 9, 0], [1, 4, 0]], { ...gen, max_completion_length: 3 }, createRng(0));
    expect(g.completions).toEqual([[3, 4, 5], [2, 0, 0]]);
    expect(g.completionMask).toEqual([[1, 1, 1], [1, 0, 0]]);
    expect(g.finished).toEqual([false, true]);
    expect(model.calls).toBe(3);
    const done = lm();
    await generate(done, [[1, 4, 0]], { ...gen, max_completion_length: 6 }, createRng(0));
    expect(done.calls).toBe(1);
  });

  it('nextTokenProbs reads each row at its own last position (ragged rows)', async () => {
    const model = createScriptedLM({ vocab_size: 6, context_length: 8, next: (row) => row.length % 6 });
    const probs = await nextTokenProbs(model, [[1, 1], [1, 1, 1, 1, 1]], 1, 0);
    expect(probs.length).toBe(12);
    expect(probs[2]).toBeGreaterThan(0.99); // row 0 has length 2
    expect(probs[6 + 5]).toBeGreaterThan(0.99); // row 1 has length 5
  });
});

describe('sampleToken', () => {
  const probs = new Float32Array([0.1, 0.6, 0.3]);
  it('temperature 0 is greedy', () => {
    expect(sampleToken(probs, createRng(1), { temperature: 0 })).toEqual({ token: 1, logprob: 0 });
  });
  it('top_k=1 always picks the argmax; top_k=2 never picks the third', () => {
    const rng = createRng(5);
    for (let i = 0; i < 50; i++) expect(sampleToken(probs, rng, { top_k: 1 }).token).toBe(1);
    for (let i = 0; i < 200; i++) expect(sampleToken(probs, rng, { top_k: 2 }).token).not.toBe(0);
  });
  it('samples in proportion to the probabilities and reports log-probs', () => {
    const rng = createRng(9);
    const counts = [0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[sampleToken(probs, rng).token]++;
    expect(counts[1] / 4000).toBeCloseTo(0.6, 1);
    expect(counts[2] / 4000).toBeCloseTo(0.3, 1);
    expect(sampleToken(new Float32Array([0, 1, 0]), rng).logprob).toBeCloseTo(0, 6);
  });
});
