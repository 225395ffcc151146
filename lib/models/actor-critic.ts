import * as tf from '@tensorflow/tfjs';
import { createRng } from '@/lib/random';
import { dense } from './ops';
import { createParamStore } from './params';

/**
 * A small MLP actor-critic for classic-control PPO: a shared trunk obs → hidden (tanh) → two heads,
 * policy logits [B, n_actions] and value [B]. Init follows CleanRL's PPO: hidden std √2/√in, policy head small
 * (0.01) so the first policy is near uniform, value head 1/√in.
 */
export interface ActorCriticConfig {
  obs_dim: number;
  n_actions: number;
  /** Widths of the shared hidden layers. Default [64, 64]. */
  hidden_sizes?: number[];
  /** Default 'tanh' (the PPO standard for small control tasks). */
  activation?: 'tanh' | 'relu';
}

export interface ActorCritic {
  readonly kind: 'actor-critic';
  readonly config: Required<ActorCriticConfig>;
  readonly frozen: boolean;
  /** obs float32 [B, obs_dim] → logits [B, n_actions], values [B]. */
  forward(obs: tf.Tensor2D): { logits: tf.Tensor2D; values: tf.Tensor1D };
  namedWeights(): ReadonlyMap<string, tf.Variable>;
  trainableVariables(): tf.Variable[];
  allVariables(): tf.Variable[];
  paramCount(): number;
  /** An independent frozen copy. */
  clone(): ActorCritic;
  dispose(): void;
}

export function createActorCritic(config: ActorCriticConfig, seed: number, opts: { frozen?: boolean } = {}): ActorCritic {
  const c: Required<ActorCriticConfig> = { hidden_sizes: [64, 64], activation: 'tanh', ...config };
  for (const [k, v] of [['obs_dim', c.obs_dim], ['n_actions', c.n_actions], ...c.hidden_sizes.map((h) => ['hidden_sizes[]', h] as const)] as const) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`ActorCriticConfig.${k} must be a positive integer, got ${v}`);
  }
  const frozen = opts.frozen ?? false;
  const rng = createRng(seed);
  const store = createParamStore();
  const layer = (name: string, inDim: number, outDim: number, std: number) => ({
    W: store.create(`${name}.W`, [inDim, outDim], { kind: 'normal', std }, rng, !frozen) as tf.Variable<tf.Rank.R2>,
    b: store.create(`${name}.b`, [outDim], { kind: 'zeros' }, rng, !frozen),
  });
  const dims = [c.obs_dim, ...c.hidden_sizes];
  const trunk = c.hidden_sizes.map((h, i) => layer(`trunk.${i}`, dims[i], h, Math.SQRT2 / Math.sqrt(dims[i])));
  const last = dims[dims.length - 1];
  const policy = layer('policy', last, c.n_actions, 0.01);
  const value = layer('value', last, 1, 1 / Math.sqrt(last));

  const all = () => [...store.named.values()];
  const model: ActorCritic = {
    kind: 'actor-critic',
    config: c,
    frozen,
    forward: (obs) =>
      tf.tidy(() => {
        let h = obs;
        for (const l of trunk) {
          h = c.activation === 'relu' ? dense(h, l.W, l.b, 'relu') : tf.tanh(dense(h, l.W, l.b)); // [B, hidden]
        }
        return {
          logits: dense(h, policy.W, policy.b), // [B, A]
          values: tf.reshape(dense(h, value.W, value.b), [-1]) as tf.Tensor1D, // [B]
        };
      }),
    namedWeights: () => store.named,
    trainableVariables: () => all().filter((v) => v.trainable),
    allVariables: all,
    paramCount: () => all().reduce((s, v) => s + v.size, 0),
    clone: () => {
      const copy = createActorCritic(c, 1, { frozen: true });
      copy.namedWeights().forEach((v, name) => v.assign(store.get(name)));
      return copy;
    },
    dispose: () => store.dispose(),
  };
  return model;
}
