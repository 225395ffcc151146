/**
 * PPO for small control tasks (CleanRL's ppo.py, with TRL's loss functions and log names). One trainStep = one
 * rollout of num_envs × num_steps (ppo-rollout.ts: truncated episodes are bootstrapped there), GAE over [N, T] with
 * no bootstrapping across episode ends, optional whitening over the whole rollout (as TRL), then
 * num_ppo_epochs × num_mini_batches clipped updates with Adam and global-norm clipping. On wasm (fast paths on) the
 * forwards and updates run in one WebAssembly module (ppo-kernel/: ~20 calls an update instead of ~380 tfjs kernels,
 * equal to the tfjs path to float32 rounding, not bit for bit); elsewhere everything after the rollout stays on device
 * and one read-back at the end brings the averaged statistics.
 */
import * as tf from '@tensorflow/tfjs';
import { createActorCritic, type ActorCritic } from '@/lib/models/actor-critic';
import { createRng } from '@/lib/random';
import { gae, gaeOnArrays, maskedWhiten, ppoPolicyLoss, ppoValueLoss, whitenArray } from '@/lib/rl/ppo';
import { wasmFastPaths } from '@/lib/models/fast-paths';
import { createCartPole, type CartPoleRender } from '@/lib/tasks/cartpole';
import { createGridWorld, createVecEnv, GRID_MAPS, type Env, type GridMapName, type GridRender } from '@/lib/tasks/gridworld';
import { resolve } from './config';
import { loadActorCritic, saveWeights } from '@/lib/models/checkpoint';
import { adam, optimizerStep, StepTimer } from './optim';
import { ppoSchema, type PpoConfig } from './ppo-config';
import { collectRollout, episodeEvalMetrics, greedyEpisodes, tfjsPolicyAndValue, type PolicyAndValue, type Rollout } from './ppo-rollout';
import { openPpoEngine, UPDATE_STATS, type PpoEngine } from './ppo-kernel/engine';
import type { Metrics } from './run';
import { inTensorScope } from './scope';
import type { Trainer, TrainerFactory } from './trainer';
import { ownModel } from './trainer';

/** π(a | cell) and V(cell) for every cell of the grid, row-major [rows·cols]: arrows and a value heat map. */
export interface PolicyMap {
  probs: number[][];
  values: number[];
}

export interface PpoTrainer extends Trainer<typeof ppoSchema, PolicyMap> {
  readonly config: PpoConfig;
  readonly model: ActorCritic;
  /** The last rollout (for drawing paths and checking the data); undefined before the first step. */
  readonly lastRollout: Rollout | undefined;
  /**
   * Whether the updates run in the fused WebAssembly kernel (ppo-kernel/): decided at the first step, on wasm with the
   * fast paths on, and kept for the run; undefined before the first step.
   */
  readonly fused: boolean | undefined;
  /** A fresh env built from the config (for a lab to draw, or to replay the policy in). */
  makeEnv(): Env<GridRender | CartPoleRender>;
  /**
   * Grid world only: π(a | cell) and V(cell) for every cell, row-major [rows·cols], in one forward pass (arrows and
   * a value heat map).
   */
  policyMap(): Promise<PolicyMap>;
}

/** CleanRL's Adam ε for PPO, on both paths. */
const ADAM_EPSILON = 1e-5;

/** Names of the per-minibatch statistics, in the order they are stacked on device. */
const STATS = ['loss/policy_avg', 'loss/value_avg', 'policy/entropy_avg', 'policy/approxkl_avg', 'policy/clipfrac_avg', 'val/clipfrac_avg'] as const;

/** A minibatch of the rollout as tensors: M rows. */
export interface PpoMinibatch {
  obs: tf.Tensor2D;
  /** [M, A] one-hot actions (float32). */
  actions: tf.Tensor2D;
  logprobs: tf.Tensor1D;
  values: tf.Tensor1D;
  advantages: tf.Tensor1D;
  returns: tf.Tensor1D;
}

/**
 * The tfjs path's loss on one minibatch: pg_loss + vf_coef · vf_loss − ent_coef · H (TRL's losses, lib/rl/ppo.ts), and
 * the stats [6] in STATS' order. The fused kernel (ppo-kernel/) computes the same; its test compares the two.
 */
