/**
 * The agent lab's memory task: what the answer needs arrives first, then leaves the policy's window before the
 * question comes, and a memory tool is the only way to keep it.
 *
 *   prompt        "<bos>a=37 b=52"                     two facts
 *   with memory   "[a=37][b=52]; c=81 d=20 e=44 b?[b]=52 #### 52<eos>"
 *   without       "; c=81 d=20 e=44 b? #### 64<eos>"   a guess: the facts are out of the window
 *
 * The policy writes to memory with "[k=v]" (no reply) and reads with "[k]" (the environment replies "=v", or "=?"
 * for a key never written). ";" ends its first turn: the environment then sends three distractor facts and the
 * question, "b?". The model runs with a sliding attention window (lib/train/lab-setup.ts: MEMORY_SLIDING_WINDOW), so
 * by the time it answers, the prompt and anything it wrote in its first turn have left its receptive field: only what
 * the environment hands back from memory is visible. The memory's replies are environment tokens, masked out of the
 * loss like the calculator's. Without the tool (use_tools off), writes are ignored and every read gets "=?".
 * Model-free, like every task.
 */
import { sampleSplit } from './task';
import { createRng, type Rng } from '@/lib/random';
import { hash32 } from './arithmetic';
import type { AgentProblem, AgentTask, AgentTaskConfig } from './agent';
import { replayEpisode, type ToolEnvironment } from './environment';
import { createCharTokenizer, type CharTokenizer } from './tokenizer';

/** Digits, '=', '#' and space for the answer, brackets for the memory tool, '?' for questions and the error reply,
 * ';' to end the first turn, and the fact keys. */
export const MEMORY_CHARS = '0123456789=# []?;abcde';
/** The keys the prompt's facts use (one is asked about), and the distractors' keys. */
export const FACT_KEYS = ['a', 'b'] as const;
const DISTRACTOR_KEYS = ['c', 'd', 'e'] as const;
/** Values are two-digit numbers: a guess is right 1 time in 90. */
const VALUE = { first: 10, count: 90 };
/** What ends the policy's first turn: the environment answers it with the distractors and the question. */
export const TURN_END = ';';
/** The memory's reply to a read of a key never written (and to every read without the tool). */
export const MEMORY_MISS = '=?';

/** The problem: facts a and b, three distractors, a question about `asked`. */
export function memoryProblem(a: number, b: number, asked: 'a' | 'b', distractors: [number, number, number]): AgentProblem {
  const observation = ` ${DISTRACTOR_KEYS.map((k, i) => `${k}=${distractors[i]}`).join(' ')} ${asked}?`;
  const answer = String(asked === 'a' ? a : b);
  return { a, b, easy: false, prompt: `a=${a} b=${b}`, expression: '', answer, plan: [`a=${a}`, `b=${b}`, asked], memory: { observation, asked } };
}

/** Memory calls in an episode's text: writes "[k=v]", reads "[k]" with what they got back. */
export interface MemoryStats {
  writes: { key: string; value: string }[];
  reads: { key: string; value: string | null }[];
  /** The episode wrote the asked value, read it back, and answered with it (eval/memory_use_rate's numerator). */
  usedMemory: boolean;
}

export function memoryStats(text: string, asked: string, answer: string | null): MemoryStats {
  const writes = [...text.matchAll(/\[([a-e])=(\d+)\]/g)].map((m) => ({ key: m[1], value: m[2] }));
  const reads = [...text.matchAll(/\[([a-e])\](=(\d+)|=\?)?/g)].map((m) => ({ key: m[1], value: m[3] ?? null }));
  const wrote = writes.filter((w) => w.key === asked).map((w) => w.value);
  const usedMemory = answer !== null && wrote.includes(answer) && reads.some((r) => r.key === asked && r.value === answer);
  return { writes, reads, usedMemory };
}

/**
 * The environment of a batch of memory problems (row i is problems[i]): answers ";" with the problem's distractors
 * and question (once), reads with the latest value written for that key (with the tool), and ends the episode at a
 * memory call beyond `maxCalls` (TRL's max_tool_calling_iterations). Stateless: a pure function of the text so far.
 */
