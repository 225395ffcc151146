/**
 * PPO's data collection: N envs × T steps with the current policy, one forward pass and one read-back per time
 * step, actions sampled in JS with a seeded rng (tf.multinomial differs per backend). Also greedy evaluation.
 */
import * as tf from '@tensorflow/tfjs';
import type { ActorCritic } from '@/lib/models/actor-critic';
import type { Rng } from '@/lib/random';
import type { Env, FinishedEpisode, VecEnv } from '@/lib/tasks/gridworld';

/** One rollout, env-major: entry b·T + t is env b at time t, so [N, T] tensors need no transpose. */
export interface Rollout {
  numEnvs: number;
  numSteps: number;
  /** [N·T, obsDim] the observation the action was chosen from. */
  obs: Float32Array;
  /** [N·T] */
  actions: Int32Array;
  /** [N·T] log π_old(a_t | s_t) at sampling time. */
  logprobs: Float32Array;
  /** [N·T] V_old(s_t). */
  values: Float32Array;
  /** [N·T] r_t, plus γ·V(s_final) where the episode was truncated at t (see below). */
  rewards: Float32Array;
  /** [N·T] 1 where step t begins a new episode (GAE's `dones`: nothing is bootstrapped across it). */
  starts: Float32Array;
  /** [N] V(s_T) of the observation after the last step, and whether it begins a new episode. */
  nextValue: Float32Array;
  nextStart: Float32Array;
  /** Episodes that ended during this rollout. */
  episodes: FinishedEpisode[];
  /** How many of them were cut by the time limit. */
  truncations: number;
}

/** log π(· | obs) [B, A] and V(obs) [B] for a batch of B observations [B, obsDim]. */
export type PolicyAndValue = (obs: Float32Array, B: number) => Promise<{ logp: Float32Array; values: Float32Array }>;

/** The model's policy and value through tfjs: one forward pass, read back in one transfer. */
export const tfjsPolicyAndValue = (model: ActorCritic): PolicyAndValue => (obs, B) => policyAndValue(model, obs, B);

async function policyAndValue(model: ActorCritic, obs: Float32Array, B: number): Promise<{ logp: Float32Array; values: Float32Array }> {
  const A = model.config.n_actions;
  const out = tf.tidy(() => {
    const { logits, values } = model.forward(tf.tensor2d(obs, [B, model.config.obs_dim]));
    return tf.concat([tf.logSoftmax(logits), tf.reshape(values, [B, 1])], 1); // [B, A + 1]
  });
  const data = (await out.data()) as Float32Array;
  out.dispose();
  const logp = new Float32Array(B * A);
  const values = new Float32Array(B);
  for (let b = 0; b < B; b++) {
    logp.set(data.subarray(b * (A + 1), b * (A + 1) + A), b * A);
    values[b] = data[b * (A + 1) + A];
  }
  return { logp, values };
}

/** Inverse-CDF sample from log-probabilities (renormalised: float32 probabilities do not sum to exactly 1). */
function sample(logp: Float32Array, rng: Rng): number {
  let total = 0;
  for (const l of logp) total += Math.exp(l);
  let u = rng.next() * total;
  for (let a = 0; a < logp.length; a++) {
    u -= Math.exp(logp[a]);
    if (u < 0) return a;
  }
  return logp.length - 1;
}

/**
 * Collects T steps from every env. Truncation (the time limit) is not termination: the state is not terminal, the
 * agent just ran out of time. So, as Pardo et al. (2018) "Time Limits in RL" and Gymnasium advise, the value of
 * the observation it was cut at is bootstrapped by folding γ·V(s_final) into that step's reward, while GAE still
 * treats the step as an episode end (the next row entry belongs to a fresh episode). All the V(s_final) and the
 * V(s_T) for the last bootstrap come from one extra forward pass after the loop (the weights do not change during
 * a rollout). `starts` tracks, per env, whether its current observation begins an episode across rollouts.
 */
