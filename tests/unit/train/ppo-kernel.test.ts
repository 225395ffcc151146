/**
 * PPO's fused update (lib/train/ppo-kernel): its tanh, its loss and gradient against the tfjs path's (ppoMinibatchLoss
 * under autodiff) and against central differences of a float64 reference, Adam and the clip against the formulas, the
 * weights in and out of the model's variables, GAE on arrays against gae(), bad input, and the trainer's choice of path.
 */
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileKernel } from '@/scripts/kernel/compile.mjs';
import { createActorCritic, type ActorCritic } from '@/lib/models/actor-critic';
import { setWasmFastPaths } from '@/lib/models/fast-paths';
import { createRng } from '@/lib/random';
import { gae, gaeOnArrays, maskedWhiten, whitenArray } from '@/lib/rl/ppo';
import { selectBackend } from '@/lib/tf/backend';
import { openPpoEngine, ppoKernelFits, UPDATE_STATS, type PpoUpdateSettings, type RolloutArrays } from '@/lib/train/ppo-kernel/engine';
import { PPO_KERNEL_WASM_BASE64 } from '@/lib/train/ppo-kernel/wasm';
import { createPpoTrainer, ppoMinibatchLoss } from '@/lib/train/ppo-trainer';
import fs from 'node:fs';

const settings: PpoUpdateSettings = { learning_rate: 3e-3, adam_epsilon: 1e-5, max_grad_norm: 0.5, cliprange: 0.2, cliprange_value: 0.2, vf_coef: 0.5, ent_coef: 0.01 };
const [D, A, H] = [25, 4, 32];

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});
afterAll(async () => {
  setWasmFastPaths(true);
  await tf.setBackend('cpu');
});

/** A rollout of n rows whose old log-probs and values sit near the model's own, so some ratios and values clip. */
function fakeRollout(model: ActorCritic, n: number, seed: number): RolloutArrays {
  const rng = createRng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const obs = new Float32Array(n * D);
  for (let r = 0; r < n; r++) obs[r * D + Math.floor(rng.next() * D)] = 1; // one-hot cells, as the grid world's
  const actions = Int32Array.from({ length: n }, () => Math.floor(rng.next() * A));
  const { logits, values } = tf.tidy(() => {
    const out = model.forward(tf.tensor2d(obs, [n, D]));
    return { logits: tf.logSoftmax(out.logits).dataSync(), values: out.values.dataSync() };
  });
  return {
    obs,
    actions,
    logprobs: Float32Array.from(actions, (a, r) => logits[r * A + a] + 0.3 * normal()),
    values: Float32Array.from(values, (v) => v + 0.3 * normal()),
    advantages: Float32Array.from({ length: n }, normal),
    returns: Float32Array.from(values, (v) => v + normal()),
  };
}

/** The tfjs path's loss on rows idx, its stats and its gradient by variable name (autodiff, on the active backend). */
function tfjsReference(model: ActorCritic, r: RolloutArrays, idx: Int32Array) {
  const pick = (data: Float32Array) => tf.tensor1d(Array.from(idx, (i) => data[i]));
  const batch = {
    obs: tf.tensor2d(Array.from(idx).flatMap((i) => Array.from(r.obs.subarray(i * D, (i + 1) * D))), [idx.length, D]),
    actions: tf.oneHot(tf.tensor1d(Array.from(idx, (i) => r.actions[i]), 'int32'), A).cast('float32') as tf.Tensor2D,
    logprobs: pick(r.logprobs),
    values: pick(r.values),
    advantages: pick(r.advantages),
    returns: pick(r.returns),
  };
  let stats!: Float32Array;
  const { value, grads } = tf.variableGrads(() => {
    const out = ppoMinibatchLoss(model, settings, batch);
    stats = out.stats.dataSync() as Float32Array;
    return out.loss;
  }, model.trainableVariables());
  const nameOf = new Map([...model.namedWeights()].map(([name, v]) => [v.name, name])); // tfjs's unique names → ours
  const gradients = new Map(Object.entries(grads).map(([name, g]) => [nameOf.get(name)!, g.dataSync() as Float32Array]));
  const loss = value.dataSync()[0];
  tf.dispose([value, ...Object.values(grads), ...Object.values(batch)]);
  return { loss, stats, gradients };
}

