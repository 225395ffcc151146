/**
 * The sliding attention window (TinyLMConfig.sliding_window), the memory task's forgetting: a token the window has
 * dropped cannot change a logit, and training (forward), the tfjs decoding session and the fused kernel agree on
 * what the policy sees.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { receptiveField, type TinyLMConfig } from '@/lib/models/config';
import { loadTinyLM, loadTinyLMWeights, saveTinyLM } from '@/lib/models/checkpoint';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { createMemoryTask } from '@/lib/tasks/agent-memory';
import { agentModelConfig } from '@/lib/train/lab-setup';

const SMALL: TinyLMConfig = { vocab_size: 12, context_length: 24, d_model: 8, n_layers: 2, n_heads: 2, sliding_window: 4 };

/** Logits [T, V] of one sequence through forward(). */
function logitsOf(m: TinyLM, ids: number[]): number[][] {
  return tf.tidy(() => {
    const { logits } = m.forward(tf.tensor2d([ids], [1, ids.length], 'int32'));
    return (logits.arraySync() as number[][][])[0];
  });
}

const maxDiff = (a: number[], b: number[]) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));

describe('sliding_window', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('reaches back n_layers·(window − 1) + 1 tokens, and is checked', () => {
    expect(receptiveField(SMALL)).toBe(7);
    expect(receptiveField({ ...SMALL, sliding_window: null })).toBe(Infinity);
    expect(() => createTinyLM({ ...SMALL, sliding_window: 0 }, 0)).toThrow(/sliding_window/);
    expect(() => createTinyLM({ ...SMALL, sliding_window: 2.5 }, 0)).toThrow(/sliding_window/);
  });

  it('a token older than the receptive field cannot change a logit; a token inside it does', () => {
    const m = createTinyLM(SMALL, 3);
    const rng = createRng('window');
    const ids = Array.from({ length: 20 }, () => 3 + rng.int(9));
    const base = logitsOf(m, ids);
    const last = ids.length - 1;
    const field = receptiveField(SMALL);
    // Every token outside the last position's field, changed at once.
    const far = ids.map((t, i) => (i <= last - field ? 3 + ((t - 3 + 4) % 9) : t));
    expect(maxDiff(logitsOf(m, far)[last], base[last])).toBe(0);
    // The oldest token inside the field (two hops back) does change it: the test can fail.
    const near = [...ids];
    near[last - field + 1] = 3 + ((ids[last - field + 1] - 3 + 4) % 9);
    expect(maxDiff(logitsOf(m, near)[last], base[last])).toBeGreaterThan(1e-6);
    // Without the window the far change is seen.
    const full = createTinyLM({ ...SMALL, sliding_window: null }, 3);
    expect(maxDiff(logitsOf(full, far)[last], logitsOf(full, ids)[last])).toBeGreaterThan(1e-6);
    m.dispose();
    full.dispose();
  });

  it('training, the tfjs decoding session and the fused kernel see the same window', async () => {
    const m = createTinyLM(SMALL, 5);
    const ids = [1, 4, 5, 6, 7, 8, 9, 10, 3, 4, 5, 6, 7, 11, 8, 9, 3, 5];
    const want = logitsOf(m, ids).map((row) => tf.tidy(() => Array.from(tf.softmax(tf.tensor1d(row)).dataSync())));
    const plain = m.beginDecoding();
    const fused = await m.beginFusedDecoding();
    expect(fused).not.toBeNull();
    // A prompt of 5, then one token at a time, then a chunk of 3 (a tool's reply), then one at a time.
    const chunks = [ids.slice(0, 5), ...ids.slice(5, 10).map((t) => [t]), ids.slice(10, 13), ...ids.slice(13).map((t) => [t])];
    let at = 0;
    for (const chunk of chunks) {
      at += chunk.length;
      const logits = plain.feed([chunk]);
      const fromSession = tf.tidy(() => Array.from(tf.softmax(logits).dataSync()));
      logits.dispose();
      const fromKernel = Array.from(fused!.feed([chunk], 1));
      expect(maxDiff(fromSession, want[at - 1])).toBeLessThan(1e-5);
      expect(maxDiff(fromKernel, want[at - 1])).toBeLessThan(1e-5);
    }
    plain.dispose();
    fused!.dispose();
    m.dispose();
  });

  it('is saved with the model and refused when it differs', async () => {
    const m = createTinyLM(SMALL, 1);
    const bytes = await saveTinyLM(m);
    const back = loadTinyLM(bytes);
    expect(back.config.sliding_window).toBe(4);
    const other = createTinyLM({ ...SMALL, sliding_window: 6 }, 1);
    expect(() => loadTinyLMWeights(other, bytes)).toThrow(/sliding_window is 4 in the file but 6/);
    [m, back, other].forEach((x) => x.dispose());
  });

  it('hides the memory task’s facts from the answer: the lab model’s field ends after the prompt', () => {
    const task = createMemoryTask();
    const config = agentModelConfig(task);
    // The earliest answer digit: "; c=81 d=20 e=44 b?####" then the digit, predicted at the position before it.
    const earliest = task.promptLength + '; c=81 d=20 e=44 b?####'.length - 1;
    expect(earliest - receptiveField(config) + 1).toBeGreaterThanOrEqual(task.promptLength);
    const m = createTinyLM(config, 0);
    const prompt = (facts: string) => [task.tokenizer.bos, ...task.tokenizer.encode(facts)];
    const rest = task.tokenizer.encode('; c=81 d=20 e=44 b?####');
    const a = logitsOf(m, [...prompt('a=37 b=52'), ...rest]);
    const b = logitsOf(m, [...prompt('a=90 b=14'), ...rest]);
    expect(maxDiff(a[earliest], b[earliest])).toBe(0);
    m.dispose();
  });
});
