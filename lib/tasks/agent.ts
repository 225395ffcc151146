/**
 * The agent lab's task: products a tiny model cannot do in its head but can do with a calculator.
 *
 *   prompt        "<bos>347*6="                     a 3-digit number times a digit (hard), or "007*6=" (easy)
 *   with the tool "[347*6]=2082 #### 2082<eos>"     the policy writes "[347*6]", the calculator answers "=2082"
 *   without       "#### 2082<eos>"                  the policy answers from memory
 *
 * Easy problems (a one-digit first factor) are the 80 facts of the times table: a model can learn them by heart, so
 * a call there only costs time (see the tool_cost preset). Hard problems are split into train and held-out by a
 * hash, as in arithmetic.ts; easy ones are not held out (you cannot generalise to a fact you never saw).
 * Model-free, like every task: the model and its rollouts live in lib/models.
 */
import type { Rng } from '@/lib/random';
import { hash32 } from './arithmetic';
import { createCalculatorEnv, replayEpisode, toolStats, type ToolEnvironment } from './environment';
import { correctnessReward, formatReward, type RewardContext, type RewardFunction } from './rewards';
import { AGENT_CHARS, createCharTokenizer, type CharTokenizer } from './tokenizer';

export interface AgentProblem {
  a: number;
  b: number;
  easy: boolean;
  /** "347*6=" (without BOS). */
  prompt: string;
  /** "347*6": what the calculator should be asked. */
  expression: string;
  answer: string;
}

export interface AgentTaskConfig {
  /** Share of easy problems (a < 10) in test samples and in the test set (training samples: a little more). */
  easy_fraction: number;
  /** Share of hard problems held out (by hash). */
  held_out_fraction: number;
  split_seed: number;
}

export const DEFAULT_AGENT_TASK: AgentTaskConfig = { easy_fraction: 0.25, held_out_fraction: 0.1, split_seed: 0 };

export interface AgentTask {
  readonly config: AgentTaskConfig;
  readonly tokenizer: CharTokenizer;
  /** Prompt tokens, BOS included (the same for every problem). */
  readonly promptLength: number;
  /** Longest demonstration in tokens, tool call, result and EOS included. */
  readonly maxCompletionLength: number;
  isHeldOut(p: AgentProblem): boolean;
  sample(split: 'train' | 'test', n: number, rng: Rng): AgentProblem[];
  /** n held-out problems in a fixed order, easy_fraction of them easy (the evaluation set). */
  testSet(n: number): AgentProblem[];
  encodePrompt(p: AgentProblem): number[];
  /** A demonstration for SFT: with the tool, the call then the answer; without, the answer alone. Mask 0 on the tool's tokens. */
  demonstration(p: AgentProblem, env: ToolEnvironment, useTool: boolean): { completion: number[]; mask: number[] };
}

const HARD_FIRST = 100; // hard: a in 100..999
const B_VALUES = [2, 3, 4, 5, 6, 7, 8, 9];

/** The problem a × b as the task writes it: a padded to 3 digits, "007*6=" for 7 × 6. */
export function agentProblem(a: number, b: number): AgentProblem {
  const expression = `${String(a).padStart(3, '0')}*${b}`;
  return { a, b, easy: a < 10, prompt: `${expression}=`, expression, answer: String(a * b) };
}

