// AdvantageCalculator's logic, shared by the server (build-time default) and the browser (live edits):
// parse what the reader typed, then ask the numeric face for the advantages under each scale_rewards.
import { SCALE_REWARDS, type ScaleRewards } from '@/lib/rl/choices';
import type { NumericFace } from './numeric-protocol';

export const DEFAULT_REWARDS = '1, 0, 0, 0; 1, 1, 0, 1';
export const MAX_REWARDS = 16;
const MAX_ABS_REWARD = 1000; // keeps squares well inside float32
export const SCALES = SCALE_REWARDS;

export type Parsed = { ok: true; groups: number[][] } | { ok: false; error: string };

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** "1, 0, 0, 1" is one group; "1, 0; 1, 1" is two groups (prompts) of num_generations = 2 each. */
export function parseRewards(text: string): Parsed {
  const fail = (error: string): Parsed => ({ ok: false, error });
  const parts = text.replace(/\u2212/g, '-').split(';');
  if (parts.length > 1 && parts[parts.length - 1].trim() === '') parts.pop(); // a trailing ";" while typing
  const groups: number[][] = [];
  for (const [g, part] of parts.entries()) {
    const tokens = part.split(/[\s,]+/).filter(Boolean);
    if (tokens.length === 0) {
      return fail(parts.length === 1 ? 'Enter the rewards of one group, e.g. 1, 0, 0, 1.' : `Group ${g + 1} is empty.`);
    }
    const bad = tokens.find((t) => !NUMBER.test(t));
    if (bad !== undefined) return fail(`"${bad}" is not a number. Separate rewards with commas and groups with ";".`);
    const values = tokens.map(Number);
    if (values.some((v) => Math.abs(v) > MAX_ABS_REWARD)) return fail(`Keep rewards between −${MAX_ABS_REWARD} and ${MAX_ABS_REWARD}.`);
    groups.push(values);
  }
  const total = groups.reduce((n, g) => n + g.length, 0);
  if (total > MAX_REWARDS) return fail(`At most ${MAX_REWARDS} rewards in all; you entered ${total}.`);
  if (groups.some((g) => g.length < 2)) {
    return fail('Each group needs at least two rewards: GRPO scores an answer against the others for the same prompt.');
  }
  const sizes = [...new Set(groups.map((g) => g.length))];
  if (sizes.length > 1) {
    return fail(`Every group needs the same number of rewards (num_generations); you entered groups of ${sizes.join(' and ')}.`);
  }
  return { ok: true, groups };
}

export interface GroupStats {
  mean: number;
  /** Unbiased (n − 1), as TRL's torch.std. */
  std: number;
}

export interface AdvantageTable {
  groups: number[][];
  /** One entry per reward, groups concatenated, for each scale_rewards option. */
  advantages: Record<ScaleRewards, number[]>;
  stats: GroupStats[];
  batch: GroupStats;
}

// For display only; the advantages themselves come from the numeric face.
function stats(xs: number[]): GroupStats {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const ss = xs.reduce((a, x) => a + (x - mean) ** 2, 0);
  return { mean, std: Math.sqrt(ss / Math.max(xs.length - 1, 1)) };
}

export async function computeAdvantages(face: NumericFace, groups: number[][]): Promise<AdvantageTable> {
  const rewards = groups.flat();
  const numGenerations = groups[0].length;
  const results = await Promise.all(SCALES.map((scaleRewards) => face.grpoAdvantages({ rewards, numGenerations, scaleRewards })));
  const advantages = Object.fromEntries(SCALES.map((s, i) => [s, results[i].advantages])) as Record<ScaleRewards, number[]>;
  return { groups, advantages, stats: groups.map(stats), batch: stats(rewards) };
}

/** "+0.866", "−0.866" or "0.000": a sign in the text, so colour is never the only cue. */
export function signed(x: number, digits = 3): { text: string; sign: -1 | 0 | 1 } {
  const s = Math.abs(x).toFixed(digits);
  if (Number(s) === 0) return { text: s, sign: 0 };
  return x > 0 ? { text: `+${s}`, sign: 1 } : { text: `\u2212${s}`, sign: -1 };
}
