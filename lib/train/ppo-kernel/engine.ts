/**
 * PPO's update for the small actor-critic in one WebAssembly module with a memory of its own (assembly/index.ts): the
 * weights, Adam's moments and the rollout live there, and a minibatch update is some twenty calls into the module
 * (the trunk's products and tanh, the loss with its gradient, the backward products, clipping and Adam) instead of ~380
 * tfjs kernels. The model's tf.Variables stay the weights of record: pull() reads them in before a step, push() writes
 * the step's result back, so checkpoints, evaluation and the policy map keep working through tfjs.
 *
 * Layout: each trunk layer's W [in, H] and b [H] as they are (H a multiple of 8: the dense tiles' whole rows), then the
 * two heads as one [H_last, P] matrix, P = the actions and the value rounded up to 8 (policy.W in columns 0…A−1,
 * value.W in column A, zeros beyond), and its bias [P]. The gradient, Adam's m and v mirror that block.
 */
import * as tf from '@tensorflow/tfjs';
import type { ActorCritic } from '@/lib/models/actor-critic';
import { ceil8 } from '@/lib/models/dense-kernel/kernel';
import type { PolicyAndValue } from '../ppo-rollout';
import type { StepTimer } from '../optim';
import { PPO_KERNEL_WASM_BASE64 } from './wasm';

interface KernelExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  forward(a: number, aStride: number, b: number, bStride: number, bias: number, out: number, rows: number, k: number, outCols: number, relu: number): void;
  product(a: number, aStride: number, b: number, bStride: number, out: number, rows: number, k: number, outCols: number): void;
  productTransposedA(a: number, aStride: number, b: number, bStride: number, out: number, len: number, m: number, outCols: number): void;
  transposePadded(w: number, wt: number, rows: number, cols: number, stride: number): void;
  columnSums(a: number, stride: number, out: number, rows: number, cols: number): void;
  prepareDz(dy: number, y: number, dzOut: number, n: number, cols: number, stride: number, relu: number): void;
  sumOfSquares(g: number, n: number): number;
  adamUpdate(
    g: number, m: number, v: number, x: number, mOut: number, vOut: number, xOut: number, n: number,
    scale: number, beta1: number, beta2: number, oneMinusBeta1: number, oneMinusBeta2: number, correction1: number, correction2: number, epsilon: number, step: number,
  ): void;
  tanhInPlace(x: number, n: number): void;
  tanhBackward(dy: number, y: number, n: number): void;
  gatherRows(from: number, width: number, idx: number, count: number, to: number): void;
  policyOutputs(out: number, stride: number, A: number, rows: number, logp: number, values: number): void;
  ppoLoss(
    out: number, stride: number, A: number, rows: number, idx: number,
    actions: number, oldLogp: number, advantages: number, oldValues: number, returns: number,
    clip: number, clipValue: number, vfCoef: number, entCoef: number, dOut: number, stats: number,
  ): void;
}

/** The PPO hyperparameters the update reads (ppo-config.ts's names). */
export interface PpoUpdateSettings {
  learning_rate: number;
  /** Adam's ε (CleanRL's 1e-5 for PPO). */
  adam_epsilon: number;
  max_grad_norm: number;
  cliprange: number;
  cliprange_value: number;
  vf_coef: number;
  ent_coef: number;
}

/** A rollout as the update reads it, flattened env-major: N·T rows. */
export interface RolloutArrays {
  obs: Float32Array;
  actions: Int32Array;
  logprobs: Float32Array;
  values: Float32Array;
  advantages: Float32Array;
  returns: Float32Array;
}

/** The statistics of one minibatch update, in the order the trainer logs them; gradNorm is the norm before clipping. */
export const UPDATE_STATS = ['loss/policy_avg', 'loss/value_avg', 'policy/entropy_avg', 'policy/approxkl_avg', 'policy/clipfrac_avg', 'val/clipfrac_avg', 'grad_norm'] as const;

export interface PpoEngine {
  /** Reads the model's variables into the kernel (before a step: they may have been changed or reloaded since). */
  pull(): void;
  /** Writes the kernel's weights back into the model's variables. */
  push(): void;
  /** log π(· | s) and V(s) for a batch of observations, with the weights last pulled or updated. */
  policyAndValue: PolicyAndValue;
  /** Copies a rollout in; update() then reads its rows. */
  loadRollout(rollout: RolloutArrays): void;
  /** One clipped update (forward, loss, backward, clipping, Adam) on rows idx of the rollout; the stats of UPDATE_STATS. */
  update(idx: Int32Array, timer?: StepTimer): Float32Array;
  /** The loss's statistics and gradient by variable name, without updating (what update() would apply before clipping). */
  gradients(idx: Int32Array): { stats: Float32Array; gradients: Map<string, Float32Array> };
  dispose(): void;
}

