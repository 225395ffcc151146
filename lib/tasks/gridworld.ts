import type { Rng } from '@/lib/random';

/**
 * A tiny grid world for PPO, pure JS (no tfjs) so it steps identically everywhere and a lab can draw it.
 * The agent walks from S to G; lava ends the episode with −1, the goal with +1, every other step costs a little.
 * The observation is the one-hot index of the agent's cell: the goal and lava never move, so the position is
 * the whole Markov state (time is not in it: the time limit is a truncation, see the PPO trainer).
 */

/** What every environment offers the PPO rollout (CartPole implements it too). */
export interface Env<R = unknown> {
  readonly obsDim: number;
  readonly nActions: number;
  /** Starts an episode; `rng` drives everything random in it (grid: slips; CartPole: the start state). */
  reset(rng: Rng): Float32Array;
  step(action: number): StepResult;
  /** Plain data for a canvas: no drawing code here. */
  render(): R;
}

export interface StepResult {
  obs: Float32Array;
  reward: number;
  /** Terminated: the episode reached a terminal state (goal, lava). Nothing is bootstrapped past it. */
  done: boolean;
  /** Cut by the time limit: the state is not terminal, so its value still counts (the trainer bootstraps). */
  truncated: boolean;
  /** On the last step of an episode: whether it counts as solved (reached the goal; CartPole: lasted). */
  success?: boolean;
}

export type Cell = 'empty' | 'wall' | 'lava' | 'goal' | 'start';
export type Pos = readonly [row: number, col: number];

/** Up, right, down, left: action a moves by MOVES[a] = [Δrow, Δcol]. */
export const ACTIONS = ['up', 'right', 'down', 'left'] as const;
const MOVES: readonly Pos[] = [[-1, 0], [0, 1], [1, 0], [0, -1]];

/**
 * Maps as text, one string per row: S start, G goal, L lava, # wall, . empty.
 * '5x5' (default): lava on the straight path from S to G, so the safe way steps round it (6 steps, return 0.95);
 * a random walk reaches G in ~8% of episodes. 'pocket': G in a pocket behind two lava cells (~3% at random);
 * PPO often settles for hiding away from the lava first, a local optimum it only escapes by exploring.
 * 'cliff': Sutton & Barto's cliff walk (Example 6.6) shrunk to 4×7, the whole edge between S and G is lava.
 */
export const GRID_MAPS = {
  '5x5': ['.....', '.....', '.....', '.....', 'S.L.G'],
  pocket: ['.....', '.....', '.....', '..L..', 'S.L.G'],
  cliff: ['.......', '.......', '.......', 'SLLLLLG'],
} as const;
export type GridMapName = keyof typeof GRID_MAPS;

export interface GridWorldConfig {
  map: readonly string[];
  /** What a step that ends neither on the goal nor in lava costs: its reward is −step_cost. Default 0.01. */
  step_cost?: number;
  /** Steps before truncation. Default 40. */
  max_episode_steps?: number;
  /** Probability that the chosen action is replaced by a uniformly random one. Default 0 (deterministic). */
  slip?: number;
}

export interface GridRender {
  rows: number;
  cols: number;
  /** cells[r][c] */
  cells: Cell[][];
  agent: Pos;
  /** Cells visited this episode, start first. */
  path: Pos[];
  steps: number;
  /** Return so far this episode. */
  return: number;
  over: boolean;
}

const CODES: Record<string, Cell> = { '.': 'empty', '#': 'wall', L: 'lava', G: 'goal', S: 'start' };

export function parseMap(map: readonly string[]): { cells: Cell[][]; start: Pos } {
  const cols = map[0]?.length ?? 0;
  if (map.length === 0 || cols === 0 || map.some((row) => row.length !== cols)) throw new Error('grid map must be a non-empty rectangle');
  const cells = map.map((row, r) =>
    [...row].map((ch, c) => {
      if (!(ch in CODES)) throw new Error(`unknown map cell '${ch}' at row ${r}, col ${c} (use . # L G S)`);
      return CODES[ch];
    }),
  );
  const starts = cells.flatMap((row, r) => row.flatMap((cell, c) => (cell === 'start' ? [[r, c] as const] : [])));
  if (starts.length !== 1) throw new Error(`grid map needs exactly one S, found ${starts.length}`);
  if (!cells.some((row) => row.includes('goal'))) throw new Error('grid map needs a G');
  return { cells, start: starts[0] };
}

export interface GridWorld extends Env<GridRender> {
  readonly rows: number;
  readonly cols: number;
  /** One-hot observation of a cell (for policy maps: query every cell in one forward pass). */
  observe(pos: Pos): Float32Array;
}

