import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { createCartPole, THETA_THRESHOLD } from '@/lib/tasks/cartpole';
import { createVecEnv } from '@/lib/tasks/gridworld';

describe('CartPole', () => {
  it('starts near upright, in [−0.05, 0.05), the same for the same seed', () => {
    const env = createCartPole();
    expect([env.obsDim, env.nActions]).toEqual([4, 2]);
    const obs = env.reset(createRng(3));
    obs.forEach((v) => expect(Math.abs(v)).toBeLessThanOrEqual(0.05));
    expect(createCartPole().reset(createRng(3))).toEqual(obs);
  });

  it('one Euler step matches the Gymnasium equations computed by hand', () => {
    const env = createCartPole();
    const rng = { ...createRng(0), next: () => 0.5 }; // 0.1 · 0.5 − 0.05 = 0: start exactly upright and still
    expect([...env.reset(rng)]).toEqual([0, 0, 0, 0]);
    // From rest, push right: temp = 10 / 1.1, θ̈ = −temp / (0.5 (4/3 − 0.1/1.1)), ẍ = temp − 0.05 θ̈ / 1.1.
    const temp = 10 / 1.1;
    const thetaAcc = -temp / (0.5 * (4 / 3 - 0.1 / 1.1));
    const xAcc = temp - (0.05 * thetaAcc) / 1.1;
    const s = env.step(1);
    expect(s.reward).toBe(1);
    expect(s.obs[0]).toBe(0); // x moves with the old velocity (0)
    expect(s.obs[1]).toBeCloseTo(0.02 * xAcc, 6);
    expect(s.obs[2]).toBe(0);
    expect(s.obs[3]).toBeCloseTo(0.02 * thetaAcc, 6);
    expect(s.obs[1]).toBeCloseTo(0.195122, 5);
    expect(s.obs[3]).toBeCloseTo(-0.292683, 5);
  });

  it('terminates when the pole falls (reward 1 on that step too) and truncates at the limit', () => {
    const env = createCartPole();
    env.reset(createRng(1));
    let s = env.step(1);
    for (let i = 0; i < 200 && !s.done; i++) s = env.step(1); // always right: falls in a few dozen steps
    expect(s).toMatchObject({ done: true, truncated: false, reward: 1, success: false });
    expect(Math.abs(env.render().theta)).toBeGreaterThan(THETA_THRESHOLD);
    expect(() => env.step(0)).toThrow(/episode is over/);

    const short = createCartPole({ max_episode_steps: 3 });
    short.reset(createRng(1));
    short.step(0);
    short.step(1);
    expect(short.step(0)).toMatchObject({ done: false, truncated: true, success: true });
  });

  it('vectorises like the grid world', () => {
    const vec = createVecEnv(() => createCartPole(), 4, createRng(0));
    let finished = 0;
    for (let t = 0; t < 100; t++) finished += vec.step([1, 1, 0, 0]).finished.length;
    expect(finished).toBeGreaterThan(4); // constant pushes fall over repeatedly and auto-reset
    expect(vec.obs).toHaveLength(16);
  });
});
