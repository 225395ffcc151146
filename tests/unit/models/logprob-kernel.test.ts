/**
 * The per-token log-prob kernels (lib/models/logprob-kernel) against lib/rl/logprobs.ts's stock tfjs path, bit for bit:
 * log-probs, entropies and the gradient into the logits, with and without a temperature, on the labs' shapes and on
 * rows with huge, infinite and NaN logits; that they really run, leave nothing behind, and refuse a gradient through
 * the entropy; and that no kernel on tfjs-wasm's heap carries a data segment (it would overwrite tfjs-wasm's own data).
 */
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileKernel, KERNELS } from '@/scripts/kernel/compile.mjs';
import { setWasmFastPaths } from '@/lib/models/fast-paths';
import { fusedEntropy, fusedLogSoftmax, logprobKernelApplies } from '@/lib/models/logprob-kernel/logprobs';
import { createRng } from '@/lib/random';
import { completionLogprobs, completionLogprobsAndEntropy, tokenEntropy } from '@/lib/rl/logprobs';
import { selectBackend } from '@/lib/tf/backend';

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});
afterAll(async () => {
  setWasmFastPaths(true);
  await tf.setBackend('cpu');
});

/** Logits [B, T, V] of scale 3, with, when `extremes`, rows holding ±80, ±∞ and NaN; targets with some out of range. */
function data(B: number, T: number, V: number, seed: number, extremes: boolean) {
  const rng = createRng(seed);
  const logits = Float32Array.from({ length: B * T * V }, () => 3 * (rng.next() + rng.next() + rng.next() - 1.5));
  if (extremes) {
    const row = (r: number, values: number[]) => values.forEach((v, j) => (logits[r * V + j] = v));
    row(0, [80, -80, 79.5]);
    row(1, [Infinity, 1, 2]);
    row(2, [-Infinity, 0.5, -0.5]);
    row(3, [NaN, 1, 2]);
    row(4, [1, NaN, 0]);
    row(5, [-0, 0, -0]);
  }
  const targets = Int32Array.from({ length: B * T }, (_, i) => (i % 11 === 7 ? (i % 2 ? -1 : V) : Math.floor(rng.next() * V)));
  const weights = Float32Array.from({ length: B * T }, () => rng.next() - 0.3);
  return { logits: tf.tensor3d(logits, [B, T, V]), targets: tf.tensor2d(targets, [B, T], 'int32'), weights: tf.tensor2d(weights, [B, T]) };
}

/** Log-probs, entropies and d(Σ w·logps)/d logits, each as plain arrays. */
function run(d: ReturnType<typeof data>, temperature: number) {
  return tf.tidy(() => {
    const { logps, entropy } = completionLogprobsAndEntropy(d.logits, d.targets, temperature);
    const alone = completionLogprobs(d.logits, d.targets, temperature);
    const grad = tf.grad((x: tf.Tensor) => tf.sum(tf.mul(completionLogprobs(x as tf.Tensor3D, d.targets, temperature), d.weights)))(d.logits);
    return { logps: logps.dataSync(), entropy: entropy.dataSync(), alone: alone.dataSync(), entropyAlone: tokenEntropy(d.logits, temperature).dataSync(), grad: grad.dataSync() };
  });
}

/** Every element the same float (NaN equal to NaN: WebAssembly leaves a NaN's sign unspecified). */
function expectSameBits(a: ArrayLike<number>, b: ArrayLike<number>, what: string) {
  expect(a.length, what).toBe(b.length);
  const differ = Array.from(a).flatMap((x, i) => (Object.is(x, b[i]) || (Number.isNaN(x) && Number.isNaN(b[i])) ? [] : [i]));
  expect(differ.slice(0, 5).map((i) => `${what}[${i}]: ${a[i]} vs ${b[i]}`)).toEqual([]);
}

describe('the log-prob kernels', () => {
  it('are what their source compiles to, and no heap kernel carries a data segment', async () => {
    expect(await compileKernel('logprob')).toBe(fs.readFileSync('lib/models/logprob-kernel/wasm.ts', 'utf8'));
    for (const [name, kernel] of Object.entries(KERNELS)) {
      if (!kernel.flags?.includes('--importMemory')) continue; // a module with its own memory may have static data
      const text = fs.readFileSync(kernel.output, 'utf8');
      const bytes = Buffer.from([...text.matchAll(/'([A-Za-z0-9+/=]+)'/g)].map((m) => m[1]).join(''), 'base64');
      const sections: number[] = [];
      for (let at = 8; at < bytes.length; ) {
        sections.push(bytes[at]);
        let size = 0;
        let shift = 0;
        let b: number;
        at++;
        do {
          b = bytes[at++];
          size |= (b & 127) << shift;
          shift += 7;
        } while (b & 128);
        at += size;
      }
      expect(sections, name).toContain(10); // the code section: the walk read the module
      expect(sections, name).not.toContain(11); // no data section
    }
  });

  for (const [B, T, V, temperature, extremes] of [
    [64, 21, 14, 1, false], // the GRPO lab's shape
    [3, 5, 7, 1, true],
    [3, 5, 7, 0.7, true],
    [8, 9, 2, 1, false], // the smallest vocabulary tf.oneHot takes
    [2, 33, 61, 1.3, false],
  ] as const) {
    it(`give the stock numbers bit for bit: [${B}, ${T}, ${V}], temperature ${temperature}${extremes ? ', ±80, ±∞, NaN and signed zeros' : ''}`, () => {
      const d = data(B, T, V, B * T + V, extremes);
      setWasmFastPaths(false);
      const stock = run(d, temperature);
      setWasmFastPaths(true);
      expect(logprobKernelApplies()).toBe(true);
      const before = tf.memory().numTensors;
      const fused = run(d, temperature);
      expect(tf.memory().numTensors).toBe(before);
      for (const key of ['logps', 'entropy', 'alone', 'entropyAlone', 'grad'] as const) expectSameBits(fused[key], stock[key], key);
      if (extremes) expect(stock.logps.some(Number.isNaN)).toBe(true); // the odd rows reached the comparison
      tf.dispose(Object.values(d));
    });
  }

  it('run in place of the stock kernels, and refuse a gradient through the entropy', async () => {
    const d = data(4, 6, 9, 1, false);
    const profile = await tf.profile(() => tf.dispose(run(d, 1) as unknown as tf.Tensor[]));
    for (const name of ['ArlLogSoftmax', 'ArlLogSoftmaxGrad', 'ArlPickTargets', 'ArlPickTargetsGrad', 'ArlEntropy']) expect(profile.kernelNames, name).toContain(name);
    expect(profile.kernelNames).not.toContain('Exp');
    expect(profile.kernelNames).not.toContain('OneHot');
    const flat = tf.reshape(d.logits, [24, 9]) as tf.Tensor2D;
    expect(() => tf.grad((x: tf.Tensor) => tf.sum(fusedEntropy(fusedLogSoftmax(x as tf.Tensor2D, 1))))(flat)).toThrow(/ArlEntropy/);
    tf.dispose([flat, ...Object.values(d)]);
  });
});
