/**
 * Sharded training equals unsharded training, shown numerically on the course's tiny LM (tfjs). Three
 * demonstrations, each returning its largest absolute difference:
 *   dp    K data-parallel workers each take a shard of the batch; the average of their gradients equals
 *         the gradient of the whole batch (Li et al. 2020 on PyTorch DDP: arXiv:2006.15704);
 *   tp    block 0's MLP split by columns then by rows over two devices (Megatron-LM, Shoeybi et al. 2019,
 *         arXiv:1909.08053) gives the unsplit output after one sum, the all-reduce;
 *   zero  Adam steps with the optimiser state sharded over K workers, each updating its slice of the
 *         parameters, then all-gathered (ZeRO, arXiv:1910.02054), equal the unsharded steps.
 * Everything is float32 (mixed precision is left out: it would change both sides alike). Worker-side code:
 * nothing here runs on a chapter page's main thread.
 */
import * as tf from '@tensorflow/tfjs';
import { configForTask } from '@/lib/models/presets';
import { layerNorm, oneHotF32 } from '@/lib/models/ops';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import { createRng, type Rng } from '@/lib/random';
import { sftLoss } from '@/lib/rl/sft';
import type { ArithmeticTask } from '@/lib/tasks/arithmetic';
import { createLabTask } from '@/lib/train/lab-setup';
import { completionBatch, completionLogits, readScalars, referenceCompletions, type CompletionBatch } from '@/lib/train/lm-batch';
import { adam, optimizerStep } from '@/lib/train/optim';

export type DemoName = 'dp' | 'tp' | 'zero';
export const DEMO_NAMES: readonly DemoName[] = ['dp', 'tp', 'zero'];

export interface DemoOptions {
  seed: number;
  /** K, simulated workers (DP and ZeRO). */
  workers: number;
  /** Problems per batch; a multiple of workers. */
  batchSize: number;
  /** Optimiser steps in the ZeRO demonstration. */
  steps: number;
  learningRate: number;
  /** TRL's max_grad_norm (ZeRO demo): the clip needs the global norm, one more (scalar) all-reduce when sharded. */
  maxGradNorm: number;
}

export const DEMO_DEFAULTS: DemoOptions = { seed: 0, workers: 4, batchSize: 32, steps: 3, learningRate: 3e-3, maxGradNorm: 1 };

export interface DpResult {
  name: 'dp';
  workers: number;
  batchSize: number;
  /** Completion tokens in each worker's shard (they differ: completions have different lengths). */
  tokensPerWorker: number[];
  params: number;
  /** max |mean of worker gradients − whole-batch gradient|, each worker scaling its loss by K·n_k/N. */
  maxAbsDiff: number;
  /** The same if each worker averaged over its own tokens only: wrong whenever shards hold unequal token counts. */
  perShardMeanMaxAbsDiff: number;
  maxAbsGradient: number;
}

export interface TpResult {
  name: 'tp';
  devices: 2;
  /** Rows of the MLP input: every token of the batch. */
  rows: number;
  dModel: number;
  dFF: number;
  /** max |Z_0 + Z_1 + b_2 − unsplit output|. */
  maxAbsDiff: number;
  /** Splitting the first matrix by rows instead puts the nonlinearity before the sum: not equal. */
  rowFirstMaxAbsDiff: number;
  maxAbsOutput: number;
}

export interface ZeroResult {
  name: 'zero';
  workers: number;
  steps: number;
  params: number;
  /** Parameters per shard (the last one padded with zeros). */
  shardSize: number;
  /** max |sharded − unsharded parameters| after each step, without gradient clipping: bit for bit equal. */
  perStep: number[];
  maxAbsDiff: number;
  /** How far the parameters moved, for scale. */
  maxAbsUpdate: number;
  /**
   * The same with clipping by global norm. The sharded norm is summed shard by shard, so it may differ from
   * the unsharded one in its last bit; Adam divides by √v, which magnifies such rounding for weights whose
   * gradient is near zero, so the difference can grow over steps (still at the level of float32 rounding).
   */
  clipped: { maxGradNorm: number; perStep: number[] };
}

export type DemoResult = DpResult | TpResult | ZeroResult;