export function ppoMinibatchLoss(
  model: ActorCritic,
  config: Pick<PpoConfig, 'cliprange' | 'cliprange_value' | 'vf_coef' | 'ent_coef'>,
  batch: PpoMinibatch,
): { loss: tf.Scalar; stats: tf.Tensor1D } {
  const M = batch.obs.shape[0];
  const asRow = (t: tf.Tensor) => tf.reshape(t, [1, -1]) as tf.Tensor2D; // the losses take [B, T]; here [1, M]
  const { logits, values: vpred } = model.forward(batch.obs); // [M, A], [M]
  const logp = tf.logSoftmax(logits); // [M, A]
  const newLogprobs = tf.sum(tf.mul(logp, batch.actions), 1); // log π(a_t | s_t), [M]
  const entropy = tf.mean(tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1))) as tf.Scalar;
  const pg = ppoPolicyLoss({
    newLogprobs: asRow(newLogprobs),
    oldLogprobs: asRow(batch.logprobs),
    advantages: asRow(batch.advantages),
    paddingMask: tf.zeros([1, M]),
    cliprange: config.cliprange,
  });
  const vf = ppoValueLoss({
    vpred: asRow(vpred),
    values: asRow(batch.values),
    returns: asRow(batch.returns),
    validMask: tf.ones([1, M]),
    cliprangeValue: config.cliprange_value,
  });
  const stats = tf.stack([pg.pgLoss, vf.vfLoss, entropy, pg.approxKl, pg.pgClipfrac, vf.vfClipfrac]) as tf.Tensor1D;
  // loss = pg_loss + vf_coef · vf_loss − ent_coef · H
  const loss = tf.sub(tf.add(pg.pgLoss, tf.mul(vf.vfLoss, config.vf_coef)), tf.mul(entropy, config.ent_coef)) as tf.Scalar;
  return { loss, stats };
}