export function createMemoryEnv(tokenizer: CharTokenizer, problems: readonly AgentProblem[], opts: { useTool: boolean; maxCalls: number }): ToolEnvironment {
  const [close] = tokenizer.encode(']');
  const [end] = tokenizer.encode(TURN_END);
  return {
    respond(completion, row = 0) {
      const last = completion[completion.length - 1];
      const problem = problems[row];
      if (!problem?.memory) throw new Error(`memory environment: no problem for row ${row}`);
      if (last === end) {
        const first = completion.indexOf(end) === completion.length - 1;
        return first ? { tokens: tokenizer.encode(problem.memory.observation), done: false } : null;
      }
      if (last !== close) return null;
      const text = tokenizer.decode(completion);
      if ((text.match(/\]/g) ?? []).length > opts.maxCalls) return { tokens: [], done: true };
      const call = /\[([^[\]]*)\]$/.exec(text)?.[1] ?? '';
      if (/^[a-e]=\d+$/.test(call)) return null; // a write: stored, nothing to say
      if (!/^[a-e]$/.test(call) || !opts.useTool) return { tokens: tokenizer.encode(MEMORY_MISS), done: false };
      const written = [...text.matchAll(new RegExp(`\\[${call}=(\\d+)\\]`, 'g'))].at(-1)?.[1];
      return { tokens: tokenizer.encode(written === undefined ? MEMORY_MISS : `=${written}`), done: false };
    },
  };
}

export function createMemoryTask(overrides: Partial<Pick<AgentTaskConfig, 'held_out_fraction' | 'split_seed'>> = {}): AgentTask {
  const config: AgentTaskConfig = { easy_fraction: 0, held_out_fraction: 0.1, split_seed: 0, ...overrides };
  if (!(config.held_out_fraction > 0 && config.held_out_fraction < 1)) throw new Error('held_out_fraction must be in (0, 1)');
  const tokenizer = createCharTokenizer(MEMORY_CHARS);
  // Held out by the asked fact: a held-out (key, value, other value) never appears in training, whatever the distractors.
  const isHeldOut = (p: AgentProblem) => hash32(`${p.prompt}|${p.memory?.asked}|${config.split_seed}`) / 2 ** 32 < config.held_out_fraction;
  const value = (rng: Rng) => VALUE.first + rng.int(VALUE.count);
  const draw = (rng: Rng) => memoryProblem(value(rng), value(rng), FACT_KEYS[rng.int(2)], [value(rng), value(rng), value(rng)]);

  return {
    kind: 'memory',
    config,
    tokenizer,
    promptLength: 1 + 'a=37 b=52'.length,
    maxCompletionLength: '[a=37][b=52]; c=81 d=20 e=44 b?[b]=52 #### 52'.length + 1,
    maxOperations: 0,
    isHeldOut,
    sample: (split, n, rng) => sampleSplit(draw, isHeldOut, split, n, rng),
    testSet(n) {
      // A fixed stream of its own (a seeded generator, not a hash of the index: FNV-1a of "…|17" and "…|18" differ
      // only in their last bits), so the evaluation set never depends on how training drew.
      const rng = createRng('memory-test-set');
      const out: AgentProblem[] = [];
      for (let k = 0; out.length < n && k < 100 * n + 1000; k++) {
        const p = draw(rng);
        if (isHeldOut(p)) out.push(p);
      }
      if (out.length < n) throw new Error(`testSet(${n}): only ${out.length} problems are available`);
      return out;
    },
    encodePrompt: (p) => [tokenizer.bos, ...tokenizer.encode(p.prompt)],
    demonstration: (p, _env, useTool) => memoryDemonstration(tokenizer, p, useTool),
  };
}

/**
 * The scripted episode: with the tool, write both facts, end the turn, read the asked one, answer it; without, end
 * the turn and answer (a demonstration the model cannot learn to get right, only to guess from). Replayed through
 * the environment, so the distractors, question and memory reply are environment tokens (mask 0).
 */
export function memoryDemonstration(tokenizer: CharTokenizer, p: AgentProblem, useTool: boolean): { completion: number[]; mask: number[] } {
  if (!p.memory) throw new Error('not a memory problem');
  const env = createMemoryEnv(tokenizer, [p], { useTool: true, maxCalls: 3 });
  const script = useTool ? `[a=${p.a}][b=${p.b}]${TURN_END}[${p.memory.asked}] #### ${p.answer}` : `${TURN_END} #### ${p.answer}`;
  return replayEpisode(env, tokenizer, script);
}