let compiled: Promise<WebAssembly.Module | null> | null = null;

/** The compiled module, or null where WebAssembly or its SIMD is missing. Compiled once, asynchronously (it is ~9 KB). */
function compileKernel(): Promise<WebAssembly.Module | null> {
  compiled ??= (async () => {
    if (typeof WebAssembly === 'undefined') return null;
    try {
      return await WebAssembly.compile(Uint8Array.from(atob(PPO_KERNEL_WASM_BASE64), (c) => c.charCodeAt(0)));
    } catch {
      return null; // no SIMD: a validation error
    }
  })();
  return compiled;
}

/** Whether the kernel takes this model: every hidden width a whole number of the tiles' 8-float rows. */
export function ppoKernelFits(model: ActorCritic): boolean {
  return model.config.hidden_sizes.every((h) => h % 8 === 0);
}

/** A bump allocator over the module's memory: byte offsets, 16-byte aligned, growing the memory as needed. */
function arena(k: KernelExports, from: number) {
  let end = Math.ceil(from / 16) * 16;
  return {
    floats(n: number): number {
      const at = end;
      end += Math.ceil((n * 4) / 16) * 16;
      const have = k.memory.buffer.byteLength;
      if (end > have) k.memory.grow(Math.ceil((end - have) / 65536));
      return at;
    },
    get end() {
      return end;
    },
  };
}

