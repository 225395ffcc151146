/**
 * The agent lab's planning task: two operations, and a calculator that answers one per call.
 *
 *   prompt        "<bos>347*6+58="                              a 3-digit number times a digit, plus or minus a 2-digit one
 *   with the tool "[347*6]=2082 [2082+58]=2140 #### 2140<eos>"  the product first, then its result ± the last number
 *   without       "#### 2140<eos>"                              from memory (the no-tool ceiling: almost never right)
 *   one call      "[347*6+58]=?"                                two operations in one call get the error reply
 *
 * Planning at its smallest: the second call can only be written after reading the first one's answer, so the policy
 * must split the problem in the right order and copy a number it never wrote. The product is at least 1100, so every
 * number the policy copies has four digits and every episode has the same shape: a tiny model learns to copy by
 * position, and with products of three digits as well it copies the wrong digits (measured: about 1 episode in 8
 * wrong after SFT and GRPO, nearly all of them on three-digit products). Every problem is hard (there are no
 * times-table facts here); held-out problems are chosen by a hash of the prompt, as in agent.ts.
 */
import { sampleSplit } from './task';
import type { Rng } from '@/lib/random';
import { hash32 } from './arithmetic';
import { planDemonstration, type AgentProblem, type AgentTask, type AgentTaskConfig } from './agent';
import { AGENT_CHARS, createCharTokenizer } from './tokenizer';

const B_VALUES = [2, 3, 4, 5, 6, 7, 8, 9];
/** Every (a, b) with a in 100..999 and a product of 1100 or more: a × b ± c then has four digits too (1001..9090). */
const FACTORS = B_VALUES.flatMap((b) => Array.from({ length: 900 }, (_, i) => [100 + i, b] as const)).filter(([a, b]) => a * b >= 1100);
const OPS = ['+', '-'] as const;
const C = { first: 10, count: 90 }; // c in 10..99: the prompt always has 9 characters

/** The problem a × b ± c, e.g. twoStepProblem(347, 6, '+', 58): "347*6+58=", plan ["347*6", "2082+58"], answer "2140". */
export function twoStepProblem(a: number, b: number, op: '+' | '-', c: number): AgentProblem {
  const product = a * b;
  const expression = `${a}*${b}`;
  return { a, b, easy: false, prompt: `${expression}${op}${c}=`, expression, answer: String(op === '+' ? product + c : product - c), plan: [expression, `${product}${op}${c}`] };
}

export function createTwoStepTask(overrides: Partial<Pick<AgentTaskConfig, 'held_out_fraction' | 'split_seed'>> = {}): AgentTask {
  const config: AgentTaskConfig = { easy_fraction: 0, held_out_fraction: 0.1, split_seed: 0, ...overrides };
  if (!(config.held_out_fraction > 0 && config.held_out_fraction < 1)) throw new Error('held_out_fraction must be in (0, 1)');
  const tokenizer = createCharTokenizer(AGENT_CHARS);
  const isHeldOut = (p: AgentProblem) => hash32(`${p.prompt}|${config.split_seed}`) / 2 ** 32 < config.held_out_fraction;
  const total = FACTORS.length * OPS.length * C.count;
  /** The k-th problem of the whole set (0 ≤ k < total). */
  const nth = (k: number) => {
    const c = k % C.count;
    const op = Math.floor(k / C.count) % OPS.length;
    const [a, b] = FACTORS[Math.floor(k / (C.count * OPS.length))];
    return twoStepProblem(a, b, OPS[op], C.first + c);
  };
  const draw = (rng: Rng) => nth(rng.int(total));

  return {
    kind: 'two_step',
    config,
    tokenizer,
    promptLength: 1 + '347*6+58='.length,
    maxCompletionLength: '[999*9]=8991 [8991+99]=9090 #### 9090'.length + 1,
    maxOperations: 1,
    isHeldOut,
    sample: (split, n, rng) => sampleSplit(draw, isHeldOut, split, n, rng),
    testSet(n) {
      // Every problem at most once, in a fixed scrambled order (stride 7919, a prime that does not divide the total).
      const out: AgentProblem[] = [];
      for (let i = 0, k = 0; i < total && out.length < n; i++, k = (k + 7919) % total) {
        const p = nth(k);
        if (isHeldOut(p)) out.push(p);
      }
      if (out.length < n) throw new Error(`testSet(${n}): only ${out.length} problems are available`);
      return out;
    },
    encodePrompt: (p) => [tokenizer.bos, ...tokenizer.encode(p.prompt)],
    demonstration: (p, env, useTool, failure) => planDemonstration(tokenizer, p, env, useTool, failure),
  };
}