export function createGridWorld(config: GridWorldConfig): GridWorld {
  const { cells, start } = parseMap(config.map);
  const stepCost = config.step_cost ?? 0.01;
  const maxSteps = config.max_episode_steps ?? 40;
  const slip = config.slip ?? 0;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new Error(`max_episode_steps must be a positive integer, got ${maxSteps}`);
  if (!(slip >= 0 && slip <= 1)) throw new Error(`slip must be in [0, 1], got ${slip}`);
  const rows = cells.length;
  const cols = cells[0].length;
  const observe = ([r, c]: Pos) => {
    const obs = new Float32Array(rows * cols);
    obs[r * cols + c] = 1;
    return obs;
  };

  let rng: Rng | null = null;
  let pos: Pos = start;
  let path: Pos[] = [start];
  let steps = 0;
  let ret = 0;
  let over = false;

  return {
    obsDim: rows * cols,
    nActions: MOVES.length,
    rows,
    cols,
    observe,
    reset(r) {
      rng = r;
      [pos, path, steps, ret, over] = [start, [start], 0, 0, false];
      return observe(pos);
    },
    step(action) {
      if (!rng) throw new Error('call reset() before step()');
      if (over) throw new Error('episode is over: call reset()');
      if (!Number.isInteger(action) || action < 0 || action >= MOVES.length) throw new Error(`action must be 0..3, got ${action}`);
      // Draw the slip coin on every step (even when slip = 0) so the random stream does not depend on `slip`.
      const slipped = rng.next() < slip;
      const a = slipped ? rng.int(MOVES.length) : action;
      const [r, c] = [pos[0] + MOVES[a][0], pos[1] + MOVES[a][1]];
      // Walls and edges: the agent stays put (and still pays the step cost).
      if (r >= 0 && r < rows && c >= 0 && c < cols && cells[r][c] !== 'wall') pos = [r, c];
      steps += 1;
      path.push(pos);
      const cell = cells[pos[0]][pos[1]];
      const reward = cell === 'goal' ? 1 : cell === 'lava' ? -1 : -stepCost;
      const done = cell === 'goal' || cell === 'lava';
      const truncated = !done && steps >= maxSteps;
      ret += reward;
      over = done || truncated;
      return { obs: observe(pos), reward, done, truncated, success: over ? cell === 'goal' : undefined };
    },
    render: () => ({ rows, cols, cells: cells.map((row) => [...row]), agent: pos, path: [...path], steps, return: ret, over }),
  };
}

/** An episode that ended during a VecEnv step. */
export interface FinishedEpisode {
  env: number;
  return: number;
  length: number;
  /** The episode's last StepResult.success. */
  success: boolean;
}

export interface VecStep {
  /** [N · obsDim] row-major: after an auto-reset, the new episode's first observation. */
  obs: Float32Array;
  rewards: Float32Array;
  dones: Uint8Array;
  truncated: Uint8Array;
  /** For envs that truncated: the observation the episode was cut at (its value is bootstrapped). */
  finalObs: Map<number, Float32Array>;
  finished: FinishedEpisode[];
}

export interface VecEnv {
  readonly num: number;
  readonly obsDim: number;
  readonly nActions: number;
  /** The current observations, [N · obsDim]: a live view, updated in place by step(); copy it to keep it. */
  readonly obs: Float32Array;
  step(actions: ArrayLike<number>): VecStep;
  readonly envs: readonly Env[];
}

/**
 * N environments stepped together, so the policy runs one forward pass per time step for all of them. An env whose
 * episode ends is reset at once (auto-reset, as Gymnasium's vector envs), each with its own forked rng.
 */
export function createVecEnv(make: () => Env, num: number, rng: Rng): VecEnv {
  if (!Number.isInteger(num) || num < 1) throw new Error(`num envs must be a positive integer, got ${num}`);
  const envs = Array.from({ length: num }, make);
  const rngs = envs.map((_, i) => rng.fork(`env-${i}`));
  const { obsDim, nActions } = envs[0];
  const obs = new Float32Array(num * obsDim);
  envs.forEach((env, i) => obs.set(env.reset(rngs[i]), i * obsDim));
  const returns = new Float64Array(num);
  const lengths = new Int32Array(num);
  return {
    num,
    obsDim,
    nActions,
    obs,
    envs,
    step(actions) {
      const out: Omit<VecStep, 'obs'> = { rewards: new Float32Array(num), dones: new Uint8Array(num), truncated: new Uint8Array(num), finalObs: new Map(), finished: [] };
      envs.forEach((env, i) => {
        const s = env.step(actions[i]);
        returns[i] += s.reward;
        lengths[i] += 1;
        out.rewards[i] = s.reward;
        out.dones[i] = s.done ? 1 : 0;
        out.truncated[i] = s.truncated ? 1 : 0;
        if (s.done || s.truncated) {
          out.finished.push({ env: i, return: returns[i], length: lengths[i], success: s.success ?? false });
          if (s.truncated) out.finalObs.set(i, s.obs);
          returns[i] = 0;
          lengths[i] = 0;
          obs.set(env.reset(rngs[i]), i * obsDim);
        } else obs.set(s.obs, i * obsDim);
      });
      return { ...out, obs: obs.slice() };
    },
  };
}
