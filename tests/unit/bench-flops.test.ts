/**
 * The benchmark's FLOP count (scripts/bench/flops.ts) on small models, against numbers worked out by hand from their
 * shapes, and the matmul rate it measures.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createActorCritic } from '@/lib/models/actor-critic';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createVisionLM } from '@/lib/models/vision-lm';
import { selectBackend } from '@/lib/tf/backend';
import { teamModels } from '@/lib/train/team-trainer';
import { countKernels, kernelCallCost, matmulParamsPerToken, matmulRate, stepFlops } from '../../scripts/bench/flops';

beforeAll(async () => {
  await selectBackend({ requested: 'cpu', order: ['cpu'] });
});

const LM = { vocab_size: 7, context_length: 10, d_model: 8, n_layers: 2, n_heads: 2 }; // d_ff = 4 · 8 = 32

describe('weights a token is multiplied by', () => {
  it('counts every weight matrix, not embeddings, gains or biases (by hand)', () => {
    const lm = createTinyLM(LM, 0);
    // Per layer: qkv 8·24 = 192, out 8·8 = 64, fc1 8·32 = 256, fc2 32·8 = 256 → 768; two layers 1,536; head 8·7 = 56.
    expect(matmulParamsPerToken(lm)).toBe(1592);
    const withValue = createTinyLM({ ...LM, value_head: true }, 0);
    expect(matmulParamsPerToken(withValue)).toBe(1592 + 8); // value head 8·1
    // The image encoder's projection: 2·2·3 = 12 pixel values per patch → 8, 96 more.
    const vision = createVisionLM({ lm: LM, encoder: { patch_size: 2, num_channels: 3, patch_grid: 2, d_model: 8 } }, 0);
    expect(matmulParamsPerToken(vision)).toBe(1592 + 96);
    // Actor-critic 4 → 16 → 16 → 3 actions, value 16 → 1: 64 + 256 + 48 + 16 = 384.
    const ac = createActorCritic({ obs_dim: 4, n_actions: 3, hidden_sizes: [16, 16] }, 0);
    expect(matmulParamsPerToken(ac)).toBe(384);
    // A team: a token goes through one of the two models, so their mean: (1592 + 1600) / 2.
    const team = teamModels(createTinyLM(LM, 1), createTinyLM({ ...LM, value_head: true }, 2));
    expect(matmulParamsPerToken(team)).toBe(1596);
    [lm, withValue, vision, ac, team].forEach((m) => m.dispose());
  });
});

describe('a step’s FLOPs', () => {
  it('adds the timed phases as forward passes of 2·N·T (by hand)', () => {
    // N = 1592 weights, T = 100 tokens: one forward pass is 2 · 1592 · 100 = 318,400 FLOPs.
    const f = stepFlops({ paramsPerToken: 1592, tokensPerStep: 100, phases: ['generation', 'reference', 'forward_backward', 'optimizer'], rows: 4, meanCompletionLength: 5 });
    expect(f.byPhase).toEqual({ generation: 318_400, reference: 318_400, forward_backward: 955_200 }); // forward+backward: 3 passes
    expect(f.total).toBe(1_592_000);
    // Re-run: 4 rows of 100 / 4 − 5 = 20 prompt tokens; the forward over 20, 21, …, 24 positions: 5·20 + (0+1+2+3+4) = 110
    // positions a row, 440 in all: 2 · 1592 · 440 = 1,400,960.
    expect(f.generationRerun).toBe(1_400_960);
  });

  it('trains PPO’s rollout num_ppo_epochs times and leaves uncounted phases out', () => {
    // Actor-critic N = 384, 512 environment steps: a pass 2 · 384 · 512 = 393,216; 4 epochs of 3 passes: 4,718,592.
    const f = stepFlops({ paramsPerToken: 384, tokensPerStep: 512, phases: ['rollout', 'forward_backward', 'optimizer'], epochs: 4 });
    expect(f.byPhase).toEqual({ rollout: 393_216, forward_backward: 4_718_592 });
    expect(f.total).toBe(5_111_808);
    expect(f.generationRerun).toBeNull();
    expect(() => stepFlops({ paramsPerToken: 1, tokensPerStep: Number.NaN, phases: [] })).toThrow(/tokens per step \(NaN\)/);
  });
});

describe('the matmul rate', () => {
  it('times n × n products on the current backend', async () => {
    const before = tf.memory().numTensors;
    const rate = await matmulRate(32, 3);
    expect(rate.n).toBe(32);
    expect(rate.gflops).toBeGreaterThan(0);
    expect(Number.isFinite(rate.gflops)).toBe(true);
    expect(rate.gflops).toBeGreaterThanOrEqual(rate.medianGflops); // the best repeat is the rate
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('the dispatch floor', () => {
  it('counts the kernels a step dispatches, not the ops and gradient scopes around them', async () => {
    const [a, b] = [tf.tensor1d([1, 2, 3]), tf.tensor1d([4, 5, 6])];
    // mul, add: two kernels.
    expect(await countKernels(() => tf.dispose(tf.add(tf.mul(a, b), a)))).toBe(2);
    // The gradient of sum(a·b) w.r.t. a: forward Multiply and Sum, then the backward's kernels; the tape's scopes
    // ('grad', the ops' own names) are profiled too but are not kernels.
    const kernels = await countKernels(() => tf.dispose(tf.grad((x: tf.Tensor) => tf.sum(tf.mul(x, b)))(a)));
    const info = await tf.profile(() => tf.dispose(tf.grad((x: tf.Tensor) => tf.sum(tf.mul(x, b)))(a)));
    expect(info.kernels.length).toBeGreaterThanOrEqual(kernels);
    expect(info.kernels.map((k) => k.name)).toEqual(expect.arrayContaining(['Multiply', 'Sum']));
    expect(kernels).toBe(info.kernels.filter((k) => tf.getKernel(k.name, 'cpu') != null).length);
    expect(kernels).toBeGreaterThanOrEqual(3);
    tf.dispose([a, b]);
  });

  it('times a near-empty kernel call, and leaves no tensor behind', async () => {
    const before = tf.memory().numTensors;
    const cost = await kernelCallCost(200, 2);
    expect(cost.calls).toBe(200);
    expect(cost.usPerKernel).toBeGreaterThan(0);
    expect(cost.usPerKernel).toBeLessThan(10_000); // 10 ms per one-element add would be a broken measurement
    expect(tf.memory().numTensors).toBe(before);
  });
});
