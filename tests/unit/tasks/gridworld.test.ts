import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { createGridWorld, createVecEnv, GRID_MAPS, parseMap } from '@/lib/tasks/gridworld';

const [UP, RIGHT, DOWN, LEFT] = [0, 1, 2, 3];
/** The agent's cell, read from its one-hot observation. */
const cellOf = (obs: Float32Array, cols: number) => [Math.floor(obs.indexOf(1) / cols), obs.indexOf(1) % cols];

describe('grid world', () => {
  const map = ['....', '.#..', 'S.LG']; // 3×4: wall at (1,1), lava at (2,2), goal at (2,3)

  it('parses maps and rejects broken ones', () => {
    expect(parseMap(map).start).toEqual([2, 0]);
    expect(parseMap(GRID_MAPS['5x5']).cells[4][2]).toBe('lava');
    expect(() => parseMap(['..', '...'])).toThrow(/rectangle/);
    expect(() => parseMap(['S.x', '..G'])).toThrow(/unknown map cell 'x'/);
    expect(() => parseMap(['...', '..G'])).toThrow(/exactly one S/);
    expect(() => parseMap(['S..', '...'])).toThrow(/needs a G/);
  });

  it('moves, stops at edges and walls, and charges the step cost', () => {
    const env = createGridWorld({ map, step_cost: 0.01 });
    expect(env.obsDim).toBe(12);
    expect(env.nActions).toBe(4);
    const obs0 = env.reset(createRng(1));
    expect(cellOf(obs0, 4)).toEqual([2, 0]);
    expect([...obs0].reduce((a, b) => a + b)).toBe(1);
    let s = env.step(LEFT); // edge: stays
    expect(cellOf(s.obs, 4)).toEqual([2, 0]);
    expect(s).toMatchObject({ reward: -0.01, done: false, truncated: false });
    s = env.step(DOWN); // edge
    expect(cellOf(s.obs, 4)).toEqual([2, 0]);
    s = env.step(UP);
    expect(cellOf(s.obs, 4)).toEqual([1, 0]);
    s = env.step(RIGHT); // wall at (1,1): stays
    expect(cellOf(s.obs, 4)).toEqual([1, 0]);
    s = env.step(UP);
    s = env.step(RIGHT);
    expect(cellOf(s.obs, 4)).toEqual([0, 1]);
    const r = env.render();
    expect(r.agent).toEqual([0, 1]);
    expect(r.path).toEqual([[2, 0], [2, 0], [2, 0], [1, 0], [1, 0], [0, 0], [0, 1]]);
    expect(r.steps).toBe(6);
    expect(r.return).toBeCloseTo(-0.06, 10);
    expect(r.cells[1][1]).toBe('wall');
  });

  it('ends with +1 on the goal and −1 in lava', () => {
    const env = createGridWorld({ map });
    env.reset(createRng(1));
    for (const a of [UP, UP, RIGHT, RIGHT, RIGHT, DOWN]) expect(env.step(a).done).toBe(false);
    expect(env.step(DOWN)).toMatchObject({ reward: 1, done: true, truncated: false, success: true });
    expect(() => env.step(UP)).toThrow(/episode is over/);
    env.reset(createRng(1));
    env.step(RIGHT);
    expect(env.step(RIGHT)).toMatchObject({ reward: -1, done: true, success: false });
    expect(env.render().over).toBe(true);
  });

  it('truncates at the time limit (not a terminal state)', () => {
    const env = createGridWorld({ map, max_episode_steps: 3 });
    env.reset(createRng(1));
    expect(env.step(LEFT).truncated).toBe(false);
    expect(env.step(LEFT).truncated).toBe(false);
    expect(env.step(LEFT)).toMatchObject({ done: false, truncated: true, success: false });
    // Reaching the goal on the last allowed step is termination, not truncation.
    const short = createGridWorld({ map: ['SG'], max_episode_steps: 1 });
    short.reset(createRng(1));
    expect(short.step(RIGHT)).toMatchObject({ done: true, truncated: false });
  });

  it('slips with the seeded rng: same seed, same path', () => {
    const walk = (seed: number) => {
      const env = createGridWorld({ map: GRID_MAPS['5x5'], slip: 0.5, max_episode_steps: 30 });
      env.reset(createRng(seed));
      for (let i = 0; i < 30 && !env.render().over; i++) env.step(UP);
      return env.render().path;
    };
    expect(walk(3)).toEqual(walk(3));
    expect(walk(3)).not.toEqual(walk(4));
    expect(walk(3).some(([, c], i, p) => i > 0 && c !== p[i - 1][1])).toBe(true); // some slip moved sideways
  });
});

describe('vectorised grid worlds', () => {
  it('steps N envs at once and auto-resets finished ones, reporting their episodes', () => {
    const make = () => createGridWorld({ map: ['S.G'], max_episode_steps: 2 });
    const vec = createVecEnv(make, 3, createRng(0));
    expect(vec.obs).toEqual(new Float32Array([1, 0, 0, 1, 0, 0, 1, 0, 0]));
    let s = vec.step([RIGHT, LEFT, UP]);
    expect([...s.obs]).toEqual([0, 1, 0, 1, 0, 0, 1, 0, 0]);
    expect(s.finished).toEqual([]);
    s = vec.step([RIGHT, LEFT, RIGHT]);
    // env 0 reached G: terminated, reset to S. env 1: truncated at S. env 2: truncated at the middle cell.
    expect([...s.rewards].map((r) => +r.toFixed(2))).toEqual([1, -0.01, -0.01]);
    expect([...s.dones]).toEqual([1, 0, 0]);
    expect([...s.truncated]).toEqual([0, 1, 1]);
    expect([...s.obs]).toEqual([1, 0, 0, 1, 0, 0, 1, 0, 0]);
    expect([...s.finalObs.keys()]).toEqual([1, 2]);
    expect([...s.finalObs.get(2)!]).toEqual([0, 1, 0]);
    expect(s.finished.map((e) => [e.env, +e.return.toFixed(2), e.length, e.success])).toEqual([
      [0, 0.99, 2, true],
      [1, -0.02, 2, false],
      [2, -0.02, 2, false],
    ]);
  });

  it('is deterministic given the seed', () => {
    const run = (seed: number) => {
      const vec = createVecEnv(() => createGridWorld({ map: GRID_MAPS['5x5'], slip: 0.3 }), 4, createRng(seed));
      const rng = createRng('actions');
      const log: number[] = [];
      for (let t = 0; t < 50; t++) log.push(...vec.step([0, 1, 2, 3].map(() => rng.int(4))).rewards);
      return log;
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });
});