export async function collectRollout(policy: PolicyAndValue, vec: VecEnv, numSteps: number, gamma: number, rng: Rng, starting: Uint8Array): Promise<Rollout> {
  const [N, T, D, A] = [vec.num, numSteps, vec.obsDim, vec.nActions];
  const r: Rollout = {
    numEnvs: N,
    numSteps: T,
    obs: new Float32Array(N * T * D),
    actions: new Int32Array(N * T),
    logprobs: new Float32Array(N * T),
    values: new Float32Array(N * T),
    rewards: new Float32Array(N * T),
    starts: new Float32Array(N * T),
    nextValue: new Float32Array(N),
    nextStart: new Float32Array(N),
    episodes: [],
    truncations: 0,
  };
  const cut: { at: number; obs: Float32Array }[] = []; // truncated steps and the observation they stopped at
  const actions = new Int32Array(N);
  for (let t = 0; t < T; t++) {
    const { logp, values } = await policy(vec.obs, N);
    for (let b = 0; b < N; b++) {
      const i = b * T + t;
      r.obs.set(vec.obs.subarray(b * D, (b + 1) * D), i * D);
      const lp = logp.subarray(b * A, (b + 1) * A);
      actions[b] = sample(lp, rng);
      r.actions[i] = actions[b];
      r.logprobs[i] = lp[actions[b]];
      r.values[i] = values[b];
      r.starts[i] = starting[b];
    }
    const s = vec.step(actions);
    for (let b = 0; b < N; b++) {
      r.rewards[b * T + t] = s.rewards[b];
      starting[b] = s.dones[b] || s.truncated[b] ? 1 : 0;
    }
    s.finalObs.forEach((obs, b) => cut.push({ at: b * T + t, obs }));
    r.episodes.push(...s.finished);
  }
  // One forward for V(s_T) of every env and V(s_final) of every truncated episode: [N + K, obsDim].
  const batch = new Float32Array((N + cut.length) * D);
  batch.set(vec.obs);
  cut.forEach((c, k) => batch.set(c.obs, (N + k) * D));
  const { values } = await policy(batch, N + cut.length);
  r.nextValue.set(values.subarray(0, N));
  r.nextStart.set(starting);
  cut.forEach((c, k) => (r.rewards[c.at] += gamma * values[N + k]));
  r.truncations = cut.length;
  return r;
}

/** The evaluation metrics of greedy episodes: mean return, success rate and length. */
export function episodeEvalMetrics(eps: FinishedEpisode[]): Record<'eval/return' | 'eval/success_rate' | 'eval/length', number> {
  const mean = (f: (e: FinishedEpisode) => number) => eps.reduce((s, e) => s + f(e), 0) / eps.length;
  return { 'eval/return': mean((e) => e.return), 'eval/success_rate': mean((e) => Number(e.success)), 'eval/length': mean((e) => e.length) };
}

/**
 * Greedy (argmax) episodes, one per env, run side by side until all end. Fresh envs from `make`, each reset with
 * its own fork of `rng`, so the same rng seed gives the same evaluation episodes every time.
 */
export async function greedyEpisodes(model: ActorCritic, make: () => Env, episodes: number, rng: Rng): Promise<FinishedEpisode[]> {
  const envs = Array.from({ length: episodes }, make);
  const D = envs[0].obsDim;
  const A = envs[0].nActions;
  const obs = envs.map((env, i) => env.reset(rng.fork(`eval-${i}`)));
  const ret = new Array<number>(episodes).fill(0);
  const done: FinishedEpisode[] = [];
  let active = envs.map((_, i) => i);
  for (let len = 1; active.length > 0; len++) {
    const batch = new Float32Array(active.length * D);
    active.forEach((i, j) => batch.set(obs[i], j * D));
    const { logp } = await policyAndValue(model, batch, active.length);
    active = active.filter((i, j) => {
      const lp = logp.subarray(j * A, (j + 1) * A);
      const s = envs[i].step(lp.indexOf(Math.max(...lp))); // first best on ties
      ret[i] += s.reward;
      obs[i] = s.obs;
      if (!(s.done || s.truncated)) return true;
      done.push({ env: i, return: ret[i], length: len, success: s.success ?? false });
      return false;
    });
  }
  return done.sort((a, b) => a.env - b.env);
}