export function createPpoTrainer(overrides: Partial<PpoConfig> = {}, opts: { model?: ActorCritic } = {}): PpoTrainer {
  const config = resolve(ppoSchema, overrides);
  const batchSize = config.num_envs * config.num_steps;
  // When num_mini_batches does not divide the batch, the few rows left over after the shuffle sit out that epoch.
  const miniBatch = Math.floor(batchSize / config.num_mini_batches);
  if (miniBatch < 2) throw new Error(`num_envs · num_steps = ${batchSize} is too small for ${config.num_mini_batches} minibatches`);
  const makeGrid = () =>
    createGridWorld({ map: GRID_MAPS[config.grid_map as GridMapName], step_cost: config.step_cost, max_episode_steps: config.max_episode_steps, slip: config.slip });
  const makeEnv = (): Env<GridRender | CartPoleRender> =>
    config.env_id === 'cartpole' ? createCartPole({ max_episode_steps: config.max_episode_steps }) : makeGrid();
  const probe = makeEnv();
  const model = opts.model ?? createActorCritic({ obs_dim: probe.obsDim, n_actions: probe.nActions, hidden_sizes: [config.hidden_size, config.hidden_size] }, config.seed);
  if (model.config.obs_dim !== probe.obsDim || model.config.n_actions !== probe.nActions) {
    throw new Error(`model is ${model.config.obs_dim} → ${model.config.n_actions}, the env needs ${probe.obsDim} → ${probe.nActions}`);
  }
  const variables = model.trainableVariables();
  if (variables.length === 0) throw new Error('the model is frozen: nothing to train');
  const rng = createRng(config.seed);
  const sampleRng = rng.fork('sample');
  const shuffleRng = rng.fork('minibatch');
  const vec = createVecEnv(makeEnv, config.num_envs, rng.fork('env'));
  const starting = new Uint8Array(config.num_envs).fill(1); // every env starts on a fresh episode
  const optimizer = adam(config.learning_rate, ADAM_EPSILON);
  let lastRollout: Rollout | undefined;
  let lastEpisode = { 'episode/return_mean': 0, 'episode/length_mean': 0, 'episode/success_rate': 0 };
  let globalStep = 0; // CleanRL's global_step: environment steps taken so far
  let engine: PpoEngine | null | undefined; // the fused kernel, null for tfjs; undefined until the first step decides
  const fusedSettings = { ...config, adam_epsilon: ADAM_EPSILON };

  /** Rollout arrays → device tensors [N·T, …], with GAE advantages (whitened if asked) and returns. */
  function prepare(r: Rollout) {
    return tf.tidy(() => {
      const NT: [number, number] = [r.numEnvs, r.numSteps];
      const values = tf.tensor2d(r.values, NT);
      const { advantages, returns } = gae({
        rewards: tf.tensor2d(r.rewards, NT),
        values,
        gamma: config.gamma,
        lam: config.lam,
        dones: tf.tensor2d(r.starts, NT),
        nextValue: tf.tensor1d(r.nextValue),
        nextDone: tf.tensor1d(r.nextStart),
      }); // [N, T]
      const adv = config.whiten_advantages ? maskedWhiten(advantages, tf.onesLike(advantages)) : advantages;
      return {
        obs: tf.tensor2d(r.obs, [batchSize, model.config.obs_dim]),
        // int32 oneHot then cast: oneHot straight to float32 is wrong on wasm.
        actions: tf.cast(tf.oneHot(tf.tensor1d(r.actions, 'int32'), model.config.n_actions), 'float32'), // [N·T, A]
        logprobs: tf.tensor1d(r.logprobs),
        values: tf.reshape(values, [-1]),
        advantages: tf.reshape(adv, [-1]),
        returns: tf.reshape(returns, [-1]),
      };
    });
  }

  /** One clipped PPO update on the rows `idx` of the rollout; returns the stats [6] (kept) and the grad norm. */
  function update(data: ReturnType<typeof prepare>, idx: tf.Tensor1D, timer: StepTimer): { stats: tf.Tensor1D; gradNorm: tf.Scalar } {
    let stats!: tf.Tensor1D;
    const gradNorm = optimizerStep(optimizer, variables, config.max_grad_norm, () => {
      const row = <T extends tf.Tensor>(t: T) => tf.gather(t, idx); // constants only: no gather gradient needed
      const minibatch = ppoMinibatchLoss(model, config, {
        obs: row(data.obs) as tf.Tensor2D,
        actions: row(data.actions) as tf.Tensor2D,
        logprobs: row(data.logprobs) as tf.Tensor1D,
        values: row(data.values) as tf.Tensor1D,
        advantages: row(data.advantages) as tf.Tensor1D,
        returns: row(data.returns) as tf.Tensor1D,
      });
      stats = tf.keep(minibatch.stats);
      return minibatch.loss;
    }, timer);
    return { stats, gradNorm };
  }

  async function rolloutWith(policy: PolicyAndValue, timer: StepTimer): Promise<Rollout> {
    const r = await timer.timeAsync('rollout', () => collectRollout(policy, vec, config.num_steps, config.gamma, sampleRng, starting));
    lastRollout = r;
    globalStep += batchSize;
    return r;
  }

  /** Each epoch's shuffle of the rollout's rows, cut into num_mini_batches minibatches: the same draws on both paths. */
  function* minibatches(): Generator<Int32Array> {
    for (let epoch = 0; epoch < config.num_ppo_epochs; epoch++) {
      const order = Int32Array.from(shuffleRng.shuffle(Array.from({ length: batchSize }, (_, i) => i)));
      for (let m = 0; m < config.num_mini_batches; m++) yield order.subarray(m * miniBatch, (m + 1) * miniBatch);
    }
  }

  /** The step through tfjs: the rollout, then each minibatch update as tfjs kernels. The averaged stats [7]. */
  async function tfjsUpdates(timer: StepTimer): Promise<Float32Array> {
    const r = await rolloutWith(tfjsPolicyAndValue(model), timer);
    const data = prepare(r);
    const perStep: tf.Tensor[] = [];
    for (const rows of minibatches()) {
      const idx = tf.tensor1d(rows, 'int32');
      const { stats, gradNorm } = update(data, idx, timer);
      perStep.push(tf.tidy(() => tf.concat([stats, tf.reshape(gradNorm, [1])])));
      tf.dispose([idx, stats, gradNorm]);
    }
    const meansT = tf.tidy(() => tf.mean(tf.stack(perStep), 0)); // [7]: averages over all minibatch updates
    const means = (await meansT.data()) as Float32Array;
    tf.dispose([meansT, ...perStep, ...Object.values(data)]);
    return means;
  }

  /**
   * The same step in the fused kernel: the same rollout code and rng draws, GAE on arrays, then each minibatch update as
   * one pass through the kernel, and the weights written back to the model once at the end.
   */
  async function fusedUpdates(engine: PpoEngine, timer: StepTimer): Promise<Float32Array> {
    engine.pull();
    const r = await rolloutWith(engine.policyAndValue, timer);
    const { advantages, returns } = gaeOnArrays({ rewards: r.rewards, values: r.values, dones: r.starts, nextValue: r.nextValue, nextDone: r.nextStart, gamma: config.gamma, lam: config.lam });
    engine.loadRollout({
      obs: r.obs,
      actions: r.actions,
      logprobs: r.logprobs,
      values: r.values,
      advantages: Float32Array.from(config.whiten_advantages ? whitenArray(advantages) : advantages),
      returns: Float32Array.from(returns),
    });
    const sums = new Float64Array(UPDATE_STATS.length);
    let updates = 0;
    for (const rows of minibatches()) {
      engine.update(rows, timer).forEach((x, i) => (sums[i] += x));
      updates++;
    }
    engine.push();
    return Float32Array.from(sums, (x) => x / updates);
  }

  function episodeMetrics(r: Rollout): Metrics {
    const eps = r.episodes;
    if (eps.length > 0) {
      const mean = (f: (e: (typeof eps)[number]) => number) => eps.reduce((s, e) => s + f(e), 0) / eps.length;
      lastEpisode = { 'episode/return_mean': mean((e) => e.return), 'episode/length_mean': mean((e) => e.length), 'episode/success_rate': mean((e) => Number(e.success)) };
    } // else carry the last values: a rollout with no finished episode says nothing new
    return { ...lastEpisode, 'episode/count': eps.length, 'episode/truncated': r.truncations };
  }

  async function policyMap(): Promise<PolicyMap> {
    if (config.env_id !== 'gridworld') throw new Error(`policyMap() needs the grid world, not ${config.env_id}`);
    const env = makeGrid();
    const cells = Array.from({ length: env.rows * env.cols }, (_, i) => env.observe([Math.floor(i / env.cols), i % env.cols]));
    const out = tf.tidy(() => {
      const { logits, values } = model.forward(tf.tensor2d(cells.flatMap((c) => [...c]), [cells.length, env.obsDim]));
      return tf.concat([tf.softmax(logits), tf.reshape(values, [-1, 1])], 1); // [cells, A + 1]
    });
    try {
      const rows = (await out.array()) as number[][];
      return { probs: rows.map((row) => row.slice(0, -1)), values: rows.map((row) => row[row.length - 1]) };
    } finally {
      out.dispose();
    }
  }

  return {
    config,
    model,
    get lastRollout() {
      return lastRollout;
    },
    get fused() {
      return engine === undefined ? undefined : engine !== null;
    },
    makeEnv,

    trainStep: () =>
      inTensorScope(async (): Promise<Metrics> => {
        const timer = new StepTimer();
        // The first step picks the path for the whole run, so a run's numbers never mix the two.
        if (engine === undefined) engine = wasmFastPaths() ? await openPpoEngine(model, fusedSettings) : null;
        const means = engine ? await fusedUpdates(engine, timer) : await tfjsUpdates(timer);
        const metrics: Metrics = Object.fromEntries(STATS.map((name, i) => [name, means[i]]));
        return {
          ...metrics,
          grad_norm: means[STATS.length],
          ...episodeMetrics(lastRollout!),
          global_step: globalStep,
          ...timer.metrics(),
        };
      }),

    evaluate: () =>
      inTensorScope(async (): Promise<Metrics> => {
        return episodeEvalMetrics(await greedyEpisodes(model, makeEnv, config.eval_episodes, createRng(config.seed).fork('eval')));
      }),

    /** The grid drawn with the policy; CartPole has nothing to draw. */
    inspect: async () => (config.env_id === 'gridworld' ? policyMap() : null),
    save: () => saveWeights(model),

    policyMap,

    dispose() {
      engine?.dispose();
      optimizer.dispose();
      if (!opts.model) model.dispose();
    },
  };
}

/** For the registry: PPO from a saved actor-critic, or a fresh one from the seed. */
export const ppoFactory: TrainerFactory<typeof ppoSchema, PolicyMap> = async (init, overrides) => {
  const config = resolve(ppoSchema, overrides);
  if (init === null) return createPpoTrainer(config);
  return ownModel(loadActorCritic(init), (model) => createPpoTrainer(config, { model }));
};
