import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createActorCritic } from '@/lib/models/actor-critic';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('MLP actor-critic', () => {
  const cfg = { obs_dim: 4, n_actions: 3, hidden_sizes: [16, 16] };

  it('maps obs [B, obs_dim] to logits [B, A] and values [B]', () => {
    const m = createActorCritic(cfg, 1);
    const { logits, values } = m.forward(tf.ones([5, 4]) as tf.Tensor2D);
    expect(logits.shape).toEqual([5, 3]);
    expect(values.shape).toEqual([5]);
    tf.dispose([logits, values]);
    m.dispose();
  });

  it('counts parameters by hand and starts near a uniform policy', () => {
    const m = createActorCritic(cfg, 1);
    expect(m.paramCount()).toBe(4 * 16 + 16 + 16 * 16 + 16 + 16 * 3 + 3 + 16 + 1);
    const probs = tf.tidy(() => tf.softmax(m.forward(tf.randomNormal([8, 4], 0, 1, 'float32', 3) as tf.Tensor2D).logits).arraySync()) as number[][];
    probs.flat().forEach((p) => expect(p).toBeCloseTo(1 / 3, 1));
    m.dispose();
  });

  it('trains without leaking, and clone() is a frozen independent copy', async () => {
    const m = createActorCritic(cfg, 2);
    const ref = m.clone();
    expect(ref.trainableVariables()).toHaveLength(0);
    const obs = tf.tensor2d([[0.1, 0.2, 0.3, 0.4], [-1, 0, 1, 0]]);
    const opt = tf.train.adam(0.01);
    const step = () =>
      opt.minimize(() => {
        const { logits, values } = m.forward(obs);
        return tf.add(tf.mean(tf.square(tf.sub(values, 1))), tf.mean(logits)) as tf.Scalar;
      }, true, m.trainableVariables())!;
    step().dispose();
    const n = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) step().dispose();
    expect(tf.memory().numTensors).toBe(n);
    const v = tf.tidy(() => [m.forward(obs).values.arraySync(), ref.forward(obs).values.arraySync()]);
    expect(v[0]).not.toEqual(v[1]);
    tf.dispose(obs);
    opt.dispose();
    m.dispose();
    ref.dispose();
  });
});
