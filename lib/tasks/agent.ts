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
 * agent-two-step.ts is the other agent task (two operations, two calls), behind the same AgentTask interface.
 * Model-free, like every task: the model and its rollouts live in lib/models.
 */
import type { Rng } from '@/lib/random';
import { hash32 } from './arithmetic';
import { CALCULATOR_ERROR, createCalculatorEnv, replayEpisode, toolStats, type ToolEnvironment } from './environment';
import { correctnessReward, formatReward, type RewardContext, type RewardFunction } from './rewards';
import { AGENT_CHARS, createCharTokenizer, type CharTokenizer } from './tokenizer';

export interface AgentProblem {
  a: number;
  b: number;
  easy: boolean;
  /** "347*6=" (without BOS). */
  prompt: string;
  /** "347*6": what the calculator should be asked first. */
  expression: string;
  answer: string;
  /** The calls that solve it, in order: ["347*6"], or ["347*6", "2082+58"] for "347*6+58=" (the two-step task). */
  plan: string[];
  /** The memory task's (agent-memory.ts): what the environment says after the first turn, and the key it asks about. */
  memory?: { observation: string; asked: string };
}

/**
 * The agent lab's tasks: products (one call solves one), two operations (two calls, the second using the first's
 * result), or memory (facts that leave the window before the question; agent-memory.ts).
 */
export const AGENT_TASKS = ['product', 'two_step', 'memory'] as const;
export type AgentTaskKind = (typeof AGENT_TASKS)[number];

export interface AgentTaskConfig {
  /** Share of easy problems (a < 10) in test samples and in the test set (training samples: a little more). */
  easy_fraction: number;
  /** Share of hard problems held out (by hash). */
  held_out_fraction: number;
  split_seed: number;
}

export const DEFAULT_AGENT_TASK: AgentTaskConfig = { easy_fraction: 0.25, held_out_fraction: 0.1, split_seed: 0 };

export interface AgentTask {
  readonly kind: AgentTaskKind;
  readonly config: AgentTaskConfig;
  readonly tokenizer: CharTokenizer;
  /** Prompt tokens, BOS included (the same for every problem). */
  readonly promptLength: number;
  /** Longest demonstration in tokens, tool calls, results and EOS included (no failed call). */
  readonly maxCompletionLength: number;
  /** Operations the calculator answers per call (more get the error reply): any for products, 1 for two steps. */
  readonly maxOperations: number;
  isHeldOut(p: AgentProblem): boolean;
  sample(split: 'train' | 'test', n: number, rng: Rng): AgentProblem[];
  /** n held-out problems in a fixed order, easy_fraction of them easy (the evaluation set). */
  testSet(n: number): AgentProblem[];
  encodePrompt(p: AgentProblem): number[];
  /**
   * A demonstration for SFT: with the tool, the plan's calls then the answer; without, the answer alone. With
   * `failure`, call number `failure.call` of the plan fails ("=?"), and the demonstration makes it again (retry) or
   * answers from memory at once (gives up). Mask 0 on the tool's tokens.
   */
  demonstration(p: AgentProblem, env: ToolEnvironment, useTool: boolean, failure?: DemoFailure): { completion: number[]; mask: number[] };
}

/** A failed call in a demonstration: which call of the plan fails, and whether the demonstrator calls it again. */
export interface DemoFailure {
  call: number;
  retry: boolean;
}

const HARD_FIRST = 100; // hard: a in 100..999
const B_VALUES = [2, 3, 4, 5, 6, 7, 8, 9];

/** The problem a × b as the task writes it: a padded to 3 digits, "007*6=" for 7 × 6. */
export function agentProblem(a: number, b: number): AgentProblem {
  const expression = `${String(a).padStart(3, '0')}*${b}`;
  return { a, b, easy: a < 10, prompt: `${expression}=`, expression, answer: String(a * b), plan: [expression] };
}

export function createAgentTask(overrides: Partial<AgentTaskConfig> = {}): AgentTask {
  const config = { ...DEFAULT_AGENT_TASK, ...overrides };
  if (!(config.easy_fraction >= 0 && config.easy_fraction <= 1)) throw new Error('easy_fraction must be in [0, 1]');
  if (!(config.held_out_fraction > 0 && config.held_out_fraction < 1)) throw new Error('held_out_fraction must be in (0, 1)');
  const tokenizer = createCharTokenizer(AGENT_CHARS);
  const isHeldOut = (p: AgentProblem) => !p.easy && hash32(`${p.a}*${p.b}|${config.split_seed}`) / 2 ** 32 < config.held_out_fraction;
  const draw = (rng: Rng, easy: boolean) => agentProblem(easy ? rng.int(10) : HARD_FIRST + rng.int(1000 - HARD_FIRST), B_VALUES[rng.int(B_VALUES.length)]);

  return {
    kind: 'product',
    config,
    tokenizer,
    promptLength: 1 + '347*6='.length,
    maxCompletionLength: '[999*9]=8991 #### 8991'.length + 1,
    maxOperations: Infinity,
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
    demonstration: (p, env, useTool, failure) => planDemonstration(tokenizer, p, env, useTool, failure),
  };
}

