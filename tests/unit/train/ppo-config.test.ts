import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createActorCritic } from '@/lib/models/actor-critic';
import { ConfigError, defaults, resolve } from '@/lib/train/config';
import { ppoPresets, ppoSchema } from '@/lib/train/ppo-config';
import { createPpoTrainer } from '@/lib/train/ppo-trainer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('PPO config', () => {
  it('gives every field a default inside its own range and a one-line reason', () => {
    expect(() => resolve(ppoSchema, {})).not.toThrow();
    for (const [key, field] of Object.entries(ppoSchema)) {
      expect(field.reason.length, key).toBeGreaterThan(10);
      expect(field.reason, key).not.toMatch(/\n/);
    }
    expect(defaults(ppoSchema)).toMatchObject({ cliprange: 0.2, gamma: 0.99, lam: 0.95, num_ppo_epochs: 4, whiten_advantages: true });
  });

  it('reports every bad field at once', () => {
    try {
      resolve(ppoSchema, { cliprange: 0, num_envs: 2.5, gamma: 1.5, whiten_advantages: 'yes', grid_map: '9x9', kl_coef: 0.05 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(6);
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/unknown field "kl_coef"/),
          'cliprange must be in (0, 1000000], got 0',
          'num_envs must be an integer, got 2.5',
          'gamma must be in [0, 1], got 1.5',
          'whiten_advantages must be true or false, got "yes"',
          expect.stringMatching(/^grid_map must be one of 5x5 \| pocket \| cliff/),
        ]),
      );
    }
  });

  it('every preset resolves, and the failure presets change what they claim', () => {
    for (const [name, preset] of Object.entries(ppoPresets)) {
      expect(() => resolve(ppoSchema, preset.overrides), name).not.toThrow();
      expect(preset.description.length, name).toBeGreaterThan(10);
    }
    expect(ppoPresets.default.overrides).toEqual({});
    expect(ppoPresets.no_clipping.overrides).toMatchObject({ cliprange: 1e6, cliprange_value: 1e6 });
    expect(ppoPresets.lr_too_high.overrides.learning_rate).toBeGreaterThan(10 * ppoSchema.learning_rate.default);
  });

  it('the trainer validates its config and its model', () => {
    expect(() => createPpoTrainer({ learning_rate: -1 })).toThrow(ConfigError);
    expect(() => createPpoTrainer({ num_envs: 1, num_steps: 2, num_mini_batches: 2 })).toThrow(/too small for 2 minibatches/);
    const wrong = createActorCritic({ obs_dim: 4, n_actions: 4 }, 1);
    expect(() => createPpoTrainer({}, { model: wrong })).toThrow(/model is 4 → 4, the env needs 25 → 4/);
    const frozen = createActorCritic({ obs_dim: 25, n_actions: 4 }, 1, { frozen: true });
    expect(() => createPpoTrainer({}, { model: frozen })).toThrow(/frozen/);
    tf.dispose([wrong, frozen].flatMap((m) => m.allVariables()));
  });
});
