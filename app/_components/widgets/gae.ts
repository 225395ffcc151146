// GaeCalculator's logic, shared by the server (build-time default) and the browser (live edits): parse
// the trajectory the reader typed, then ask the numeric face for the advantages and returns.
import type { NumericFace } from './numeric-protocol';

export const MAX_STEPS = 12;
const MAX_ABS = 1000; // keeps the sums well inside float32

export interface GaeInputs {
  rewards: string;
  values: string;
  /** dones[t] = 1: step t begins a new episode. */
  dones: string;
  nextValue: string;
  nextDone: boolean;
  gamma: number;
  lam: number;
}

export const DEFAULT_GAE: GaeInputs = {
  rewards: '0, 0, 1, 0, 1',
  values: '0.5, 0.6, 0.8, 0.4, 0.7',
  dones: '0, 0, 0, 1, 0',
  nextValue: '0',
  nextDone: true,
  gamma: 0.99,
  lam: 0.95,
};

export type GaeField = 'rewards' | 'values' | 'dones' | 'nextValue' | 'gamma' | 'lam';

export interface GaeArgs {
  rewards: number[];
  values: number[];
  dones: number[];
  nextValue: number;
  nextDone: boolean;
  gamma: number;
  lam: number;
}

export type ParsedGae = { ok: true; args: GaeArgs } | { ok: false; errors: Partial<Record<GaeField, string>> };

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const tokens = (text: string) => text.replace(/\u2212/g, '-').split(/[\s,;]+/).filter(Boolean);

/** One comma-separated list of numbers, or the message explaining what is wrong with it. */
function parseList(text: string, what: string): number[] | string {
  const ts = tokens(text);
  if (ts.length === 0) return `Enter the ${what}, one per step, separated by commas.`;
  const bad = ts.find((t) => !NUMBER.test(t));
  if (bad !== undefined) return `"${bad}" is not a number. Separate the ${what} with commas.`;
  if (ts.length > MAX_STEPS) return `At most ${MAX_STEPS} steps; you entered ${ts.length} ${what}.`;
  const xs = ts.map(Number);
  if (xs.some((v) => Math.abs(v) > MAX_ABS)) return `Keep the ${what} between −${MAX_ABS} and ${MAX_ABS}.`;
  return xs;
}

export function parseGae(inputs: GaeInputs): ParsedGae {
  const errors: Partial<Record<GaeField, string>> = {};
  const rewards = parseList(inputs.rewards, 'rewards');
  const values = parseList(inputs.values, 'values');
  const dones = parseList(inputs.dones, 'dones');
  if (typeof rewards === 'string') errors.rewards = rewards;
  if (typeof values === 'string') errors.values = values;
  else if (typeof rewards !== 'string' && values.length !== rewards.length) {
    errors.values = `Lengths differ: ${values.length} values for ${rewards.length} rewards. Give one value V(s_t) per step.`;
  }
  if (typeof dones === 'string') errors.dones = dones;
  else {
    const t = dones.findIndex((d) => d !== 0 && d !== 1);
    if (t >= 0) errors.dones = `dones must be 0 or 1; step ${t} has ${dones[t]}.`;
    else if (typeof rewards !== 'string' && dones.length !== rewards.length) {
      errors.dones = `Lengths differ: ${dones.length} dones for ${rewards.length} rewards. Give one 0/1 per step.`;
    }
  }
  const nv = inputs.nextValue.trim().replace(/\u2212/g, '-');
  if (!NUMBER.test(nv)) errors.nextValue = nv === '' ? 'Enter nextValue, e.g. 0.' : `"${nv}" is not a number.`;
  else if (Math.abs(Number(nv)) > MAX_ABS) errors.nextValue = `Keep nextValue between −${MAX_ABS} and ${MAX_ABS}.`;
  for (const k of ['gamma', 'lam'] as const) {
    const v = inputs[k];
    if (!(v >= 0 && v <= 1)) errors[k] = `${k} must be between 0 and 1.`;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    args: {
      rewards: rewards as number[],
      values: values as number[],
      dones: dones as number[],
      nextValue: Number(nv),
      nextDone: inputs.nextDone,
      gamma: inputs.gamma,
      lam: inputs.lam,
    },
  };
}

export interface GaeRow {
  t: number;
  reward: number;
  value: number;
  done: number;
  /** V_{t+1} as used in δ_t: the next step's value, or nextValue after the last step. */
  nextV: number;
  /** 1 − done_{t+1}: 0 where the episode ends after step t, so nothing is bootstrapped. */
  notDoneNext: number;
  delta: number;
  advantage: number;
  ret: number;
}

export interface GaeTable {
  rows: GaeRow[];
  gamma: number;
  lam: number;
  nextValue: number;
  nextDone: boolean;
}

/** A_t and R_t from the numeric face; δ_t, for display only, in plain JS with the same rule. */
export async function computeGae(face: NumericFace, a: GaeArgs): Promise<GaeTable> {
  const { advantages, returns } = await face.gae({
    rewards: a.rewards,
    values: a.values,
    gamma: a.gamma,
    lam: a.lam,
    dones: a.dones,
    nextValue: a.nextValue,
    nextDone: a.nextDone,
  });
  const T = a.rewards.length;
  const rows = a.rewards.map((reward, t): GaeRow => {
    const last = t === T - 1;
    const nextV = last ? a.nextValue : a.values[t + 1];
    const notDoneNext = 1 - (last ? Number(a.nextDone) : a.dones[t + 1]);
    return {
      t,
      reward,
      value: a.values[t],
      done: a.dones[t],
      nextV,
      notDoneNext,
      delta: reward + a.gamma * nextV * notDoneNext - a.values[t],
      advantage: advantages[t],
      ret: returns[t],
    };
  });
  return { rows, gamma: a.gamma, lam: a.lam, nextValue: a.nextValue, nextDone: a.nextDone };
}

/** A number as typed (or to `digits` places), with a real minus sign and no "−0.000". */
export function plain(x: number, digits?: number): string {
  const s = digits === undefined ? String(x) : x.toFixed(digits);
  return Number(s) === 0 ? s.replace('-', '') : s.replace('-', '\u2212');
}
