import * as tf from '@tensorflow/tfjs';
import type { Rng } from '@/lib/random';

/** How a weight starts. Values are drawn in JS from a seeded {@link Rng}, so init is identical on every backend. */
export type Init =
  | { kind: 'normal'; std: number }
  | { kind: 'uniform'; limit: number }
  | { kind: 'zeros' }
  | { kind: 'ones' };

export function initValues(shape: number[], init: Init, rng: Rng): Float32Array {
  const n = shape.reduce((a, b) => a * b, 1);
  const out = new Float32Array(n);
  if (init.kind === 'ones') out.fill(1);
  else if (init.kind === 'normal') for (let i = 0; i < n; i++) out[i] = init.std * rng.normal();
  else if (init.kind === 'uniform') for (let i = 0; i < n; i++) out[i] = init.limit * (2 * rng.next() - 1);
  return out;
}

/**
 * The named weights of one model, in creation order. Names are our own ('blocks.0.qkv.W'); tfjs variable names are
 * left automatic because tfjs requires them to be unique across the whole engine (two models would clash).
 */
export interface ParamStore {
  create(name: string, shape: number[], init: Init, rng: Rng, trainable: boolean): tf.Variable;
  /** Adds a variable holding a copy of `value` (used by clone). */
  createFrom(name: string, value: tf.Tensor, trainable: boolean): tf.Variable;
  get(name: string): tf.Variable;
  readonly named: ReadonlyMap<string, tf.Variable>;
  dispose(): void;
}

export function createParamStore(): ParamStore {
  const named = new Map<string, tf.Variable>();
  const add = (name: string, v: tf.Variable) => {
    if (named.has(name)) throw new Error(`duplicate weight name '${name}'`);
    named.set(name, v);
    return v;
  };
  return {
    create: (name, shape, init, rng, trainable) =>
      add(name, tf.tidy(() => tf.variable(tf.tensor(initValues(shape, init, rng), shape, 'float32'), trainable))),
    // tf.variable shares its initial value's buffer (tfjs tensors are immutable and assign() swaps buffers, so a
    // shared buffer is safe); tidy frees the temporary tensor object.
    createFrom: (name, value, trainable) => add(name, tf.tidy(() => tf.variable(value.clone(), trainable))),
    get: (name) => {
      const v = named.get(name);
      if (!v) throw new Error(`no weight named '${name}'`);
      return v;
    },
    named,
    dispose: () => {
      named.forEach((v) => v.dispose());
      named.clear();
    },
  };
}