/** The same loss in float64 from plain weights (Math.tanh, exact log-softmax): the finite-difference reference. */
function float64Loss(w: Map<string, Float64Array>, r: RolloutArrays, idx: Int32Array): number {
  const c = settings.cliprange;
  const cv = settings.cliprange_value;
  const M = idx.length;
  let pg = 0, vf = 0, ent = 0;
  for (const i of idx) {
    let h: number[] = Array.from(r.obs.subarray(i * D, (i + 1) * D));
    for (const l of [0, 1]) {
      const W = w.get(`trunk.${l}.W`)!;
      const b = w.get(`trunk.${l}.b`)!;
      const width = b.length;
      h = Array.from({ length: width }, (_, j) => Math.tanh(h.reduce((s, x, k) => s + x * W[k * width + j], b[j])));
    }
    const z = Array.from({ length: A }, (_, j) => h.reduce((s, x, k) => s + x * w.get('policy.W')![k * A + j], w.get('policy.b')![j]));
    const v = h.reduce((s, x, k) => s + x * w.get('value.W')![k], w.get('value.b')![0]);
    const mx = Math.max(...z);
    const lse = mx + Math.log(z.reduce((s, x) => s + Math.exp(x - mx), 0));
    const l = z.map((x) => x - lse);
    ent += -l.reduce((s, x) => s + Math.exp(x) * x, 0);
    const ratio = Math.exp(l[r.actions[i]] - r.logprobs[i]);
    const adv = r.advantages[i];
    pg += Math.max(-adv * ratio, -adv * Math.min(Math.max(ratio, 1 - c), 1 + c));
    const vc = Math.min(Math.max(v, r.values[i] - cv), r.values[i] + cv);
    vf += Math.max((v - r.returns[i]) ** 2, (vc - r.returns[i]) ** 2);
  }
  return pg / M + settings.vf_coef * 0.5 * (vf / M) - settings.ent_coef * (ent / M);
}

const maxAbs = (a: ArrayLike<number>) => Array.from(a).reduce((m, x) => Math.max(m, Math.abs(x)), 0);
const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

