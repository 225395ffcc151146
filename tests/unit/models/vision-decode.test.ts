/**
 * The vision model's cached decoding (lib/models/vision-decode.ts) against the full-forward sampler it replaced: the
 * same tokens and the same log-probabilities bit for bit, for groups of rows sharing a picture and question, on cpu and
 * on wasm at the lab's shapes (4 × 4 and 5 × 5 pictures); the session's logits equal the forward's; no tensor leaks.
 */
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginVisionDecoding } from '@/lib/models/vision-decode';
import { cacheMatchesForward, createVisionLM, sampleAnswers, sampleAnswersFullForward, type AnswerSampling, type VisionLM, type VisionLMConfig } from '@/lib/models/vision-lm';
import { createRng } from '@/lib/random';
import { selectBackend } from '@/lib/tf/backend';
import { resolveVisionConfig, visionModelConfig, visionTaskFor } from '@/lib/train/vision-trainer';

const CONFIG: VisionLMConfig = {
  lm: { vocab_size: 7, context_length: 10, d_model: 8, n_layers: 2, n_heads: 2 },
  encoder: { patch_size: 2, num_channels: 3, patch_grid: 2, d_model: 8 }, // P = 4 image tokens of 12 values
};
const randoms = (n: number, seed: number) => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => rng.next() * 2 - 1);
};

/** Both samplers from the same seed; every field of their results must be equal (log-probabilities included). */
async function compareSamplers(model: VisionLM, prompts: number[][], patches: tf.Tensor3D | null, config: AnswerSampling, seed: number) {
  const cached = await sampleAnswers(model, prompts, patches, config, createRng(seed));
  const reference = await sampleAnswersFullForward(model, prompts, patches, config, createRng(seed));
  expect(cached).toEqual(reference);
  return reference;
}

describe('cached vision decoding on cpu', () => {
  beforeAll(async () => {
    await selectBackend({ requested: 'cpu', order: ['cpu'] });
  });

  it('samples what the full forward samples, bit for bit, groups and single rows alike', async () => {
    const m = createVisionLM(CONFIG, 3);
    // Rows 0–2 share a picture and prompt (a group), row 3 has the same prompt but another picture, rows 4–5 their own.
    const prompts = [[1, 3], [1, 3], [1, 3], [1, 3], [1, 4], [1, 5]];
    const pics = randoms(4 * 4 * 12, 11);
    const rowPicture = [0, 0, 0, 1, 2, 3];
    const patches = tf.tensor3d(rowPicture.flatMap((p) => pics.slice(p * 48, (p + 1) * 48)), [6, 4, 12]);
    let multiStep = 0;
    for (const seed of [0, 1, 2, 3]) {
      for (const temperature of [1, 0]) {
        const out = await compareSamplers(m, prompts, patches, { max_completion_length: 4, eos_id: 2, pad_id: 0, temperature }, seed);
        multiStep += out.lengths.filter((n) => n > 1).length;
        if (temperature === 1) expect(out.samplingLogprobs[0][0]).toBeLessThan(0); // real log-probabilities are compared
      }
      // Without a picture: the text-only floor.
      await compareSamplers(m, prompts, null, { max_completion_length: 4, eos_id: 2, pad_id: 0, temperature: 1 }, seed);
    }
    expect(multiStep).toBeGreaterThan(0); // the cached steps after the first token ran
    patches.dispose();
    m.dispose();
  });

  it('gives the forward’s logits at every step, bit for bit', () => {
    const m = createVisionLM(CONFIG, 4);
    const patches = tf.tensor3d(randoms(2 * 4 * 12, 12), [2, 4, 12]);
    const rows = [[1, 3, 5], [1, 6, 4]];
    const session = beginVisionDecoding(m);
    let logits = session.start(rows, patches);
    for (const next of [[2, 3], [5, 6], [4, 1]]) {
      const T = rows[0].length;
      const full = tf.tidy(() => tf.reshape(tf.slice(m.forward(tf.tensor2d(rows, [2, T], 'int32'), patches).logits, [0, T - 1, 0], [2, 1, 7]), [2, 7]));
      expect(Array.from(logits.dataSync())).toEqual(Array.from(full.dataSync()));
      tf.dispose([logits, full]);
      rows.forEach((r, i) => r.push(next[i]));
      logits = session.feed(next);
    }
    expect(session.length).toBe(4 + 6);
    expect(() => session.feed([1, 1])).toThrow(/exceeds context_length 10/);
    logits.dispose();
    session.dispose();
    patches.dispose();
    m.dispose();
  });

  it('keeps tf.memory().numTensors flat across decode calls', async () => {
    const m = createVisionLM(CONFIG, 5);
    const prompts = [[1, 3], [1, 3], [1, 4]];
    const picture = randoms(2 * 4 * 12, 13);
    const patches = tf.tensor3d([...picture.slice(0, 48), ...picture], [3, 4, 12]); // rows 0 and 1: one group
    const decode = (seed: number) => sampleAnswers(m, prompts, patches, { max_completion_length: 4, eos_id: 2, pad_id: 0, temperature: 1 }, createRng(seed));
    await decode(0);
    const before = tf.memory().numTensors;
    for (let seed = 1; seed < 4; seed++) await decode(seed);
    await sampleAnswers(m, prompts, null, { max_completion_length: 4, eos_id: 2, pad_id: 0, temperature: 0 }, createRng(0));
    expect(tf.memory().numTensors).toBe(before);
    patches.dispose();
    m.dispose();
  });

  it('rejects a mismatched batch with a clear error', async () => {
    const m = createVisionLM(CONFIG, 6);
    const patches = tf.zeros([1, 4, 12]) as tf.Tensor3D;
    const config = { max_completion_length: 2, eos_id: 2, pad_id: 0, temperature: 1 };
    await expect(sampleAnswers(m, [[1, 3], [1, 4]], patches, config, createRng(0))).rejects.toThrow(/1 pictures for 2 rows/);
    await expect(sampleAnswers(m, [[1, 3], [1]], null, config, createRng(0))).rejects.toThrow(/same length/);
    patches.dispose();
    m.dispose();
  });
});

