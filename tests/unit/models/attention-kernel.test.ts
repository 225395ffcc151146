/**
 * A layer's self-attention as three wasm kernels (lib/models/attention-kernel): from qkv to the merged heads and back, it
 * must give the stock path's numbers bit for bit (ops.ts selfAttention with the fast paths off: split the heads,
 * attention(), merge them), forward and backward, for the lab's shapes and for ragged ones (heads not a multiple of four
 * wide, sequences shorter than a head, at and past one 48-term block of the products, sliding windows, whose masked
 * terms the common shapes' loops skip); its gradient must be right
 * against finite differences of a float64 reference; it must free what it allocates, stand aside where it does not
 * apply, and the committed wasm must be what its source compiles to.
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fusedAttentionApplies, fusedSelfAttention } from '@/lib/models/attention-kernel/attention';
import { setWasmFastPaths } from '@/lib/models/fast-paths';
import { selfAttention } from '@/lib/models/ops';
import { createRng } from '@/lib/random';
import { selectBackend } from '@/lib/tf/backend';
import { compileKernel, KERNELS } from '@/scripts/kernel/compile.mjs';
import { heapCalls } from './heap-calls';

const randoms = (n: number, seed: number, scale = 1) => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => (rng.next() - 0.5) * 2 * scale);
};

function expectSameBits(actual: tf.Tensor, expected: tf.Tensor, what: string) {
  expect(actual.shape, what).toEqual(expected.shape);
  const a = new Uint32Array((actual.dataSync() as Float32Array).slice().buffer);
  const e = new Uint32Array((expected.dataSync() as Float32Array).slice().buffer);
  let differing = 0;
  for (let i = 0; i < e.length; i++) if (a[i] !== e[i]) differing++;
  expect(differing, what).toBe(0);
}

/** 0 where query i may see key j, −1e9 elsewhere: causal, or causal within a window of the last `window` keys. */
function maskOf(S: number, window?: number): tf.Tensor2D {
  const values = Array.from({ length: S * S }, (_, e) => {
    const [i, j] = [Math.floor(e / S), e % S];
    return j > i || (window !== undefined && i - j >= window) ? -1e9 : 0;
  });
  return tf.tensor2d(values, [S, S]);
}

/** The same attention in float64: qkv rows [B·S, 3D] → [B·S, D]. */
function attention64(qkv: number[], B: number, S: number, H: number, hd: number, mask: number[]): number[] {
  const D = H * hd;
  const at = (b: number, i: number, part: number, h: number, d: number) => qkv[(b * S + i) * 3 * D + part * D + h * hd + d];
  const out = new Array<number>(B * S * D).fill(0);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      for (let i = 0; i < S; i++) {
        const scores = Array.from({ length: S }, (_, j) => {
          let dot = 0;
          for (let d = 0; d < hd; d++) dot += at(b, i, 0, h, d) * at(b, j, 1, h, d);
          return dot / Math.sqrt(hd) + mask[i * S + j];
        });
        const max = Math.max(...scores);
        const exps = scores.map((s) => Math.exp(s - max));
        const total = exps.reduce((s, e) => s + e, 0);
        for (let j = 0; j < S; j++) for (let d = 0; d < hd; d++) out[(b * S + i) * D + h * hd + d] += (exps[j] / total) * at(b, j, 2, h, d);
      }
    }
  }
  return out;
}

