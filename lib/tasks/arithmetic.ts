import type { Rng } from '@/lib/random';
import { sampleSplit, type PromptTask } from './task';
import { createCharTokenizer, type CharTokenizer } from './tokenizer';

/**
 * A verifiable task a tiny LM can learn: d-digit arithmetic in GSM8K's answer format.
 *   prompt      "<bos>07+45="            (operands zero-padded, so every prompt has the same length)
 *   completion  "#### 52<eos>"           plain
 *               "12,5 #### 52<eos>"      scratchpad (addition): column sums units first, carries included
 *   prompt      "<bos>45-07="            subtraction keeps a ≥ b, so answers are never negative
 *   completion  "-2,3 #### 38<eos>"      scratchpad (subtraction): column differences units first, borrows included
 */
export type Operator = '+' | '-' | '*';

export interface ArithmeticConfig {
  /** Digits per operand. 2 → 0..99. */
  digits: number;
  operators: Operator[];
  /** Writes column sums (addition) or differences (subtraction), carries and borrows included, before the answer. */
  scratchpad: boolean;
  /** Share of all problems kept out of training, decided by a hash so the split never changes. */
  held_out_fraction: number;
  /** Changes which problems are held out. */
  split_seed: number;
}

export const DEFAULT_ARITHMETIC: ArithmeticConfig = {
  digits: 2,
  operators: ['+'],
  scratchpad: false,
  held_out_fraction: 0.1,
  split_seed: 0,
};

export interface Problem {
  a: number;
  b: number;
  op: Operator;
  /** "07+45=" (without BOS). */
  prompt: string;
  /** "#### 52" (without EOS): the SFT target. */
  completion: string;
  /** "52": what the reward functions compare against. */
  answer: string;
}

export type Split = 'train' | 'test';

export interface ArithmeticTask extends PromptTask<Problem> {
  readonly config: ArithmeticConfig;
  readonly tokenizer: CharTokenizer;
  /** Prompt tokens, BOS included (the same for every problem). */
  readonly promptLength: number;
  /** Longest reference completion in tokens, EOS included. */
  readonly maxCompletionLength: number;
  isHeldOut(a: number, b: number, op: Operator): boolean;
  /** n random problems from one split. */
  sample(split: Split, n: number, rng: Rng): Problem[];
  /** The first n held-out problems in a fixed order (the evaluation set; same for every run with this config). */
  testSet(n: number): Problem[];
  /** [BOS, …prompt] */
  encodePrompt(p: Problem): number[];
  /** […completion, EOS] */
  encodeCompletion(p: Problem): number[];
}

export function createArithmeticTask(overrides: Partial<ArithmeticConfig> = {}): ArithmeticTask {
  const config = { ...DEFAULT_ARITHMETIC, ...overrides };
  const { digits, operators, scratchpad, held_out_fraction } = config;
  if (!Number.isInteger(digits) || digits < 1 || digits > 4) throw new Error(`digits must be 1..4, got ${digits}`);
  if (operators.length === 0) throw new Error('operators must not be empty');
  if (scratchpad && operators.some((o) => o === '*')) throw new Error('scratchpad is only defined for addition and subtraction');
  if (!(held_out_fraction > 0 && held_out_fraction < 1)) throw new Error('held_out_fraction must be in (0, 1)');
  const tokenizer = createCharTokenizer();
  const max = 10 ** digits;

  const isHeldOut = (a: number, b: number, op: Operator) =>
    hash32(`${a}${op}${b}|${config.split_seed}`) / 2 ** 32 < held_out_fraction;

  const make = (a: number, b: number, op: Operator): Problem => {
    const answer = String(op === '+' ? a + b : op === '-' ? a - b : a * b);
    const prompt = `${pad(a, digits)}${op}${pad(b, digits)}=`;
    const work = scratchpad ? `${(op === '-' ? columnDifferences(a, b, digits) : columnSums(a, b, digits)).join(',')} ` : '';
    return { a, b, op, prompt, completion: `${work}#### ${answer}`, answer };
  };

  /** Subtraction keeps the larger operand first: a − b ≥ 0. */
  const draw = (rng: Rng): Problem => {
    const [x, y, op] = [rng.int(max), rng.int(max), operators[rng.int(operators.length)]];
    return op === '-' && x < y ? make(y, x, op) : make(x, y, op);
  };

  const longestAnswer = Math.max(
    ...operators.map((op) => String(op === '+' ? 2 * (max - 1) : op === '-' ? -(max - 1) : (max - 1) ** 2).length),
  );
  const longestWork = scratchpad ? digits * 3 : 0; // each column sum or difference ≤ 2 chars, plus separators
  return {
    config,
    tokenizer,
    promptLength: 1 + 2 * digits + 2,
    maxCompletionLength: longestWork + '#### '.length + longestAnswer + 1,
    isHeldOut,
    sample: (split, n, rng) => sampleSplit(draw, (p) => isHeldOut(p.a, p.b, p.op), split, n, rng),
    testSet(n) {
      const out: Problem[] = [];
      // Visit every problem once in a fixed scrambled order: stride 7919 (prime) modulo the number of problems.
      const total = max * max * operators.length;
      for (let i = 0, k = 0; out.length < n && i < total; i++, k = (k + 7919) % total) {
        const op = operators[k % operators.length];
        const rest = Math.floor(k / operators.length);
        const [a, b] = [rest % max, Math.floor(rest / max)];
        if (op === '-' && a < b) continue;
        if (isHeldOut(a, b, op)) out.push(make(a, b, op));
      }
      if (out.length < n) throw new Error(`testSet(${n}): only ${out.length} problems are held out`);
      return out;
    },
    encodePrompt: (p) => [tokenizer.bos, ...tokenizer.encode(p.prompt)],
    encodeCompletion: (p) => [...tokenizer.encode(p.completion), tokenizer.eos],
  };
}

/** Column sums of a + b, units first, each including the carry in: 47+85 → [12, 13]. */
export function columnSums(a: number, b: number, digits: number): number[] {
  const sums: number[] = [];
  let carry = 0;
  for (let i = 0; i < digits; i++) {
    const s = (Math.floor(a / 10 ** i) % 10) + (Math.floor(b / 10 ** i) % 10) + carry;
    sums.push(s);
    carry = s >= 10 ? 1 : 0;
  }
  return sums;
}

/** Column differences of a − b (a ≥ b), units first, each including the borrow: 45−07 → [−2, 3] (5−7, then 4−0−1). */
export function columnDifferences(a: number, b: number, digits: number): number[] {
  const diffs: number[] = [];
  let borrow = 0;
  for (let i = 0; i < digits; i++) {
    const d = (Math.floor(a / 10 ** i) % 10) - (Math.floor(b / 10 ** i) % 10) - borrow;
    diffs.push(d);
    borrow = d < 0 ? 1 : 0;
  }
  return diffs;
}

function pad(n: number, digits: number): string {
  return String(n).padStart(digits, '0');
}

/** FNV-1a, 32 bits: a stable hash for the train/test split. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
