/**
 * What chapter 1's MDP stepper shows, as plain data, and the few helpers the page needs before the episode logic
 * (mdp-episode.ts, with the task, the calculator and the sampler) is loaded: that module is fetched on the reader's
 * first action, and this one is all the page hydrates with.
 */

/**
 * The lab's settings that shape an episode. The page gets them from the server (mdp-rules.ts reads the lab's
 * config there), so that the config's schema, with its reasons, stays out of the page's JavaScript.
 */
export interface MdpRules {
  /** Calls the calculator answers per episode; one more ends it (max_tool_calling_iterations). */
  maxCalls: number;
  /** Tokens after the prompt at most, the calculator's included (max_completion_length). */
  maxCompletion: number;
  /** Reward weights (the lab's default tool cost is 0, so it is left out). */
  weights: { correctness: number; format: number };
}

export type EndReason = 'eos' | 'length' | 'environment';

/** The end of an episode as the table shows it. */
export interface EndView {
  reason: EndReason;
  correctness: number;
  format: number;
  reward: number;
}

export interface Segment {
  role: 'prompt' | 'policy' | 'observation';
  text: string;
}

export interface Turn {
  role: 'policy' | 'observation';
  text: string;
  /** For the policy's turns: the product of its tokens' probabilities. */
  prob?: number;
}

/** One row of the table: an action a_t, or the observation the environment appended after one. */
export type ViewRow =
  | { kind: 'action'; t: number; state: Segment[]; token: string; prob: number; call: { text: string; prob: number } | null }
  | { kind: 'observation'; t: number; text: string };

/** An episode, ready to show. */
export interface EpisodeView {
  /** Actions taken so far: the current state is s_T. */
  actions: number;
  /** Tokens in the current state, BOS included. */
  stateTokens: number;
  /** The current state by who wrote each part. */
  now: Segment[];
  rows: ViewRow[];
  /** r_t for every action taken. */
  rewards: number[];
  end: EndView | null;
  turns: Turn[];
}

/** G_t = r_t + γ G_{t+1} with G_T = 0, computed backwards. */
export function discountedReturns(rewards: readonly number[], gamma: number): number[] {
  const out = new Array<number>(rewards.length);
  let next = 0;
  for (let t = rewards.length - 1; t >= 0; t--) out[t] = next = rewards[t] + gamma * next;
  return out;
}

/** Up to four decimals, trailing zeros dropped: 1.1, 0.891, 0.2795. */
export const fmt = (x: number) => String(Number(x.toFixed(4)));

/** A probability: three decimals, or two significant digits below 0.001. */
export const fmtProb = (p: number) => (p >= 0.001 || p === 0 ? p.toFixed(3) : p.toExponential(1));

export interface ProblemChoice {
  /** The select's value. */
  value: string;
  label: string;
}

/** The seed field: a whole number from 0 to 999,999,999, or a message saying what is wrong. */
export function parseSeed(text: string): { ok: true; seed: number } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (!/^\d{1,9}$/.test(trimmed)) return { ok: false, error: 'The seed must be a whole number from 0 to 999999999.' };
  return { ok: true, seed: Number(trimmed) };
}