describe('the attention kernels on wasm', () => {
  beforeAll(async () => {
    expect((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend).toBe('wasm');
  });
  afterAll(() => setWasmFastPaths(true));

  /** The output and dqkv of sum(attention(qkv) ⊙ w), through `f`. */
  const run = (f: (qkv: tf.Tensor2D) => tf.Tensor2D, qkv: tf.Tensor2D, w: tf.Tensor2D) => {
    const out = f(qkv);
    const grad = tf.grad((x: tf.Tensor) => tf.sum(tf.mul(f(x as tf.Tensor2D), w)))(qkv);
    return [out, grad];
  };

  it('give the stock output and gradient bit for bit: the lab shapes, ragged heads, short and long sequences, a sliding window', () => {
    expect(fusedAttentionApplies()).toBe(true);
    let seed = 1;
    // [B, S, H, hd, window]: the GRPO and SFT labs' layers, then ragged ones.
    for (const [B, S, H, hd, window] of [
      [64, 21, 4, 8],
      [32, 22, 4, 8],
      [3, 5, 2, 4],
      [2, 3, 3, 5],
      [1, 1, 2, 8],
      [2, 53, 2, 6],
      [1, 48, 1, 48], // one whole 48-term block in every sum of the products
      [2, 49, 2, 8], // one more position: a second block
      [3, 12, 2, 8, 4],
      [3, 10, 2, 16], // two eight-wide tiles a head
      [2, 17, 3, 8, 5],
    ]) {
      tf.tidy(() => {
        const D = H * hd;
        const qkv = tf.tensor2d(randoms(B * S * 3 * D, seed++, 2), [B * S, 3 * D]);
        const w = tf.tensor2d(randoms(B * S * D, seed++), [B * S, D]);
        const mask = maskOf(S, window);
        const fast = run((x) => fusedSelfAttention(x, mask, B, S, H), qkv, w);
        setWasmFastPaths(false);
        const stock = run((x) => selfAttention(x, B, S, H, mask), qkv, w);
        setWasmFastPaths(true);
        const what = `B ${B}, S ${S}, H ${H}, hd ${hd}${window ? `, window ${window}` : ''}`;
        expectSameBits(fast[0], stock[0], `output, ${what}`);
        expectSameBits(fast[1], stock[1], `dqkv, ${what}`);
      });
    }
  });

  it("compute tf.softmax's bits for rows of every length 1…64, masked or not (XNNPACK's exp, sum order and scale)", () => {
    expect(fusedAttentionApplies()).toBe(true);
    let seed = 100;
    for (let S = 1; S <= 64; S++) {
      tf.tidy(() => {
        const [B, H, hd] = [2, 2, S % 2 === 0 ? 8 : 4]; // the common shapes' loops and the general ones
        const D = H * hd;
        // Wide score ranges (×8) so that rows reach the exp's cutoff, and an all-visible mask so that rows are S long.
        const qkv = tf.tensor2d(randoms(B * S * 3 * D, seed++, 8), [B * S, 3 * D]);
        for (const mask of [maskOf(S), tf.zeros([S, S]) as tf.Tensor2D]) {
          const probs = tf.engine().runKernel('ArlAttentionProbs', { qkv, mask }, { B, S, H, hd, scale: 1 / Math.sqrt(hd) }) as tf.Tensor;
          setWasmFastPaths(false);
          const [q, k] = tf.split(tf.transpose(tf.reshape(qkv, [B, S, 3 * H, hd]), [2, 0, 1, 3]), 3, 0);
          const stock = tf.softmax(tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(hd)), mask));
          setWasmFastPaths(true);
          expectSameBits(probs, stock, `probabilities, S ${S}`);
        }
      });
    }
  });

  it('are what selfAttention runs with the fast paths on, with the gradient of a float64 reference', async () => {
    const [B, S, H, hd] = [2, 6, 2, 4];
    const D = H * hd;
    const values = randoms(B * S * 3 * D, 40);
    const weights = randoms(B * S * D, 41);
    const mask = maskOf(S);
    const [qkv, w] = [tf.tensor2d(values, [B * S, 3 * D]), tf.tensor2d(weights, [B * S, D])];
    const profile = await tf.profile(() => tf.dispose(run((x) => selfAttention(x, B, S, H, mask), qkv, w)));
    for (const name of ['ArlAttentionProbs', 'ArlAttentionMix', 'ArlAttentionGrad']) expect(profile.kernelNames, name).toContain(name);
    expect(profile.kernelNames).not.toContain('Transpose'); // the stock path moves every head with Transposes
    expect(profile.kernelNames).not.toContain('Softmax'); // the first kernel computes it
    const [out, grad] = run((x) => selfAttention(x, B, S, H, mask), qkv, w);
    const maskValues = Array.from(mask.dataSync());
    const f = (x: number[]) => attention64(x, B, S, H, hd, maskValues).reduce((s, v, i) => s + v * weights[i], 0);
    const expected = values.map((_, i) => {
      const [up, down] = [values.slice(), values.slice()];
      up[i] += 1e-5;
      down[i] -= 1e-5;
      return (f(up) - f(down)) / 2e-5;
    });
    const got = grad.dataSync();
    const scale = Math.max(...expected.map(Math.abs));
    const worst = Math.max(...expected.map((e, i) => Math.abs(got[i] - e)));
    expect(worst / scale).toBeLessThan(1e-4);
    const outValues = out.dataSync();
    attention64(values, B, S, H, hd, maskValues).forEach((v, i) => expect(outValues[i]).toBeCloseTo(v, 5));
    tf.dispose([qkv, w, out, grad, mask]);
  });

  it('leave no tensors behind and free their scratch', () => {
    const [B, S, H, hd] = [4, 9, 2, 8];
    const qkv = tf.tensor2d(randoms(B * S * 3 * H * hd, 50), [B * S, 3 * H * hd]);
    const w = tf.tensor2d(randoms(B * S * H * hd, 51), [B * S, H * hd]);
    const mask = maskOf(S);
    const step = () => tf.dispose(run((x) => fusedSelfAttention(x, mask, B, S, H), qkv, w));
    step();
    const [tensors, bytes] = [tf.memory().numTensors, tf.memory().numBytes];
    const calls = heapCalls(() => {
      for (let i = 0; i < 30; i++) step();
    });
    expect(tf.memory().numTensors).toBe(tensors);
    expect(tf.memory().numBytes).toBe(bytes);
    expect(calls.sizes.length).toBeGreaterThan(30); // each step allocates its outputs and the kernels' scratch…
    expect(calls.outstanding).toBe(0); // …and frees every one of them
    tf.dispose([qkv, w, mask]);
  });

  it('stand aside when the fast paths are off or on another backend, and refuse shapes that do not fit', async () => {
    setWasmFastPaths(false);
    expect(fusedAttentionApplies()).toBe(false);
    setWasmFastPaths(true);
    await tf.setBackend('cpu');
    try {
      expect(fusedAttentionApplies()).toBe(false);
    } finally {
      await tf.setBackend('wasm');
    }
    const mask = maskOf(4);
    expect(() => fusedSelfAttention(tf.ones([8, 24]) as tf.Tensor2D, mask, 3, 4, 2)).toThrow(/is not \[12/);
    expect(() => fusedSelfAttention(tf.ones([8, 24]) as tf.Tensor2D, mask, 2, 4, 3)).toThrow(/hd/);
    expect(() => fusedSelfAttention(tf.ones([10, 24]) as tf.Tensor2D, mask, 2, 5, 2)).toThrow(/mask/);
    mask.dispose();
  });
});

it('the committed wasm is what assembly/index.ts compiles to (run `npm run build:kernel` after editing it)', async () => {
  const text: string = await compileKernel('attention');
  expect(fs.readFileSync(KERNELS.attention.output, 'utf8')).toBe(text);
});
