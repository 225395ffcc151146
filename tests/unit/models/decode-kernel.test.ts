/**
 * The fused decoding kernel (lib/models/decode-kernel): the same probabilities as the tfjs key/value cache, the same
 * seeded completions from generate(), clear errors, and a committed wasm that is what its source compiles to.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LORA_TARGETS } from '@/lib/models/config';
import { fusedDecodingAvailable, kernelFits } from '@/lib/models/decode-kernel/session';
import { DECODE_KERNEL_WASM_BASE64 } from '@/lib/models/decode-kernel/wasm';
import { loadTinyLM } from '@/lib/models/checkpoint';
import { generate } from '@/lib/models/generate';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { agentEnvironment, createAgentTask } from '@/lib/tasks/agent';
import { selectBackend } from '@/lib/tf/backend';
import { createLabTask } from '@/lib/train/lab-setup';
import { compileKernel, KERNELS } from '@/scripts/kernel/compile.mjs';

/** Feeds the same chunks to the tfjs session and the fused one; returns the largest probability difference. */
async function largestDifference(m: TinyLM, chunks: { feed?: number[][]; select?: number[] }[], temperature: number): Promise<number> {
  const plain = m.beginDecoding();
  const fused = await m.beginFusedDecoding();
  expect(fused).not.toBeNull();
  let largest = 0;
  for (const chunk of chunks) {
    if (chunk.select) {
      plain.select(chunk.select);
      fused!.select(chunk.select);
      continue;
    }
    const logits = plain.feed(chunk.feed!);
    const want = tf.tidy(() => tf.softmax(temperature > 0 ? tf.div(logits, temperature) : logits).dataSync());
    logits.dispose();
    const got = fused!.feed(chunk.feed!, temperature);
    expect(got.length).toBe(want.length);
    got.forEach((p, i) => (largest = Math.max(largest, Math.abs(p - want[i]))));
  }
  plain.dispose();
  fused!.dispose();
  return largest;
}

/** Every path the samplers use: ragged prompts from slot 0, one token per row, select (drop and reorder), a tool's reply. */
const CHUNKS = [
  { feed: [[1, 4, 5], [1, 9], [1, 2, 3, 4, 5, 6]] },
  { feed: [[6], [8], [7]] },
  { select: [2, 0] },
  { feed: [[7, 8, 9, 2], [5]] },
  { feed: [[3], [4]] },
  { select: [1] },
  { feed: [[10, 3]] },
];

describe('the fused decoding kernel (cpu backend for the reference)', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('gives the tfjs session’s probabilities to float rounding, whatever the chunks', async () => {
    const m = createTinyLM({ vocab_size: 11, context_length: 14, d_model: 16, n_layers: 2, n_heads: 2 }, 3);
    for (const temperature of [1, 0.7, 0]) expect(await largestDifference(m, CHUNKS, temperature)).toBeLessThan(2e-6);
    m.dispose();
  });

  it('computes with the adapters folded in (LoRA unmerged, every target, B ≠ 0) and with a value head', async () => {
    const m = createTinyLM(
      {
        vocab_size: 13,
        context_length: 14,
        d_model: 24,
        n_layers: 1,
        n_heads: 2,
        d_ff: 36,
        value_head: true,
        lora: { r: 2, lora_alpha: 4, lora_dropout: 0, use_rslora: false, target_modules: [...LORA_TARGETS] },
      },
      5,
    );
    // Adapters start at ΔW = 0: give every B a value so that folding them in matters.
    m.namedWeights().forEach((v, name) => {
      if (name.endsWith('lora_B')) v.assign(tf.randomNormal(v.shape, 0, 0.5, 'float32', 9));
    });
    const withAdapters = await largestDifference(m, CHUNKS, 1);
    expect(withAdapters).toBeLessThan(2e-6);
    m.mergeLora();
    expect(await largestDifference(m, CHUNKS, 1)).toBeLessThan(2e-6);
    m.dispose();
  });

  it('a reused instance forgets the previous session: a smaller model after a larger one', async () => {
    const big = createTinyLM({ vocab_size: 21, context_length: 14, d_model: 32, n_layers: 2, n_heads: 4 }, 1);
    const small = createTinyLM({ vocab_size: 11, context_length: 14, d_model: 8, n_layers: 1, n_heads: 2 }, 2);
    expect(await largestDifference(big, CHUNKS, 1)).toBeLessThan(2e-6);
    expect(await largestDifference(small, CHUNKS, 1)).toBeLessThan(2e-6);
    expect(await largestDifference(big, CHUNKS, 1)).toBeLessThan(2e-6);
    big.dispose();
    small.dispose();
  });

  it('refuses what it cannot do, as the tfjs session does', async () => {
    const m = createTinyLM({ vocab_size: 11, context_length: 4, d_model: 8, n_layers: 1, n_heads: 2 }, 5);
    const session = (await m.beginFusedDecoding())!;
    expect(() => session.feed([[1], []], 1)).toThrow(/at least one new token/);
    expect(() => session.feed([[1], [11]], 1)).toThrow(/token 11 is outside the vocabulary/);
    session.feed([[1], [2]], 1);
    expect(() => session.feed([[1]], 1)).toThrow(/1 rows of tokens for 2 rows/);
    expect(() => session.feed([[1, 2, 3, 4], [1]], 1)).toThrow(/exceeds context_length 4/);
    expect(() => session.select([2])).toThrow(/indices below 2/);
    session.dispose();
    expect(() => session.feed([[1], [2]], 1)).toThrow(/disposed/);
    m.dispose();
  });

  it('stands aside where the shapes are not whole SIMD lanes, and generate() then decodes with tfjs', async () => {
    const cfg = { vocab_size: 11, context_length: 10, d_model: 12, n_layers: 1, n_heads: 2 }; // head_dim 6
    expect(kernelFits({ ...cfg, d_ff: 48 })).toBe(false);
    expect(kernelFits({ ...cfg, n_heads: 3, d_ff: 48 })).toBe(true);
    const m = createTinyLM(cfg, 6);
    expect(await m.beginFusedDecoding()).toBeNull();
    const gen = await generate(m, [[1, 2], [3]], { max_completion_length: 5, eos_id: 2, pad_id: 0 }, createRng(1));
    expect(gen.lengths.every((n) => n >= 1 && n <= 5)).toBe(true);
    m.dispose();
  });
});