describe('the PPO kernel', () => {
  it('is what its source compiles to', async () => {
    const committed = fs.readFileSync('lib/train/ppo-kernel/wasm.ts', 'utf8');
    expect(await compileKernel('ppo')).toBe(committed);
  });

  it('computes tanh within 4e-7 of the true value over the whole range, and passes NaN, ±∞ and tiny inputs', async () => {
    const { exports } = (await WebAssembly.instantiate(Uint8Array.from(atob(PPO_KERNEL_WASM_BASE64), (c) => c.charCodeAt(0)), {})).instance;
    const k = exports as unknown as { memory: WebAssembly.Memory; heapBase(): number; tanhInPlace(x: number, n: number): void };
    const n = 400_003; // not a multiple of 4: the scalar tail runs too
    const at = Math.ceil(k.heapBase() / 16) * 16;
    k.memory.grow(Math.ceil((at + n * 4) / 65536));
    const x = new Float32Array(k.memory.buffer, at, n);
    for (let i = 0; i < n - 7; i++) x[i] = -12 + (24 * i) / (n - 8);
    x.set([NaN, Infinity, -Infinity, 1e-30, -3e-4, -0, 20], n - 7);
    const input = x.slice();
    k.tanhInPlace(at, n);
    const y = new Float32Array(k.memory.buffer, at, n);
    let worst = 0;
    for (let i = 0; i < n - 7; i++) worst = Math.max(worst, Math.abs(y[i] - Math.tanh(input[i])));
    expect(worst).toBeLessThan(4e-7);
    expect(worst).toBeGreaterThan(0); // an approximation, not a copy of Math.tanh
    const tail = Array.from(y.subarray(n - 7));
    expect(tail[0]).toBeNaN();
    expect(tail.slice(1, 3)).toEqual([1, -1]);
    expect(tail[3]).toBe(Math.fround(1e-30));
    expect(tail[4]).toBe(Math.fround(-3e-4));
    expect(Object.is(tail[5], -0)).toBe(true);
    expect(tail[6]).toBe(1);
  });

  it('gives the tfjs path’s loss statistics and gradient on a minibatch where ratios and values clip', async () => {
    const model = createActorCritic({ obs_dim: D, n_actions: A, hidden_sizes: [H, H] }, 7);
    const engine = (await openPpoEngine(model, settings))!;
    const rollout = fakeRollout(model, 256, 1);
    const idx = Int32Array.from(createRng(2).shuffle(Array.from({ length: 256 }, (_, i) => i)).slice(0, 100));
    engine.pull();
    engine.loadRollout(rollout);
    const fused = engine.gradients(idx);
    const ref = tfjsReference(model, rollout, idx);
    // Both clip fractions are between 0 and 1 here, so every branch of the loss's gradient runs.
    for (const i of [4, 5]) expect(ref.stats[i]).toBeGreaterThan(0.05), expect(ref.stats[i]).toBeLessThan(0.95);
    for (let i = 0; i < 6; i++) expect(Math.abs(fused.stats[i] - ref.stats[i])).toBeLessThanOrEqual(2e-6 * Math.max(1, Math.abs(ref.stats[i])));
    for (const [name, g] of ref.gradients) {
      const mine = fused.gradients.get(name)!;
      expect(mine.length).toBe(g.length);
      expect(maxDiff(mine, g)).toBeLessThanOrEqual(1e-4 * maxAbs(g) + 1e-7);
    }
    const norm = Math.sqrt(Array.from(ref.gradients.values()).reduce((s, g) => s + g.reduce((t, x) => t + x * x, 0), 0));
    expect(fused.stats[6]).toBeCloseTo(norm, 5);
    engine.dispose();
    model.dispose();
  });

  it('matches central differences of a float64 reference of the loss', async () => {
    const model = createActorCritic({ obs_dim: D, n_actions: A, hidden_sizes: [H, H] }, 3);
    const engine = (await openPpoEngine(model, settings))!;
    const rollout = fakeRollout(model, 64, 4);
    const idx = Int32Array.from({ length: 64 }, (_, i) => i);
    engine.pull();
    engine.loadRollout(rollout);
    const { gradients } = engine.gradients(idx);
    const weights = new Map([...model.namedWeights()].map(([name, v]) => [name, Float64Array.from(v.dataSync())]));
    const rng = createRng(5);
    let checked = 0;
    for (const [name, w] of weights) {
      for (let probe = 0; probe < 6; probe++) {
        const i = Math.floor(rng.next() * w.length);
        const keep = w[i];
        const eps = 1e-5;
        w[i] = keep + eps;
        const up = float64Loss(weights, rollout, idx);
        w[i] = keep - eps;
        const down = float64Loss(weights, rollout, idx);
        w[i] = keep;
        const numeric = (up - down) / (2 * eps);
        expect(Math.abs(gradients.get(name)![i] - numeric)).toBeLessThanOrEqual(2e-3 * Math.abs(numeric) + 2e-6);
        checked++;
      }
    }
    expect(checked).toBe(8 * 6);
    engine.dispose();
    model.dispose();
  });

  it('updates with Adam on the clipped gradient, and pull/push carry the weights in and out of the model', async () => {
    const model = createActorCritic({ obs_dim: D, n_actions: A, hidden_sizes: [H, H] }, 11);
    const tight = { ...settings, max_grad_norm: 0.1 };
    const engine = (await openPpoEngine(model, tight))!;
    const rollout = fakeRollout(model, 128, 6);
    const idx = Int32Array.from({ length: 128 }, (_, i) => i);
    const before = new Map([...model.namedWeights()].map(([name, v]) => [name, Float64Array.from(v.dataSync())]));
    engine.pull();
    engine.loadRollout(rollout);
    const { gradients, stats } = engine.gradients(idx);
    const out = engine.update(idx);
    expect(out[6]).toBeCloseTo(stats[6], 6);
    expect(out[6]).toBeGreaterThan(tight.max_grad_norm); // so the clip acts
    engine.push();
    // Adam's first step from zero moments: m̂ = g, v̂ = g², so x' = x − lr · g / (|g| + ε) with g the clipped gradient.
    const scale = tight.max_grad_norm / (out[6] + 1e-6);
    for (const [name, v] of model.namedWeights()) {
      const now = v.dataSync();
      const g = gradients.get(name)!;
      before.get(name)!.forEach((x, i) => {
        const gi = g[i] * scale;
        expect(Math.abs(now[i] - (x - (settings.learning_rate * gi) / (Math.abs(gi) + settings.adam_epsilon)))).toBeLessThan(2e-6);
      });
    }
    // A weight changed outside the engine is what the next pull reads.
    const bias = model.namedWeights().get('value.b')!;
    bias.assign(tf.tensor1d([5]));
    engine.pull();
    const { values } = await engine.policyAndValue(rollout.obs.slice(0, D), 1);
    const expected = tf.tidy(() => model.forward(tf.tensor2d(rollout.obs.slice(0, D), [1, D])).values.dataSync()[0]);
    expect(values[0]).toBeCloseTo(expected, 5);
    engine.dispose();
    model.dispose();
  });

  it('gives the tfjs forward pass’s log-probabilities and values, for any number of rows', async () => {
    const model = createActorCritic({ obs_dim: D, n_actions: A, hidden_sizes: [H, H] }, 13);
    const engine = (await openPpoEngine(model, settings))!;
    engine.pull();
    for (const rows of [1, 3, 16, 517]) {
      const obs = Float32Array.from({ length: rows * D }, (_, i) => Math.sin(i * 0.37));
      const mine = await engine.policyAndValue(obs, rows);
      const ref = tf.tidy(() => {
        const out = model.forward(tf.tensor2d(obs, [rows, D]));
        return { logp: tf.logSoftmax(out.logits).dataSync(), values: out.values.dataSync() };
      });
      expect(maxDiff(mine.logp, ref.logp)).toBeLessThan(2e-6);
      expect(maxDiff(mine.values, ref.values)).toBeLessThan(2e-6);
    }
    engine.dispose();
    model.dispose();
  });

  it('refuses bad input with a clear error, and models it does not fit', async () => {
    const model = createActorCritic({ obs_dim: D, n_actions: A, hidden_sizes: [H, H] }, 1);
    const engine = (await openPpoEngine(model, settings))!;
    engine.pull();
    const rollout = fakeRollout(model, 8, 1);
    expect(() => engine.update(Int32Array.of(0))).toThrow(/no rollout loaded/);
    expect(() => engine.loadRollout({ ...rollout, returns: rollout.returns.subarray(1) })).toThrow(/returns has 7 entries, want 8/);
    expect(() => engine.loadRollout({ ...rollout, actions: Int32Array.of(0, 1, 2, 3, 4, 0, 0, 0) })).toThrow(/action 4 is outside 0…3/);
    engine.loadRollout(rollout);
    expect(() => engine.update(Int32Array.of(0, 8))).toThrow(/row 8 is outside the rollout's 8/);
    await expect(engine.policyAndValue(new Float32Array(D + 1), 1)).rejects.toThrow(/26 floats of observations for 1 rows of 25/);
    engine.dispose();
    expect(() => engine.pull()).toThrow(/after dispose/);
    const narrow = createActorCritic({ obs_dim: D, n_actions: A, hidden_sizes: [20, 20] }, 1);
    expect(ppoKernelFits(narrow)).toBe(false);
    expect(await openPpoEngine(narrow, settings)).toBeNull();
    narrow.dispose();
    model.dispose();
  });
});

describe('GAE on arrays', () => {
  it('gives gae()’s advantages and returns with episode starts and bootstraps, and whitens as maskedWhiten', () => {
    const [B, T] = [5, 12];
    const rng = createRng(9);
    const rewards = Float32Array.from({ length: B * T }, () => rng.next() - 0.3);
    const values = Float32Array.from({ length: B * T }, () => rng.next());
    const dones = Float32Array.from({ length: B * T }, () => (rng.next() < 0.2 ? 1 : 0));
    const nextValue = Float32Array.from({ length: B }, () => rng.next());
    const nextDone = Float32Array.from({ length: B }, () => (rng.next() < 0.5 ? 1 : 0));
    const mine = gaeOnArrays({ rewards, values, dones, nextValue, nextDone, gamma: 0.99, lam: 0.95 });
    const ref = tf.tidy(() => {
      const out = gae({
        rewards: tf.tensor2d(rewards, [B, T]),
        values: tf.tensor2d(values, [B, T]),
        dones: tf.tensor2d(dones, [B, T]),
        nextValue: tf.tensor1d(nextValue),
        nextDone: tf.tensor1d(nextDone),
        gamma: 0.99,
        lam: 0.95,
      });
      return { advantages: out.advantages.dataSync(), returns: out.returns.dataSync(), whitened: maskedWhiten(out.advantages, tf.onesLike(out.advantages)).dataSync() };
    });
    expect(maxDiff(mine.advantages, ref.advantages)).toBeLessThan(1e-5);
    expect(maxDiff(mine.returns, ref.returns)).toBeLessThan(1e-5);
    expect(maxDiff(whitenArray(mine.advantages), ref.whitened)).toBeLessThan(1e-5);
    expect(() => gaeOnArrays({ rewards, values, dones, nextValue, nextDone: nextDone.subarray(1), gamma: 0.99, lam: 0.95 })).toThrow(/nextDone/);
    expect(() => gaeOnArrays({ rewards, values, dones, nextValue, nextDone, gamma: 1.5, lam: 0.95 })).toThrow(/gamma and lam/);
  });
});

describe('the PPO trainer’s path', () => {
  it('runs the fused kernel on wasm, tfjs with the fast paths off, and the two agree on the first step', async () => {
    const fusedTrainer = createPpoTrainer({ seed: 0 });
    expect(fusedTrainer.fused).toBeUndefined();
    const fused = await fusedTrainer.trainStep();
    expect(fusedTrainer.fused).toBe(true);
    setWasmFastPaths(false);
    const tfjsTrainer = createPpoTrainer({ seed: 0 });
    const stock = await tfjsTrainer.trainStep();
    setWasmFastPaths(true);
    expect(tfjsTrainer.fused).toBe(false);
    // The same rollout (the same draws from nearly the same probabilities), then the same sixteen updates' statistics.
    expect(fusedTrainer.lastRollout!.actions).toEqual(tfjsTrainer.lastRollout!.actions);
    for (const name of [...UPDATE_STATS, 'episode/return_mean']) {
      expect(Math.abs(fused[name] - stock[name])).toBeLessThanOrEqual(1e-3 * Math.max(1e-2, Math.abs(stock[name])));
    }
    // The weights after the step, through the model's variables.
    for (const [name, v] of fusedTrainer.model.namedWeights()) {
      expect(maxDiff(v.dataSync(), tfjsTrainer.model.namedWeights().get(name)!.dataSync())).toBeLessThan(1e-4);
    }
    fusedTrainer.dispose();
    tfjsTrainer.dispose();
  });

  it('is deterministic given the seed, and keeps tfjs where the kernel does not fit the model', async () => {
    const run = async () => {
      const trainer = createPpoTrainer({ seed: 4 });
      const out = [];
      for (let i = 0; i < 3; i++) {
        const { ...m } = await trainer.trainStep();
        for (const k of Object.keys(m)) if (k.startsWith('timing/')) delete m[k];
        out.push(m);
      }
      trainer.dispose();
      return out;
    };
    expect(await run()).toEqual(await run());
    const narrow = createPpoTrainer({ hidden_size: 20 });
    await narrow.trainStep();
    expect(narrow.fused).toBe(false);
    narrow.dispose();
  });
});
