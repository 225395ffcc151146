import type { Rng } from '@/lib/random';
import type { Env, StepResult } from './gridworld';

/**
 * CartPole with the classic Barto, Sutton & Anderson (1983) dynamics, constants and Euler step as Gymnasium's
 * CartPole-v1: push the cart left (0) or right (1) with 10 N; +1 per step, including the step that drops the pole;
 * the episode terminates when |θ| > 12° or |x| > 2.4, and is truncated after max_episode_steps (500 in v1).
 * Observation [x, ẋ, θ, θ̇], unnormalised as in Gymnasium. Pure JS, double precision.
 */

const GRAVITY = 9.8;
const MASS_CART = 1.0;
const MASS_POLE = 0.1;
const TOTAL_MASS = MASS_CART + MASS_POLE;
const HALF_LENGTH = 0.5; // Gymnasium's `length` is half the pole's length
const POLE_MASS_LENGTH = MASS_POLE * HALF_LENGTH;
const FORCE_MAG = 10.0;
const TAU = 0.02; // seconds per step
export const THETA_THRESHOLD = (12 * 2 * Math.PI) / 360;
export const X_THRESHOLD = 2.4;

export interface CartPoleRender {
  x: number;
  theta: number;
  /** For scaling the drawing: the cart may move in [−xThreshold, xThreshold]. */
  xThreshold: number;
  thetaThreshold: number;
  steps: number;
  over: boolean;
}

export interface CartPoleConfig {
  /** Default 500, as CartPole-v1. */
  max_episode_steps?: number;
}

export function createCartPole(config: CartPoleConfig = {}): Env<CartPoleRender> {
  const maxSteps = config.max_episode_steps ?? 500;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new Error(`max_episode_steps must be a positive integer, got ${maxSteps}`);
  let state = [0, 0, 0, 0];
  let steps = 0;
  let over = true;
  let started = false;
  const obs = () => Float32Array.from(state);

  return {
    obsDim: 4,
    nActions: 2,
    reset(rng: Rng) {
      state = state.map(() => 0.1 * rng.next() - 0.05); // uniform in [−0.05, 0.05), as Gymnasium
      [steps, over, started] = [0, false, true];
      return obs();
    },
    step(action): StepResult {
      if (!started) throw new Error('call reset() before step()');
      if (over) throw new Error('episode is over: call reset()');
      if (action !== 0 && action !== 1) throw new Error(`action must be 0 or 1, got ${action}`);
      const [x, xDot, theta, thetaDot] = state;
      const force = action === 1 ? FORCE_MAG : -FORCE_MAG;
      const cos = Math.cos(theta);
      const sin = Math.sin(theta);
      const temp = (force + POLE_MASS_LENGTH * thetaDot * thetaDot * sin) / TOTAL_MASS;
      const thetaAcc = (GRAVITY * sin - cos * temp) / (HALF_LENGTH * (4.0 / 3.0 - (MASS_POLE * cos * cos) / TOTAL_MASS));
      const xAcc = temp - (POLE_MASS_LENGTH * thetaAcc * cos) / TOTAL_MASS;
      // Explicit Euler, Gymnasium's default kinematics_integrator.
      state = [x + TAU * xDot, xDot + TAU * xAcc, theta + TAU * thetaDot, thetaDot + TAU * thetaAcc];
      steps += 1;
      const done = Math.abs(state[0]) > X_THRESHOLD || Math.abs(state[2]) > THETA_THRESHOLD;
      const truncated = !done && steps >= maxSteps;
      over = done || truncated;
      return { obs: obs(), reward: 1, done, truncated, success: over ? truncated : undefined };
    },
    render: () => ({ x: state[0], theta: state[2], xThreshold: X_THRESHOLD, thetaThreshold: THETA_THRESHOLD, steps, over }),
  };
}