describe('generate() through the kernel and through tfjs, on the shipped models (wasm)', () => {
  beforeAll(async () => {
    await selectBackend({ requested: 'wasm', order: ['wasm'] });
  });
  afterAll(async () => {
    await tf.setBackend('cpu');
  });

  it('samples the same 64 arithmetic completions token for token, and leaves no tensor behind', async () => {
    const task = createLabTask();
    const m = loadTinyLM(new Uint8Array(fs.readFileSync('public/models/sft.arlw')));
    expect(await fusedDecodingAvailable(m.config), 'the shipped model decodes through the kernel').toBe(true);
    const prompts = task.sample('train', 64, createRng('fused')).map((p) => task.encodePrompt(p));
    const config = { temperature: 1, max_completion_length: 15, eos_id: task.tokenizer.eos, pad_id: task.tokenizer.pad };
    const before = tf.memory().numTensors;
    const fused = await generate(m, prompts, config, createRng(7));
    expect(tf.memory().numTensors).toBe(before);
    const plain = await generate(m, prompts, config, createRng(7), undefined, { decoder: 'tfjs' });
    expect(fused.completions).toEqual(plain.completions);
    expect(fused.finished.filter(Boolean).length).toBeGreaterThan(32);
    expect(new Set(fused.lengths).size).toBeGreaterThan(1); // rows end at different steps: select() ran
    fused.samplingLogprobs.flat().forEach((x, i) => expect(Math.abs(x - plain.samplingLogprobs.flat()[i])).toBeLessThan(1e-4));
    m.dispose();
  });

  it('samples the same multi-turn episodes, tool replies included', async () => {
    const task = createAgentTask();
    const m = loadTinyLM(new Uint8Array(fs.readFileSync('public/models/agent-sft.arlw')));
    expect(await fusedDecodingAvailable(m.config), 'the shipped model decodes through the kernel').toBe(true);
    const prompts = task.sample('train', 64, createRng('fused-agent')).map((p) => task.encodePrompt(p));
    const config = { temperature: 1, max_completion_length: 26, eos_id: task.tokenizer.eos, pad_id: task.tokenizer.pad };
    const env = agentEnvironment(task, 2);
    const fused = await generate(m, prompts, config, createRng(8), env);
    const plain = await generate(m, prompts, config, createRng(8), env, { decoder: 'tfjs' });
    expect(fused.observations.reduce((a, b) => a + b, 0)).toBeGreaterThan(10); // the episodes really call the tool
    expect(fused.completions).toEqual(plain.completions);
    expect(fused.observationMask).toEqual(plain.observationMask);
    m.dispose();
  });
});

describe('the committed kernel', () => {
  it('is what assembly/index.ts compiles to (run `npm run build:kernel` after editing it)', async () => {
    const text: string = await compileKernel('decode');
    expect(fs.readFileSync(KERNELS.decode.output, 'utf8')).toBe(text);
    expect(text).toContain(DECODE_KERNEL_WASM_BASE64.slice(0, 100));
  });
});