function validate(o: DemoOptions): void {
  const int = (x: number, name: string, min: number, max: number) => {
    if (!(Number.isInteger(x) && x >= min && x <= max)) throw new Error(`${name} must be a whole number from ${min} to ${max}, got ${x}`);
  };
  int(o.workers, 'workers', 2, 8);
  int(o.batchSize, 'batchSize', o.workers, 128);
  if (o.batchSize % o.workers !== 0) throw new Error(`batchSize ${o.batchSize} must be a multiple of workers ${o.workers}`);
  int(o.steps, 'steps', 1, 10);
  if (!(o.learningRate > 0 && o.learningRate < 1)) throw new Error(`learningRate must be in (0, 1), got ${o.learningRate}`);
  if (!(o.maxGradNorm > 0)) throw new Error(`maxGradNorm must be positive, got ${o.maxGradNorm}`);
}

interface Problems {
  prompts: number[][];
  completions: number[][];
  mask: number[][];
}

function sample(task: ArithmeticTask, n: number, rng: Rng): Problems {
  return referenceCompletions(task, task.sample('train', n, rng));
}

const slice = (p: Problems, from: number, to: number): Problems => ({
  prompts: p.prompts.slice(from, to),
  completions: p.completions.slice(from, to),
  mask: p.mask.slice(from, to),
});

const tokens = (p: Problems) => p.mask.reduce((n, m) => n + m.reduce((a, b) => a + b, 0), 0);

/** The SFT loss gradient of every trainable weight, flattened in trainableVariables() order: [Ψ]. */
function flatGradient(model: TinyLM, batch: CompletionBatch, scale: number): tf.Tensor1D {
  return tf.tidy(() => {
    const vars = model.trainableVariables();
    const { grads } = tf.variableGrads(() => tf.mul(sftLoss(completionLogits(model, batch), batch.targets, batch.mask).loss, scale) as tf.Scalar, vars);
    return tf.concat(vars.map((v) => tf.reshape(grads[v.name], [-1]))) as tf.Tensor1D;
  });
}

const flatWeights = (model: TinyLM) => tf.tidy(() => tf.concat(model.trainableVariables().map((v) => tf.reshape(v, [-1]))) as tf.Tensor1D);

const maxAbsDiff = (a: tf.Tensor, b: tf.Tensor) => tf.tidy(() => tf.max(tf.abs(tf.sub(a, b))));

function withBatch<T>(task: ArithmeticTask, p: Problems, f: (batch: CompletionBatch) => T): T {
  const batch = completionBatch(p.prompts, p.completions, p.mask, task.tokenizer.pad);
  try {
    return f(batch);
  } finally {
    batch.dispose();
  }
}

export async function dataParallelDemo(options: Partial<DemoOptions> = {}): Promise<DpResult> {
  const o = { ...DEMO_DEFAULTS, ...options };
  validate(o);
  const task = createLabTask();
  const model = createTinyLM(configForTask(task), o.seed);
  const rng = createRng(`dist-demo/dp/${o.seed}`);
  const K = o.workers;
  try {
    const all = sample(task, o.batchSize, rng);
    const N = tokens(all);
    const per = o.batchSize / K;
    const shards = Array.from({ length: K }, (_, k) => slice(all, k * per, (k + 1) * per));
    const counts = shards.map(tokens);
    const whole = withBatch(task, all, (b) => flatGradient(model, b, 1));
    // Each worker's loss is its token sum over the global token count N, times K, so that DDP's
    // average of the K gradients is the whole batch's token mean. N itself is one scalar all-reduce.
    const workerGrads = shards.map((s, k) => withBatch(task, s, (b) => flatGradient(model, b, (K * counts[k]) / N)));
    const { diff, naive, biggest } = await readScalars({
      diff: tf.tidy(() => maxAbsDiff(tf.div(tf.addN(workerGrads), K), whole)),
      // Had each worker used its own token mean, its gradient would be this one times N/(K·n_k).
      naive: tf.tidy(() => maxAbsDiff(tf.div(tf.addN(workerGrads.map((g, k) => tf.mul(g, N / (K * counts[k])))), K), whole)),
      biggest: tf.tidy(() => tf.max(tf.abs(whole))),
    });
    tf.dispose([whole, ...workerGrads]);
    return {
      name: 'dp',
      workers: K,
      batchSize: o.batchSize,
      tokensPerWorker: counts,
      params: model.trainableParamCount(),
      maxAbsDiff: diff,
      perShardMeanMaxAbsDiff: naive,
      maxAbsGradient: biggest,
    };
  } finally {
    model.dispose();
  }
}

