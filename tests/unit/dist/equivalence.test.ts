/**
 * Sharded training equals unsharded training on the tiny LM, within float32 rounding, on tfjs's cpu backend;
 * and the demonstrations leave no tensors behind.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { dataParallelDemo, runDemo, tensorParallelDemo, zeroDemo } from '@/lib/dist/equivalence';

const FLOAT32 = 1e-5; // the chapter's bar; float32 rounding of these sums is ~1e-7

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('data parallelism', () => {
  it('averages K workers’ gradients into the whole batch’s gradient when each scales its loss by K·n_k/N', async () => {
    const r = await dataParallelDemo({ workers: 4, batchSize: 16 });
    expect(r.tokensPerWorker).toHaveLength(4);
    expect(r.maxAbsGradient).toBeGreaterThan(1e-3); // a real gradient, not zeros
    expect(r.maxAbsDiff).toBeLessThan(FLOAT32);
    // Unequal shards (completions differ in length) make the per-shard token mean a different gradient.
    expect(new Set(r.tokensPerWorker).size).toBeGreaterThan(1);
    expect(r.perShardMeanMaxAbsDiff).toBeGreaterThan(100 * r.maxAbsDiff);
    expect(r.perShardMeanMaxAbsDiff).toBeGreaterThan(1e-5);
  });
});

describe('tensor parallelism', () => {
  it('splits the MLP by columns then rows over two devices and gets the unsplit output back after one sum', async () => {
    const r = await tensorParallelDemo({ batchSize: 8 });
    expect(r.dFF).toBe(4 * r.dModel);
    expect(r.maxAbsOutput).toBeGreaterThan(0.1);
    expect(r.maxAbsDiff).toBeLessThan(FLOAT32);
    expect(r.rowFirstMaxAbsDiff).toBeGreaterThan(1e-3); // ReLU of a partial sum is not part of the ReLU
  });
});

describe('ZeRO', () => {
  it('gives the same parameters after sharded Adam steps as after unsharded ones', async () => {
    const r = await zeroDemo({ workers: 4, batchSize: 8, steps: 2 });
    expect(r.shardSize).toBe(Math.ceil(r.params / 4));
    expect(r.perStep).toHaveLength(2);
    expect(r.maxAbsUpdate).toBeGreaterThan(1e-3); // the weights did move
    // Without clipping the sharded steps do exactly the unsharded arithmetic: bit for bit equal.
    expect(r.maxAbsDiff).toBe(0);
    // With clipping the global norm is summed shard by shard: the first step agrees to float32 rounding.
    expect(r.clipped.maxGradNorm).toBe(1);
    expect(r.clipped.perStep).toHaveLength(2);
    expect(r.clipped.perStep[0]).toBeLessThan(1e-6);
    expect(Math.max(...r.clipped.perStep)).toBeLessThan(FLOAT32);
  });
});

describe('runDemo', () => {
  it('reports no leaked tensors for any demonstration', async () => {
    for (const name of ['dp', 'tp', 'zero'] as const) {
      const before = tf.memory().numTensors;
      const { leakedTensors, result } = await runDemo(name, { batchSize: 8, steps: 1 });
      expect(result.name).toBe(name);
      expect(leakedTensors).toBe(0);
      expect(tf.memory().numTensors).toBe(before);
    }
  });

  it('refuses bad options with a clear message', async () => {
    await expect(runDemo('dp', { workers: 3, batchSize: 8 })).rejects.toThrow(/multiple of workers/);
    await expect(runDemo('zero', { steps: 0 })).rejects.toThrow(/steps must be a whole number/);
    await expect(runDemo('nope' as 'dp')).rejects.toThrow(/unknown demonstration/);
  });
});