/**
 * The scripted episode of a problem, replayed through the environment: "[347*6] [2082+58] #### 2140" becomes
 * "[347*6]=2082 [2082+58]=2140 #### 2140<eos>". With a failure, that call's first attempt gets "=?", then the
 * demonstration writes the call again ("[347*6]=? [347*6]=2082 …", a recovery to imitate) or gives up and answers
 * from memory ("[347*6]=? #### 2140", as a demonstration without a call does).
 */
export function planDemonstration(tokenizer: CharTokenizer, p: AgentProblem, env: ToolEnvironment, useTool: boolean, failure?: DemoFailure) {
  if (!useTool) return replayEpisode(env, tokenizer, `#### ${p.answer}`);
  if (!failure) return replayEpisode(env, tokenizer, `${p.plan.map((c) => `[${c}] `).join('')}#### ${p.answer}`);
  if (!(Number.isInteger(failure.call) && failure.call >= 0 && failure.call < p.plan.length)) throw new Error(`call ${failure.call} is not a call of the plan`);
  const calls = failure.retry ? p.plan.flatMap((c, i) => (i === failure.call ? [c, c] : [c])) : p.plan.slice(0, failure.call + 1);
  return replayEpisode(failingOnce(env, tokenizer, failure.call), tokenizer, `${calls.map((c) => `[${c}] `).join('')}#### ${p.answer}`);
}

/** `env`, except that its n-th call (0-based) gets the error reply. */
function failingOnce(env: ToolEnvironment, tokenizer: CharTokenizer, n: number): ToolEnvironment {
  const [close] = tokenizer.encode(']');
  const error = tokenizer.encode(CALCULATOR_ERROR);
  return {
    respond(completion) {
      const reply = env.respond(completion);
      const isCall = completion[completion.length - 1] === close;
      return isCall && completion.filter((t) => t === close).length === n + 1 && reply && !reply.done ? { tokens: error, done: false } : reply;
    },
  };
}

/**
 * A flaky calculator: each well-formed call fails (the error reply) with probability `rate`, decided by a hash of
 * `salt` and the episode's text up to the call. Reproducible from the salt alone, whatever order episodes are
 * generated in: with a fixed salt (evaluation) the same call in the same episode fails every time; a retry is a
 * longer text, so it gets a fresh draw.
 */
export function randomCallFailures(rate: number, salt: string): ((episodeText: string) => boolean) | undefined {
  if (!(rate >= 0 && rate <= 1)) throw new Error('the failure rate must be in [0, 1]');
  return rate === 0 ? undefined : (text) => mix32(hash32(`${salt}|${text}`)) / 2 ** 32 < rate;
}

/** MurmurHash3's finaliser: spreads FNV-1a's last characters over every bit, so texts that differ at the end draw independently. */
function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The calculator as the agent lab configures it: TRL's call cap, the task's one-operation rule, random failures. */
export function agentEnvironment(task: AgentTask, maxCalls: number, fails?: (episodeText: string) => boolean): ToolEnvironment {
  return createCalculatorEnv(task.tokenizer, { maxCalls, maxOperations: task.maxOperations, fails });
}

/** −1 per tool call: with a weight w, each call costs w (the tool_cost preset). */
export const toolCallCount: RewardFunction = (completions) => completions.map((c) => -toolStats(c).calls);

/** The agent's reward functions, TRL-style, by name. Correctness and format read the text after "####". */
export const AGENT_REWARDS: Record<'correctness' | 'format' | 'tool_cost', RewardFunction> = {
  correctness: correctnessReward,
  format: formatReward,
  tool_cost: toolCallCount,
};

/** Episode statistics for the logs: TRL's tools/call_frequency and tools/failure_frequency, turns, and retries. */
export function episodeStats(texts: string[], context?: RewardContext) {
  const stats = texts.map((t) => toolStats(t));
  const calls = stats.reduce((s, x) => s + x.calls, 0);
  const failures = stats.reduce((s, x) => s + x.failures, 0);
  const correct = context ? correctnessReward(texts, context) : [];
  const failed = stats.flatMap((s, i) => (s.failures > 0 ? [i] : []));
  const retried = failed.filter((i) => stats[i].retried);
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
    /** Episodes with at least one failed call ("=?"): the denominator of the two rates below. */
    failedEpisodes: failed.length,
    /** Of the episodes with a failed call, the share that call again after the first failure; null when none failed. */
    retryRate: failed.length > 0 ? retried.length / failed.length : null,
    /** Of the episodes with a failed call, the share that call again and end with the right answer (needs `context`). */
    recoveryRate: failed.length > 0 && context ? retried.filter((i) => correct[i] === 1).length / failed.length : null,
  };
}