export async function tensorParallelDemo(options: Partial<DemoOptions> = {}): Promise<TpResult> {
  const o = { ...DEMO_DEFAULTS, ...options };
  validate(o);
  const task = createLabTask();
  const model = createTinyLM(configForTask(task), o.seed);
  const rng = createRng(`dist-demo/tp/${o.seed}`);
  const { d_model: D, d_ff: F, vocab_size: V } = model.config;
  const w = (name: string) => model.namedWeights().get(name)!;
  try {
    const problems = sample(task, o.batchSize, rng);
    const out = withBatch(task, problems, (batch) =>
      tf.tidy(() => {
        const [B, T] = batch.input.shape;
        // Block 0's MLP input for every token of the batch: embeddings, then its layer norm. [N, D]
        const emb = tf.add(tf.reshape(tf.matMul(oneHotF32(tf.reshape(batch.input, [B * T]), V) as tf.Tensor2D, w('tok_emb') as tf.Tensor2D), [B, T, D]), tf.slice(w('pos_emb'), [0, 0], [T, D]));
        const X = layerNorm(tf.reshape(emb, [B * T, D]) as tf.Tensor2D, w('blocks.0.ln2.g'), w('blocks.0.ln2.b'));
        const [W1, b1, W2, b2] = ['fc1.W', 'fc1.b', 'fc2.W', 'fc2.b'].map((n) => w(`blocks.0.${n}`));
        const Y = tf.add(tf.matMul(tf.relu(tf.add(tf.matMul(X, W1 as tf.Tensor2D), b1)), W2 as tf.Tensor2D), b2); // [N, D]
        // Device d: columns d·F/2 … of W1 (and b1), the same rows of W2. No communication until the sum.
        const half = F / 2;
        const Z = [0, 1].map((d) => {
          const h = tf.relu(tf.add(tf.matMul(X, tf.slice(W1, [0, d * half], [D, half]) as tf.Tensor2D), tf.slice(b1, [d * half], [half]))); // [N, F/2]
          return tf.matMul(h, tf.slice(W2, [d * half, 0], [half, D]) as tf.Tensor2D); // [N, D], a partial sum
        });
        const Ytp = tf.add(tf.add(Z[0], Z[1]), b2); // the all-reduce, then the bias once
        // The other way round: W1 split by rows leaves partial sums, and ReLU of a partial sum is not a part of ReLU.
        const halfD = D / 2;
        const H = [0, 1].map((d) => {
          const part = tf.matMul(tf.slice(X, [0, d * halfD], [B * T, halfD]), tf.slice(W1, [d * halfD, 0], [halfD, F]) as tf.Tensor2D);
          return tf.relu(d === 0 ? tf.add(part, b1) : part);
        });
        const Ywrong = tf.add(tf.matMul(tf.add(H[0], H[1]), W2 as tf.Tensor2D), b2);
        return { rows: B * T, scalars: { diff: maxAbsDiff(Ytp, Y), wrong: maxAbsDiff(Ywrong, Y), biggest: tf.max(tf.abs(Y)) } };
      }),
    );
    const { diff, wrong, biggest } = await readScalars(out.scalars);
    return { name: 'tp', devices: 2, rows: out.rows, dModel: D, dFF: F, maxAbsDiff: diff, rowFirstMaxAbsDiff: wrong, maxAbsOutput: biggest };
  } finally {
    model.dispose();
  }
}