export function createAgentTask(overrides: Partial<AgentTaskConfig> = {}): AgentTask {
  const config = { ...DEFAULT_AGENT_TASK, ...overrides };
  if (!(config.easy_fraction >= 0 && config.easy_fraction <= 1)) throw new Error('easy_fraction must be in [0, 1]');
  if (!(config.held_out_fraction > 0 && config.held_out_fraction < 1)) throw new Error('held_out_fraction must be in (0, 1)');
  const tokenizer = createCharTokenizer(AGENT_CHARS);
  const isHeldOut = (p: AgentProblem) => !p.easy && hash32(`${p.a}*${p.b}|${config.split_seed}`) / 2 ** 32 < config.held_out_fraction;
  const draw = (rng: Rng, easy: boolean) => agentProblem(easy ? rng.int(10) : HARD_FIRST + rng.int(1000 - HARD_FIRST), B_VALUES[rng.int(B_VALUES.length)]);

  return {
    config,
    tokenizer,
    promptLength: 1 + '347*6='.length,
    maxCompletionLength: '[999*9]=8991 #### 8991'.length + 1,
    isHeldOut,
    sample(split, n, rng) {
      const out: AgentProblem[] = [];
      while (out.length < n) {
        let p = draw(rng, rng.next() < config.easy_fraction);
        if (split === 'test') {
          // Redraw hard problems until one is held out, so the sample keeps easy_fraction easy (as testSet does).
          while (!p.easy && !isHeldOut(p)) p = draw(rng, false);
        } else if (!p.easy && isHeldOut(p)) {
          continue; // training never sees a held-out problem; this leaves easy ones ~27% of the stream, not 25%
        }
        out.push(p);
      }
      return out;
    },
    testSet(n) {
      const easy: AgentProblem[] = [];
      const hard: AgentProblem[] = [];
      const wantEasy = Math.round(n * config.easy_fraction);
      // Every problem once, in a fixed scrambled order (stride 7919, a prime, modulo the number of problems).
      const total = 1000 * B_VALUES.length;
      for (let i = 0, k = 0; i < total && (easy.length < wantEasy || hard.length < n - wantEasy); i++, k = (k + 7919) % total) {
        const p = agentProblem(k % 1000, B_VALUES[Math.floor(k / 1000)]);
        if (p.easy) {
          if (easy.length < wantEasy) easy.push(p);
        } else if (p.a >= HARD_FIRST && isHeldOut(p) && hard.length < n - wantEasy) hard.push(p);
      }
      if (easy.length + hard.length < n) throw new Error(`testSet(${n}): only ${easy.length + hard.length} problems are available`);
      // Interleave so that any prefix has about the same mix.
      return [...hard, ...easy].sort((x, y) => hash32(x.prompt) - hash32(y.prompt));
    },
    encodePrompt: (p) => [tokenizer.bos, ...tokenizer.encode(p.prompt)],
    demonstration: (p, env, useTool) => replayEpisode(env, tokenizer, `${useTool ? `[${p.expression}] ` : ''}#### ${p.answer}`),
  };
}

/** The calculator as the agent lab configures it. */
export function agentEnvironment(task: AgentTask, maxCalls: number): ToolEnvironment {
  return createCalculatorEnv(task.tokenizer, { maxCalls });
}

/** −1 per tool call: with a weight w, each call costs w (the tool_cost preset). */
export const toolCallCount: RewardFunction = (completions) => completions.map((c) => -toolStats(c).calls);

/** The agent's reward functions, TRL-style, by name. Correctness and format read the text after "####". */
export const AGENT_REWARDS: Record<'correctness' | 'format' | 'tool_cost', RewardFunction> = {
  correctness: correctnessReward,
  format: formatReward,
  tool_cost: toolCallCount,
};

/** Episode statistics for the logs: TRL's tools/call_frequency and tools/failure_frequency, and turns. */
export function episodeStats(texts: string[], context?: RewardContext) {
  const stats = texts.map((t) => toolStats(t));
  const calls = stats.reduce((s, x) => s + x.calls, 0);
  const failures = stats.reduce((s, x) => s + x.failures, 0);
  const correct = context ? correctnessReward(texts, context) : [];
  return {
    perEpisode: stats,
    /** Calls per episode (TRL: tools/call_frequency). */
    callFrequency: calls / texts.length,
    /** Failed calls over calls (TRL: tools/failure_frequency); 0 when there were no calls. */
    failureFrequency: calls > 0 ? failures / calls : 0,
    /** Share of episodes with at least one call. */
    callRate: stats.filter((s) => s.calls > 0).length / texts.length,
    meanTurns: stats.reduce((s, x) => s + x.turns, 0) / texts.length,
    correct,
  };
}
