/** The key/value cache: the same logits as a full forward pass, and the same seeded completions as without it. */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTinyLM } from '@/lib/models/checkpoint';
import { generate } from '@/lib/models/generate';
import { createTinyLM, type CausalLM, type TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { agentEnvironment, createAgentTask } from '@/lib/tasks/agent';
import { selectBackend } from '@/lib/tf/backend';
import { createLabTask } from '@/lib/train/lab-setup';

/** The same model without its cache: generation re-runs every prefix, as it did before the cache existed. */
const withoutCache = (m: TinyLM): CausalLM => ({ config: m.config, forward: (ids, opts) => m.forward(ids, opts) });

describe('decoding with a key/value cache', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('gives the logits of a full forward pass, whatever the chunks (ragged rows, several tokens at once)', () => {
    const m = createTinyLM({ vocab_size: 11, context_length: 12, d_model: 16, n_layers: 2, n_heads: 4 }, 3);
    const rows = [
      [1, 4, 5, 6, 7, 8, 9, 2, 3],
      [1, 9, 8, 7, 6, 5, 4],
    ];
    const chunks = [
      [[1, 4, 5], [1, 9]],
      [[6], [8, 7, 6]],
      [[7, 8, 9, 2], [5]],
      [[3], [4]],
    ];
    const session = m.beginDecoding();
    const seen = [0, 0];
    for (const chunk of chunks) {
      const logits = session.feed(chunk);
      chunk.forEach((c, b) => (seen[b] += c.length));
      const got = logits.arraySync();
      logits.dispose();
      rows.forEach((row, b) => {
        const full = tf.tidy(() => m.forward(tf.tensor2d([row.slice(0, seen[b])], [1, seen[b]], 'int32')).logits.arraySync()[0][seen[b] - 1]);
        got[b].forEach((x, v) => expect(x).toBeCloseTo(full[v], 5));
      });
    }
    session.dispose();
    m.dispose();
  });

  it('keeps the right rows after select(), and frees its tensors', () => {
    const m = createTinyLM({ vocab_size: 11, context_length: 12, d_model: 16, n_layers: 1, n_heads: 2 }, 4);
    const before = tf.memory().numTensors;
    const session = m.beginDecoding();
    session.feed([[1, 2], [1, 3], [1, 4]]).dispose();
    session.select([2, 0]);
    const logits = session.feed([[5], [6]]);
    const full = tf.tidy(() => m.forward(tf.tensor2d([[1, 4, 5], [1, 2, 6]], [2, 3], 'int32')).logits);
    const [a, b] = [logits.arraySync(), full.arraySync()];
    for (let r = 0; r < 2; r++) a[r].forEach((x, v) => expect(x).toBeCloseTo(b[r][2][v], 5));
    tf.dispose([logits, full]);
    session.dispose();
    expect(tf.memory().numTensors).toBe(before);
    m.dispose();
  });

  it('refuses what it cannot do: an empty row, the wrong number of rows, a sequence past the context', () => {
    const m = createTinyLM({ vocab_size: 11, context_length: 4, d_model: 8, n_layers: 1, n_heads: 2 }, 5);
    const session = m.beginDecoding();
    expect(() => session.feed([[1], []])).toThrow(/at least one new token/);
    session.feed([[1], [2]]).dispose();
    expect(() => session.feed([[1]])).toThrow(/1 rows of tokens for 2 rows/);
    expect(() => session.feed([[1, 2, 3, 4], [1]])).toThrow(/exceeds context_length 4/);
    session.dispose();
    m.dispose();
  });
});

describe('generation with and without the cache, on the shipped models (wasm)', () => {
  beforeAll(async () => {
    await selectBackend({ requested: 'wasm', order: ['wasm'] });
  });

  it('samples the same completions token for token: 64 single-turn arithmetic completions', async () => {
    const task = createLabTask();
    const m = loadTinyLM(new Uint8Array(fs.readFileSync('public/models/sft.arlw')));
    const prompts = task.sample('train', 64, createRng('kv')).map((p) => task.encodePrompt(p));
    const config = { temperature: 1, max_completion_length: 15, eos_id: task.tokenizer.eos, pad_id: task.tokenizer.pad };
    const before = tf.memory().numTensors;
    const cached = await generate(m, prompts, config, createRng(7), undefined, { decoder: 'tfjs' }); // the fused kernel: decode-kernel.test.ts
    expect(tf.memory().numTensors).toBe(before);
    const plain = await generate(withoutCache(m), prompts, config, createRng(7));
    expect(cached.completions).toEqual(plain.completions);
    expect(cached.samplingLogprobs.flat().every((x, i) => Math.abs(x - plain.samplingLogprobs.flat()[i]) < 1e-4)).toBe(true);
    m.dispose();
  });

  it('samples the same multi-turn episodes, tool replies included', async () => {
    const task = createAgentTask();
    const m = loadTinyLM(new Uint8Array(fs.readFileSync('public/models/agent-sft.arlw')));
    const prompts = task.sample('train', 64, createRng('kv-agent')).map((p) => task.encodePrompt(p));
    const config = { temperature: 1, max_completion_length: 26, eos_id: task.tokenizer.eos, pad_id: task.tokenizer.pad };
    const env = agentEnvironment(task, 2);
    const cached = await generate(m, prompts, config, createRng(8), env, { decoder: 'tfjs' });
    const plain = await generate(withoutCache(m), prompts, config, createRng(8), env);
    expect(cached.observations.reduce((a, b) => a + b, 0)).toBeGreaterThan(10); // the episodes really call the tool
    expect(cached.completions).toEqual(plain.completions);
    expect(cached.observationMask).toEqual(plain.observationMask);
    m.dispose();
  });
});
