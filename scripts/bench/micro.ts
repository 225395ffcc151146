/**
 * Splits a trainer's update into forward-backward and optimizer time without touching the trainer: rebuild one
 * update of the same shape from the same building blocks (completionBatch → completionLogits → the trainer's loss,
 * clipByGlobalNorm, Adam) and time `tf.variableGrads` apart from clipping and `applyGradients`, synchronising with
 * `await t.data()` before each clock read.
 */
import * as tf from '@tensorflow/tfjs';
import type { ActorCritic } from '@/lib/models/actor-critic';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { createRng, type Rng } from '@/lib/random';
import { dpoLoss, type DpoLossType } from '@/lib/rl/dpo';
import { grpoLoss, type GrpoLossType, type ImportanceSamplingLevel } from '@/lib/rl/grpo';
import { completionLogprobs, completionLogprobsAndEntropy, sequenceLogprobs } from '@/lib/rl/logprobs';
import { ppoPolicyLoss, ppoValueLoss } from '@/lib/rl/ppo';
import { sftLoss } from '@/lib/rl/sft';
import type { ArithmeticTask, Problem } from '@/lib/tasks/arithmetic';
import { completionBatch, completionLogits, referenceCompletions, type CompletionBatch } from '@/lib/train/lm-batch';
import { clipByGlobalNorm } from '@/lib/train/optim';

/** One update's loss, rebuilt with the trainer's shapes. */
export interface UpdateProbe {
  lossFn: () => tf.Scalar;
  /** Optimizer updates per trainStep (GRPO: num_iterations; PPO: epochs × minibatches). */
  updatesPerStep: number;
  /** The batch as the trainer sees it, e.g. "32 × 21 tokens". */
  shape: string;
  /** Where the probe departs from the trainer's real step. */
  note?: string;
  adam: { learningRate: number; epsilon?: number };
  maxGradNorm: number;
  dispose(): void;
}

export interface MicroResult {
  reps: number;
  updatesPerStep: number;
  shape: string;
  note?: string;
  /** Medians per update, ms. */
  forwardBackwardMs: number;
  clipMs: number;
  applyMs: number;
  /** Fastest update of each phase, ms (less sensitive to a busy machine than the median). */
  min: { forwardBackwardMs: number; clipMs: number; applyMs: number };
}

export const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * Times single updates of `probe` with a fresh Adam. Call `update(false)` once first (Adam creates its slots), then
 * `update(true)` between the trainer's timed steps, so that both see the same load on the machine.
 */
export interface MicroBench {
  update(timed: boolean): Promise<void>;
  result(): MicroResult;
  /** Frees the optimizer and the probe's batch. */
  dispose(): void;
}