/** Sharded against unsharded Adam over o.steps batches, clipping at maxGradNorm (Infinity: no clipping). */
async function shardedAgainstPlain(o: DemoOptions, maxGradNorm: number): Promise<{ params: number; shardSize: number; perStep: number[]; moved: number }> {
  const task = createLabTask();
  const K = o.workers;
  const plain = createTinyLM(configForTask(task), o.seed); // unsharded: one Adam over every weight
  const sharded = createTinyLM(configForTask(task), o.seed); // same initial weights
  const vars = sharded.trainableVariables();
  const psi = sharded.trainableParamCount();
  const S = Math.ceil(psi / K);
  const rng = createRng(`dist-demo/zero/${o.seed}`);
  const plainAdam = adam(o.learningRate);
  // Worker k owns parameters [kS, (k + 1)S): an fp32 master copy and Adam's two moments for that slice only.
  const masters = tf.tidy(() => {
    const padded = tf.pad(flatWeights(sharded), [[0, K * S - psi]]);
    return Array.from({ length: K }, (_, k) => tf.variable(tf.slice(padded, [k * S], [S])));
  });
  const adams = masters.map(() => adam(o.learningRate));
  const start = flatWeights(plain);
  const perStep: number[] = [];
  try {
    for (let step = 0; step < o.steps; step++) {
      const problems = sample(task, o.batchSize, rng);
      withBatch(task, problems, (batch) => {
        const lossOf = (model: TinyLM) => () => sftLoss(completionLogits(model, batch), batch.targets, batch.mask).loss;
        // The trainers' own step: gradients, clip by global norm, Adam.
        tf.dispose(optimizerStep(plainAdam, plain.trainableVariables(), maxGradNorm, lossOf(plain)));
        tf.tidy(() => {
          // Reduce-scatter: worker k keeps its slice of the (already averaged) gradient.
          const g = tf.pad(flatGradient(sharded, batch, 1), [[0, K * S - psi]]);
          const slices = masters.map((_, k) => tf.slice(g, [k * S], [S]));
          // The global norm for clipping: each worker's sum of squares, all-reduced (K scalars). Summed in
          // another order than the unsharded step's per-weight sums, so it can differ in the last bit.
          const norm = tf.sqrt(tf.addN(slices.map((s) => tf.sum(tf.square(s)))));
          const scale = tf.minimum(1, tf.div(maxGradNorm, tf.add(norm, 1e-6)));
          slices.forEach((s, k) => adams[k].applyGradients({ [masters[k].name]: tf.mul(s, scale) }));
          // All-gather: every worker receives every updated slice and rebuilds its weights.
          const gathered = tf.slice(tf.concat(masters), [0], [psi]);
          let offset = 0;
          for (const v of vars) {
            v.assign(tf.reshape(tf.slice(gathered, [offset], [v.size]), v.shape));
            offset += v.size;
          }
        });
      });
      const { d } = await readScalars({ d: tf.tidy(() => maxAbsDiff(flatWeights(plain), flatWeights(sharded))) });
      perStep.push(d);
    }
    const { moved } = await readScalars({ moved: tf.tidy(() => maxAbsDiff(flatWeights(plain), start)) });
    return { params: psi, shardSize: S, perStep, moved };
  } finally {
    start.dispose();
    plainAdam.dispose();
    adams.forEach((a) => a.dispose());
    tf.dispose(masters);
    plain.dispose();
    sharded.dispose();
  }
}

export async function zeroDemo(options: Partial<DemoOptions> = {}): Promise<ZeroResult> {
  const o = { ...DEMO_DEFAULTS, ...options };
  validate(o);
  const exact = await shardedAgainstPlain(o, Infinity);
  const clipped = await shardedAgainstPlain(o, o.maxGradNorm);
  return {
    name: 'zero',
    workers: o.workers,
    steps: o.steps,
    params: exact.params,
    shardSize: exact.shardSize,
    perStep: exact.perStep,
    maxAbsDiff: Math.max(...exact.perStep),
    maxAbsUpdate: exact.moved,
    clipped: { maxGradNorm: o.maxGradNorm, perStep: clipped.perStep },
  };
}

const DEMOS: Record<DemoName, (o: Partial<DemoOptions>) => Promise<DemoResult>> = { dp: dataParallelDemo, tp: tensorParallelDemo, zero: zeroDemo };

/** Runs one demonstration and reports how long it took and whether it left tensors behind (it must not). */
export async function runDemo(name: DemoName, options: Partial<DemoOptions> = {}): Promise<{ result: DemoResult; ms: number; leakedTensors: number }> {
  if (!DEMO_NAMES.includes(name)) throw new Error(`unknown demonstration "${String(name)}"`);
  const before = tf.memory().numTensors;
  const t0 = performance.now();
  const result = await DEMOS[name](options);
  return { result, ms: performance.now() - t0, leakedTensors: tf.memory().numTensors - before };
}