describe('where the cache gives the forward’s bits', () => {
  it('on wasm, while prompt and answer positions stay in one block of 4 (hand-checked lengths)', () => {
    expect(cacheMatchesForward('wasm', 20, 3)).toBe(true); // the lab's 4 × 4 picture: 16 + 4 positions, then 21, 22
    expect(cacheMatchesForward('wasm', 29, 3)).toBe(true); // 5 × 5: 29, 30, 31
    expect(cacheMatchesForward('wasm', 4, 3)).toBe(true); // no picture: 4, 5, 6
    expect(cacheMatchesForward('wasm', 22, 3)).toBe(false); // 22, 23, then 24 regroups the earlier rows' sums
    expect(cacheMatchesForward('wasm', 6, 4)).toBe(false);
    expect(cacheMatchesForward('cpu', 22, 3)).toBe(true); // cpu sums in order: padding adds zeros at the end
  });
});

describe('cached vision decoding on wasm, at the lab’s shapes', () => {
  beforeAll(async () => {
    await selectBackend({ requested: 'wasm' });
  });
  afterAll(async () => {
    await tf.setBackend('cpu');
  });

  // The default lab (4 × 4 pictures, mixed questions) and the counting preset (5 × 5): 32 pictures × 8 answers.
  for (const overrides of [{}, { questions: 'counting', grid_size: 5 }]) {
    it(`samples what the full forward samples, bit for bit (${JSON.stringify(overrides)})`, async () => {
      expect(tf.getBackend()).toBe('wasm');
      const config = resolveVisionConfig(overrides);
      const task = visionTaskFor(config);
      const tok = task.tokenizer;
      const sampling = { max_completion_length: task.maxCompletionLength, eos_id: tok.eos, pad_id: tok.pad, temperature: 1 };
      for (const seed of [0, 1, 2]) {
        const m = createVisionLM(visionModelConfig(task), seed);
        const problems = task.sample('train', 32, createRng(seed)).flatMap((p) => Array(8).fill(p));
        const P = task.patchGrid * task.patchGrid;
        const flat = new Float32Array(problems.length * P * task.patchDim);
        problems.forEach((p, i) => flat.set(task.patches(p.scene), i * P * task.patchDim));
        const patches = tf.tensor3d(flat, [problems.length, P, task.patchDim]);
        const prompts = problems.map((p) => task.encodePrompt(p));
        const out = await compareSamplers(m, prompts, patches, sampling, seed);
        expect(out.lengths.some((n) => n === task.maxCompletionLength)).toBe(true); // every cached step ran
        await compareSamplers(m, prompts.slice(0, 100), patches.slice(0, 100), { ...sampling, temperature: 0 }, seed); // greedy evaluation
        patches.dispose();
        m.dispose();
      }
    });
  }

  it('re-runs the forward where the cache would regroup a sum: still the same samples', async () => {
    const m = createVisionLM(CONFIG, 8);
    const prompts = [[1, 3], [1, 3], [1, 4]]; // 4 image tokens + 2: positions 6, 7, 8, 9
    const patches = tf.tensor3d(randoms(3 * 4 * 12, 14), [3, 4, 12]);
    for (const seed of [0, 1, 2]) await compareSamplers(m, prompts, patches, { max_completion_length: 4, eos_id: 2, pad_id: 0, temperature: 1 }, seed);
    patches.dispose();
    m.dispose();
  });
});
