import { nextTokenProbs, sampleToken, type SamplingConfig } from '@/lib/models/generate';
import type { CausalLM } from '@/lib/models/tiny-lm';
import type { Rng } from '@/lib/random';
import type { ToolEnvironment } from './environment';

/**
 * Multi-turn rollouts: like `generate`, but after each policy token the environment may append an observation.
 * Rows diverge in length as observations arrive; each step still does one forward pass and one read-back for the
 * whole batch (rows are right-padded, see nextTokenProbs).
 */

export interface EpisodeConfig extends SamplingConfig {
  /** Tokens after the prompt at most, policy and environment together (EOS included). */
  max_completion_length: number;
  eos_id: number;
  pad_id: number;
}

export interface EpisodeBatch {
  /** [B][max_completion_length] policy and environment tokens, PAD after the end. */
  completions: number[][];
  /** [B][max_completion_length] 1 where the policy chose the token (EOS included): the loss mask.
   * 0 for environment tokens and padding. */
  completionMask: number[][];
  /** [B][max_completion_length] 1 where the environment inserted the token. */
  observationMask: number[][];
  /** Tokens per row, both kinds. */
  lengths: number[];
  /** Whether the row ended with EOS (false: it ran out of room). */
  finished: boolean[];
  /** Observations appended per row (tool calls answered). */
  toolCalls: number[];
}

export async function rolloutEpisodes(
  model: CausalLM,
  prompts: number[][],
  env: ToolEnvironment,
  config: EpisodeConfig,
  rng: Rng,
): Promise<EpisodeBatch> {
  const M = config.max_completion_length;
  const longest = Math.max(...prompts.map((p) => p.length));
  if (longest + M - 1 > model.config.context_length) {
    throw new Error(`prompt (${longest}) + max_completion_length (${M}) − 1 exceeds context_length ${model.config.context_length}`);
  }
  const V = model.config.vocab_size;
  const B = prompts.length;
  const rows = prompts.map((p) => [...p]);
  const comp: number[][] = prompts.map(() => []);
  const policy: number[][] = prompts.map(() => []);
  const out: EpisodeBatch = {
    completions: [],
    completionMask: [],
    observationMask: [],
    lengths: new Array(B).fill(0),
    finished: new Array(B).fill(false),
    toolCalls: new Array(B).fill(0),
  };
  let active = prompts.map((_, i) => i);
  while (active.length > 0) {
    const probs = await nextTokenProbs(model, active.map((i) => rows[i]), config.temperature ?? 1, config.pad_id);
    active.forEach((i, j) => {
      const { token } = sampleToken(probs.subarray(j * V, (j + 1) * V), rng, config);
      comp[i].push(token);
      policy[i].push(1);
      if (token === config.eos_id) {
        out.finished[i] = true;
        return;
      }
      const obs = comp[i].length < M ? env.respond(comp[i]) : null;
      if (obs && obs.length > 0) {
        const room = obs.slice(0, M - comp[i].length); // an observation is cut at the length limit
        comp[i].push(...room);
        policy[i].push(...room.map(() => 0));
        out.toolCalls[i]++;
      }
    });
    active.forEach((i) => (rows[i] = [...prompts[i], ...comp[i]]));
    active = active.filter((i) => !out.finished[i] && comp[i].length < M);
  }
  for (let i = 0; i < B; i++) {
    const n = comp[i].length;
    out.lengths[i] = n;
    out.completions.push([...comp[i], ...new Array(M - n).fill(config.pad_id)]);
    out.completionMask.push([...policy[i], ...new Array(M - n).fill(0)]);
    out.observationMask.push([...policy[i].map((m) => 1 - m), ...new Array(M - n).fill(0)]);
  }
  return out;
}