export function createMicroBench(variables: tf.Variable[], probe: UpdateProbe): MicroBench {
  if (variables.length === 0) throw new Error('no trainable variables');
  const optimizer: tf.Optimizer = tf.train.adam(probe.adam.learningRate, 0.9, 0.999, probe.adam.epsilon);
  // The smallest trainable weight: reading it back waits for applyGradients at little transfer cost.
  const syncVar = variables.reduce((a, b) => (b.size < a.size ? b : a));
  const fb: number[] = [];
  const clip: number[] = [];
  const apply: number[] = [];
  return {
    async update(timed) {
      const t0 = performance.now();
      const { value, grads } = tf.variableGrads(probe.lossFn, variables);
      // In-order queues (webgl, webgpu) finish every gradient kernel before this read; cpu and wasm are synchronous.
      await value.data();
      const t1 = performance.now();
      const { grads: clipped, norm } = clipByGlobalNorm(grads, probe.maxGradNorm);
      await norm.data();
      const t2 = performance.now();
      optimizer.applyGradients(clipped);
      await syncVar.data();
      const t3 = performance.now();
      tf.dispose([value, norm]);
      tf.dispose(Object.values(grads));
      tf.dispose(Object.values(clipped));
      if (timed) {
        fb.push(t1 - t0);
        clip.push(t2 - t1);
        apply.push(t3 - t2);
      }
    },
    result: () => ({
      reps: fb.length,
      updatesPerStep: probe.updatesPerStep,
      shape: probe.shape,
      note: probe.note,
      forwardBackwardMs: median(fb),
      clipMs: median(clip),
      applyMs: median(apply),
      min: { forwardBackwardMs: Math.min(...fb), clipMs: Math.min(...clip), applyMs: Math.min(...apply) },
    }),
    dispose() {
      optimizer.dispose();
      probe.dispose();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Probes per trainer

type Config = Record<string, unknown>;
const num = (c: Config, key: string, fallback: number): number => (typeof c[key] === 'number' ? (c[key] as number) : fallback);
const str = <T extends string>(c: Config, key: string, fallback: T): T => (typeof c[key] === 'string' ? (c[key] as T) : fallback);

/** `n` training problems' reference completions, each padded to exactly `width` tokens (mask 0 on padding). */
function paddedReference(task: ArithmeticTask, problems: Problem[], width: number) {
  const ref = referenceCompletions(task, problems);
  const pad = task.tokenizer.pad;
  return {
    prompts: ref.prompts,
    completions: ref.completions.map((c) => [...c.slice(0, width), ...Array<number>(Math.max(0, width - c.length)).fill(pad)]),
    mask: ref.completions.map((c) => [...c.slice(0, width).map(() => 1), ...Array<number>(Math.max(0, width - c.length)).fill(0)]),
  };
}

const shapeOf = (batch: CompletionBatch) => `${batch.input.shape[0]} × ${batch.input.shape[1]} tokens`;

function sftProbe(model: TinyLM, task: ArithmeticTask, c: Config, rng: Rng, note?: string): UpdateProbe {
  const B = num(c, 'per_device_train_batch_size', 32);
  const { prompts, completions, mask } = referenceCompletions(task, task.sample('train', B, rng));
  const batch = completionBatch(prompts, completions, mask, task.tokenizer.pad);
  return {
    lossFn: () => sftLoss(completionLogits(model, batch), batch.targets, batch.mask).loss,
    updatesPerStep: 1,
    shape: shapeOf(batch),
    note,
    adam: { learningRate: num(c, 'learning_rate', 1e-3) },
    maxGradNorm: num(c, 'max_grad_norm', 1),
    dispose: () => batch.dispose(),
  };
}

function grpoProbe(model: TinyLM, task: ArithmeticTask, c: Config, rng: Rng): UpdateProbe {
  const B = num(c, 'per_device_train_batch_size', 64);
  const G = num(c, 'num_generations', 8);
  const M = num(c, 'max_completion_length', task.maxCompletionLength);
  const temperature = num(c, 'temperature', 1);
  const beta = num(c, 'beta', 0);
  const iterations = num(c, 'num_iterations', 1);
  const problems = task.sample('train', Math.max(1, Math.floor(B / G)), rng).flatMap((p) => Array<Problem>(G).fill(p));
  const { prompts, completions, mask } = paddedReference(task, problems, M);
  const batch = completionBatch(prompts, completions, mask, task.tokenizer.pad);
  const advantages = tf.tensor1d(problems.map(() => rng.normal()));
  const constantLogps = () => tf.tidy(() => completionLogprobs(completionLogits(model, batch, false), batch.targets, temperature));
  const oldLogps = iterations > 1 ? constantLogps() : undefined;
  const refLogps = beta > 0 ? constantLogps() : undefined;
  return {
    lossFn: () => {
      const { logps, entropy } = completionLogprobsAndEntropy(completionLogits(model, batch), batch.targets, temperature);
      return grpoLoss({
        logps, oldLogps, refLogps, advantages, mask: batch.mask, entropies: entropy,
        lossType: str<GrpoLossType>(c, 'loss_type', 'dapo'),
        importanceSamplingLevel: str<ImportanceSamplingLevel>(c, 'importance_sampling_level', 'token'),
        beta, epsilon: num(c, 'epsilon', 0.2), epsilonHigh: num(c, 'epsilon_high', num(c, 'epsilon', 0.2)),
        maxCompletionLength: M,
      }).loss;
    },
    updatesPerStep: iterations,
    shape: shapeOf(batch),
    note: `reference completions stand in for sampled ones (padded to max_completion_length ${M}, as generate pads them)`,
    adam: { learningRate: num(c, 'learning_rate', 1e-3) },
    maxGradNorm: num(c, 'max_grad_norm', 1),
    dispose: () => {
      batch.dispose();
      tf.dispose([advantages, oldLogps, refLogps].filter((t): t is tf.Tensor1D | tf.Tensor2D => t !== undefined));
    },
  };
}

interface PairLike {
  promptIds: number[];
  chosen: number[];
  rejected: number[];
  refChosen: number;
  refRejected: number;
}

function dpoProbe(model: TinyLM, task: ArithmeticTask, c: Config, rng: Rng, trainerPairs: readonly PairLike[] | undefined): UpdateProbe {
  const B = num(c, 'per_device_train_batch_size', 32);
  let pairs: PairLike[];
  let note: string | undefined;
  if (trainerPairs && trainerPairs.length > 0) {
    pairs = Array.from({ length: B }, (_, i) => trainerPairs[i % trainerPairs.length]);
  } else {
    const chosen = task.sample('train', B, rng);
    const other = task.sample('train', B, rng);
    pairs = chosen.map((p, i) => ({ promptIds: task.encodePrompt(p), chosen: task.encodeCompletion(p), rejected: task.encodeCompletion(other[i]), refChosen: 0, refRejected: 0 }));
    note = 'reference completions stand in for sampled pairs';
  }
  const prompts = [...pairs.map((p) => p.promptIds), ...pairs.map((p) => p.promptIds)];
  const completions = [...pairs.map((p) => p.chosen), ...pairs.map((p) => p.rejected)];
  const batch = completionBatch(prompts, completions, completions.map((x) => x.map(() => 1)), task.tokenizer.pad);
  const refChosen = tf.tensor1d(pairs.map((p) => p.refChosen));
  const refRejected = tf.tensor1d(pairs.map((p) => p.refRejected));
  const chosenLengths = tf.tensor1d(pairs.map((p) => p.chosen.length));
  const rejectedLengths = tf.tensor1d(pairs.map((p) => p.rejected.length));
  return {
    lossFn: () => {
      const seq = sequenceLogprobs(completionLogprobs(completionLogits(model, batch), batch.targets), batch.mask);
      const [chosenLogps, rejectedLogps] = tf.split(seq, 2) as [tf.Tensor1D, tf.Tensor1D];
      return dpoLoss({
        chosenLogps, rejectedLogps, refChosenLogps: refChosen, refRejectedLogps: refRejected,
        beta: num(c, 'beta', 0.1), lossType: str<DpoLossType>(c, 'loss_type', 'sigmoid'), labelSmoothing: num(c, 'label_smoothing', 0),
        chosenLengths, rejectedLengths,
      }).loss;
    },
    updatesPerStep: 1,
    shape: `${shapeOf(batch)} (${B} pairs)`,
    note,
    adam: { learningRate: num(c, 'learning_rate', 1e-3) },
    maxGradNorm: num(c, 'max_grad_norm', 1),
    dispose: () => {
      batch.dispose();
      tf.dispose([refChosen, refRejected, chosenLengths, rejectedLengths]);
    },
  };
}

/** The update of an LM trainer (by registry name); unknown names get an SFT-shaped proxy. */
export function lmProbe(name: string, trainer: { config: object; model: unknown; pairs?: unknown }, task: ArithmeticTask): UpdateProbe {
  const model = trainer.model as TinyLM;
  const c = trainer.config as Config;
  const rng = createRng(`bench-${name}`);
  if (name === 'sft') return sftProbe(model, task, c, rng);
  if (name === 'grpo') return grpoProbe(model, task, c, rng);
  if (name === 'dpo') return dpoProbe(model, task, c, rng, Array.isArray(trainer.pairs) ? (trainer.pairs as PairLike[]) : undefined);
  return sftProbe(model, task, c, rng, `no probe for "${name}": an SFT-shaped update of its batch size stands in`);
}

/** PPO's minibatch update (lib/train/ppo-trainer.ts), on random data of the rollout's size. */
export function ppoProbe(model: ActorCritic, c: Config): UpdateProbe {
  const rng = createRng('bench-ppo');
  const N = num(c, 'num_envs', 16) * num(c, 'num_steps', 32);
  const miniBatches = num(c, 'num_mini_batches', 4);
  const M = Math.floor(N / miniBatches);
  const { obs_dim: D, n_actions: A } = model.config;
  const random = (n: number) => Array.from({ length: n }, () => rng.normal());
  const data = {
    obs: tf.tensor2d(random(N * D), [N, D]),
    actions: tf.tidy(() => tf.cast(tf.oneHot(tf.tensor1d(Array.from({ length: N }, () => rng.int(A)), 'int32'), A), 'float32')),
    logprobs: tf.fill([N], -Math.log(A)) as tf.Tensor1D,
    values: tf.tensor1d(random(N)),
    advantages: tf.tensor1d(random(N)),
    returns: tf.tensor1d(random(N)),
  };
  const idx = tf.tensor1d(rng.shuffle(Array.from({ length: N }, (_, i) => i)).slice(0, M), 'int32');
  const [cliprange, cliprangeValue, vfCoef, entCoef] = [num(c, 'cliprange', 0.2), num(c, 'cliprange_value', 0.2), num(c, 'vf_coef', 0.5), num(c, 'ent_coef', 0.01)];
  return {
    lossFn: () => {
      const row = <T extends tf.Tensor>(t: T) => tf.gather(t, idx);
      const asRow = (t: tf.Tensor) => tf.reshape(t, [1, -1]) as tf.Tensor2D;
      const { logits, values: vpred } = model.forward(row(data.obs) as tf.Tensor2D);
      const logp = tf.logSoftmax(logits);
      const newLogprobs = tf.sum(tf.mul(logp, row(data.actions)), 1);
      const entropy = tf.mean(tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1))) as tf.Scalar;
      const pg = ppoPolicyLoss({ newLogprobs: asRow(newLogprobs), oldLogprobs: asRow(row(data.logprobs)), advantages: asRow(row(data.advantages)), paddingMask: tf.zeros([1, M]), cliprange });
      const vf = ppoValueLoss({ vpred: asRow(vpred), values: asRow(row(data.values)), returns: asRow(row(data.returns)), validMask: tf.ones([1, M]), cliprangeValue });
      return tf.sub(tf.add(pg.pgLoss, tf.mul(vf.vfLoss, vfCoef)), tf.mul(entropy, entCoef)) as tf.Scalar;
    },
    updatesPerStep: num(c, 'num_ppo_epochs', 4) * miniBatches,
    shape: `${M} transitions × ${D} obs`,
    note: 'random observations of the rollout’s size',
    adam: { learningRate: num(c, 'learning_rate', 3e-3), epsilon: 1e-5 },
    maxGradNorm: num(c, 'max_grad_norm', 0.5),
    dispose: () => tf.dispose([...Object.values(data), idx]),
  };
}