/** Opens the engine for `model`, or null where the kernel cannot run (no SIMD) or does not take the model's shape. */
export async function openPpoEngine(model: ActorCritic, settings: PpoUpdateSettings): Promise<PpoEngine | null> {
  if (!ppoKernelFits(model)) return null;
  const module = await compileKernel();
  if (!module) return null;
  const k = (await WebAssembly.instantiate(module, {})).exports as unknown as KernelExports;
  const { obs_dim: D, n_actions: A, hidden_sizes: hidden, activation } = model.config;
  const relu = activation === 'relu' ? 1 : 0;
  const P = ceil8(A + 1);
  const L = hidden.length;
  const inDims = [D, ...hidden.slice(0, -1)];
  const last = hidden[L - 1];
  const named = model.namedWeights();
  const variable = (name: string) => {
    const v = named.get(name);
    if (!v) throw new Error(`the actor-critic has no variable ${name}`);
    return v;
  };

  // The parameter block (and its mirrors): trunk W, b per layer, then the merged head's W and b.
  const sizes = [...hidden.flatMap((h, i) => [inDims[i] * h, h]), last * P, P];
  const offsets: number[] = [];
  const total = sizes.reduce((s, n) => (offsets.push(s), s + n), 0);
  const heap = arena(k, k.heapBase());
  const params = heap.floats(total);
  const grads = heap.floats(total);
  const m = heap.floats(total);
  const v = heap.floats(total);
  new Float32Array(k.memory.buffer, m, total).fill(0);
  new Float32Array(k.memory.buffer, v, total).fill(0);
  const paramAt = (i: number) => params + offsets[i] * 4;
  const gradAt = (i: number) => grads + offsets[i] * 4;
  const W = (l: number) => paramAt(2 * l); // l = L is the head
  const b = (l: number) => paramAt(2 * l + 1);
  // Transposed weights for the backward products (layer l's Wᵀ: [its width, its input], the head's [P, last]).
  const transposed = [...hidden.map((h, i) => (i === 0 ? 0 : heap.floats(h * inDims[i]))), heap.floats(P * last)];
  const stats = heap.floats(8);
  const fixedEnd = heap.end;

  // Rollout and per-row work buffers, laid out again when a call needs more rows than they hold.
  let rolloutRows = -1;
  let rollout = { obs: 0, actions: 0, logprobs: 0, values: 0, advantages: 0, returns: 0 };
  let capacity = -1;
  let work = { x: 0, idx: 0, acts: [] as number[], dActs: [] as number[], out: 0, dOut: 0, logp: 0, values: 0 };
  const layOut = (rows: number, nRollout: number) => {
    const a = arena(k, fixedEnd);
    rollout = { obs: a.floats(nRollout * D), actions: a.floats(nRollout), logprobs: a.floats(nRollout), values: a.floats(nRollout), advantages: a.floats(nRollout), returns: a.floats(nRollout) };
    work = {
      x: a.floats(rows * D),
      idx: a.floats(rows),
      acts: hidden.map((h) => a.floats(rows * h)),
      dActs: hidden.map((h) => a.floats(rows * h)),
      out: a.floats(rows * P),
      dOut: a.floats(rows * P),
      logp: a.floats(rows * A),
      values: a.floats(rows),
    };
    capacity = rows;
  };
  const f32 = (at: number, n: number) => new Float32Array(k.memory.buffer, at, n);
  const ensureRows = (rows: number) => {
    if (rows <= capacity) return;
    const saved = rolloutRows > 0 ? snapshotRollout() : null; // laying out again moves the rollout
    layOut(Math.max(rows, capacity * 2), Math.max(rolloutRows, 0));
    if (saved) restoreRollout(saved);
  };
  const snapshotRollout = () => Object.fromEntries(Object.entries(rollout).map(([key, at]) => [key, f32(at, rolloutRows).slice()]));
  const restoreRollout = (saved: Record<string, Float32Array>) => Object.entries(saved).forEach(([key, data]) => f32(rollout[key as keyof typeof rollout], rolloutRows).set(data));

  /** The trunk and heads on `rows` rows of work.x: work.acts[l] (after the activation) and work.out [rows, P]. */
  const forward = (rows: number) => {
    let input = work.x;
    let width = D;
    for (let l = 0; l < L; l++) {
      k.forward(input, width, W(l), hidden[l], b(l), work.acts[l], rows, width, hidden[l], relu);
      if (!relu) k.tanhInPlace(work.acts[l], rows * hidden[l]);
      input = work.acts[l];
      width = hidden[l];
    }
    k.forward(input, width, W(L), P, b(L), work.out, rows, width, P, 0);
  };

  /** The gradient block from work.dOut, back through the heads and the trunk. */
  const backward = (rows: number) => {
    k.productTransposedA(work.acts[L - 1], last, work.dOut, P, gradAt(2 * L), rows, last, P);
    k.columnSums(work.dOut, P, gradAt(2 * L + 1), rows, P);
    k.transposePadded(W(L), transposed[L], last, P, last);
    k.product(work.dOut, P, transposed[L], last, work.dActs[L - 1], rows, A + 1, last);
    for (let l = L - 1; l >= 0; l--) {
      const h = hidden[l];
      const dz = work.dActs[l];
      if (relu) k.prepareDz(dz, work.acts[l], dz, rows, h, h, 1);
      else k.tanhBackward(dz, work.acts[l], rows * h);
      const input = l === 0 ? work.x : work.acts[l - 1];
      k.productTransposedA(input, inDims[l], dz, h, gradAt(2 * l), rows, inDims[l], h);
      k.columnSums(dz, h, gradAt(2 * l + 1), rows, h);
      if (l > 0) {
        k.transposePadded(W(l), transposed[l], inDims[l], h, inDims[l]);
        k.product(dz, h, transposed[l], inDims[l], work.dActs[l - 1], rows, h, inDims[l]);
      }
    }
  };

  const lossAndGradients = (idx: Int32Array) => {
    if (rolloutRows < 0) throw new Error('PPO engine: no rollout loaded');
    const rows = idx.length;
    for (const i of idx) if (!(i >= 0 && i < rolloutRows)) throw new Error(`PPO engine: row ${i} is outside the rollout's ${rolloutRows}`);
    ensureRows(rows);
    new Int32Array(k.memory.buffer, work.idx, rows).set(idx);
    k.gatherRows(rollout.obs, D, work.idx, rows, work.x);
    forward(rows);
    const s = settings;
    k.ppoLoss(work.out, P, A, rows, work.idx, rollout.actions, rollout.logprobs, rollout.advantages, rollout.values, rollout.returns, s.cliprange, s.cliprange_value, s.vf_coef, s.ent_coef, work.dOut, stats);
    backward(rows);
  };

  /** A block in the kernel's layout (the parameters or the gradient) as each variable's own data, by name. */
  const byVariable = (block: Float32Array): Map<string, Float32Array> => {
    const out = new Map<string, Float32Array>();
    hidden.forEach((h, l) => {
      out.set(`trunk.${l}.W`, block.slice(offsets[2 * l], offsets[2 * l] + inDims[l] * h));
      out.set(`trunk.${l}.b`, block.slice(offsets[2 * l + 1], offsets[2 * l + 1] + h));
    });
    const head = offsets[2 * L];
    const policyW = new Float32Array(last * A);
    const valueW = new Float32Array(last);
    for (let i = 0; i < last; i++) {
      for (let j = 0; j < A; j++) policyW[i * A + j] = block[head + i * P + j];
      valueW[i] = block[head + i * P + A];
    }
    const bias = offsets[2 * L + 1];
    return out.set('policy.W', policyW).set('policy.b', block.slice(bias, bias + A)).set('value.W', valueW).set('value.b', block.slice(bias + A, bias + A + 1));
  };

  const f = Math.fround;
  const beta1 = f(0.9);
  const beta2 = f(0.999);
  let accBeta1 = beta1; // βᵗ, as tfjs's AdamOptimizer keeps it
  let accBeta2 = beta2;
  let disposed = false;
  const live = () => {
    if (disposed) throw new Error('PPO engine: used after dispose()');
  };

  return {
    pull() {
      live();
      const block = f32(params, total);
      block.fill(0);
      hidden.forEach((h, l) => {
        block.set(variable(`trunk.${l}.W`).dataSync() as Float32Array, offsets[2 * l]);
        block.set(variable(`trunk.${l}.b`).dataSync() as Float32Array, offsets[2 * l + 1]);
      });
      const policyW = variable('policy.W').dataSync();
      const valueW = variable('value.W').dataSync();
      const head = offsets[2 * L];
      for (let i = 0; i < last; i++) {
        for (let j = 0; j < A; j++) block[head + i * P + j] = policyW[i * A + j];
        block[head + i * P + A] = valueW[i];
      }
      block.set(variable('policy.b').dataSync() as Float32Array, offsets[2 * L + 1]);
      block[offsets[2 * L + 1] + A] = variable('value.b').dataSync()[0];
    },

    push() {
      live();
      for (const [name, data] of byVariable(f32(params, total))) {
        const target = variable(name);
        tf.tidy(() => target.assign(tf.tensor(data, target.shape)));
      }
    },

    async policyAndValue(obs, rows) {
      live();
      if (obs.length !== rows * D) throw new Error(`PPO engine: ${obs.length} floats of observations for ${rows} rows of ${D}`);
      ensureRows(rows);
      f32(work.x, rows * D).set(obs);
      forward(rows);
      k.policyOutputs(work.out, P, A, rows, work.logp, work.values);
      return { logp: f32(work.logp, rows * A).slice(), values: f32(work.values, rows).slice() };
    },

    loadRollout(r) {
      live();
      const n = r.actions.length;
      for (const [key, data] of Object.entries(r)) {
        const want = key === 'obs' ? n * D : n;
        if (data.length !== want) throw new Error(`PPO engine: rollout ${key} has ${data.length} entries, want ${want}`);
      }
      if (n !== rolloutRows) {
        rolloutRows = n;
        layOut(Math.max(capacity, 1), n);
      }
      for (const a of r.actions) if (!(a >= 0 && a < A)) throw new Error(`PPO engine: action ${a} is outside 0…${A - 1}`);
      f32(rollout.obs, n * D).set(r.obs);
      new Int32Array(k.memory.buffer, rollout.actions, n).set(r.actions);
      f32(rollout.logprobs, n).set(r.logprobs);
      f32(rollout.values, n).set(r.values);
      f32(rollout.advantages, n).set(r.advantages);
      f32(rollout.returns, n).set(r.returns);
    },

    update(idx, timer) {
      live();
      const t0 = performance.now();
      lossAndGradients(idx);
      const t1 = performance.now();
      const norm = f(Math.sqrt(k.sumOfSquares(grads, total)));
      const scale = Math.min(1, f(f(settings.max_grad_norm) / f(norm + f(1e-6))));
      k.adamUpdate(grads, m, v, params, m, v, params, total, scale, beta1, beta2, f(1 - beta1), f(1 - beta2), f(1 - accBeta1), f(1 - accBeta2), f(settings.adam_epsilon), f(-settings.learning_rate));
      accBeta1 = f(accBeta1 * beta1);
      accBeta2 = f(accBeta2 * beta2);
      timer?.add('forward_backward', t1 - t0);
      timer?.add('optimizer', performance.now() - t1);
      const out = new Float32Array(UPDATE_STATS.length);
      out.set(f32(stats, 6));
      out[6] = norm;
      return out;
    },

    gradients(idx) {
      live();
      lossAndGradients(idx);
      const s = new Float32Array(UPDATE_STATS.length);
      s.set(f32(stats, 6));
      s[6] = Math.sqrt(k.sumOfSquares(grads, total));
      return { stats: s, gradients: byVariable(f32(grads, total)) };
    },

    dispose() {
      disposed = true; // the instance and its memory go with the last reference
    },
  };
}
