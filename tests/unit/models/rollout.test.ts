/** The one sampling loop with an environment answering between turns (multi-turn rollouts for agents). */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '@/lib/models/generate';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { createCalculatorEnv } from '@/lib/tasks/environment';
import { AGENT_CHARS, createCharTokenizer } from '@/lib/tasks/tokenizer';
import { createScriptedLM } from './fake-lm';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tok = createCharTokenizer(AGENT_CHARS);
const env = createCalculatorEnv(tok);
const prompt = [tok.bos, ...tok.encode('3*7=')];

/** A policy that writes `script` (the full completion text, observations included) character by character. */
function scriptedPolicy(script: string) {
  const ids = [...tok.encode(script), tok.eos];
  return createScriptedLM({
    vocab_size: tok.vocabSize,
    context_length: 32,
    next: (row) => ids[Math.min(row.length - prompt.length, ids.length - 1)],
  });
}

describe('multi-turn rollouts: generate with an environment', () => {
  it('inserts observations, masks them out of the loss, and pads', async () => {
    const batch = await generate(
      scriptedPolicy('[3*7]=21 #### 21'),
      [prompt, prompt],
      { max_completion_length: 20, eos_id: tok.eos, pad_id: tok.pad, temperature: 1 },
      createRng(1),
      env,
    );
    const row = batch.completions[0];
    expect(tok.decode(row)).toBe('[3*7]=21 #### 21');
    expect(batch.lengths).toEqual([17, 17]);
    expect(batch.finished).toEqual([true, true]);
    expect(batch.observations).toEqual([1, 1]);
    const mask = batch.completionMask[0];
    expect(mask.slice(0, 5)).toEqual([1, 1, 1, 1, 1]); // "[3*7]" by the policy
    expect(mask.slice(5, 8)).toEqual([0, 0, 0]); // "=21" by the environment
    expect(mask.slice(8, 17)).toEqual(new Array(9).fill(1)); // " #### 21" and EOS
    expect(mask.slice(17)).toEqual([0, 0, 0]); // padding
    expect(batch.observationMask[0].slice(5, 8)).toEqual([1, 1, 1]);
    expect(row.slice(17)).toEqual([tok.pad, tok.pad, tok.pad]);
  });

  it('cuts rows at max_completion_length, observations included', async () => {
    const batch = await generate(
      scriptedPolicy('[3*7]=21 #### 21'),
      [prompt],
      { max_completion_length: 7, eos_id: tok.eos, pad_id: tok.pad },
      createRng(1),
      env,
    );
    expect(tok.decode(batch.completions[0])).toBe('[3*7]=2');
    expect(batch.completionMask[0]).toEqual([1, 1, 1, 1, 1, 0, 0]);
    expect(batch.finished).toEqual([false]);
  });

  it('runs a real TinyLM deterministically and leaks no tensors', async () => {
    const m = createTinyLM({ vocab_size: tok.vocabSize, context_length: 16, d_model: 16, n_layers: 1, n_heads: 2 }, 1);
    const cfg = { max_completion_length: 10, eos_id: tok.eos, pad_id: tok.pad };
    const a = await generate(m, [prompt, prompt, prompt], cfg, createRng(5), env);
    const n = tf.memory().numTensors;
    const b = await generate(m, [prompt, prompt, prompt], cfg, createRng(5), env);
    expect(tf.memory().numTensors).toBe(n);
    expect(b).toEqual(a);
    a.completionMask.forEach((mask, i) => mask.forEach((v, t) => expect(v + a.observationMask[i][t]).toBe(t < a.lengths[i] ? 1 : 0)));
    m.dispose();
  });
});
