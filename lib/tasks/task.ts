import type { Rng } from '@/lib/random';
import type { CharTokenizer } from './tokenizer';

/**
 * What the LM trainers (SFT, GRPO, DPO) need of a task, whether built in (arithmetic.ts) or read from a reader's file
 * (dataset.ts): problems with a prompt, the answer the rewards compare against, and the completion SFT learns.
 */
export interface TaskProblem {
  /** "07+45=" (without BOS). */
  prompt: string;
  /** "52": what the reward functions and the evaluation compare against. */
  answer: string;
  /** "12,5 #### 52" (without EOS): the SFT target. */
  completion: string;
}

export interface PromptTask<P extends TaskProblem = TaskProblem> {
  readonly tokenizer: CharTokenizer;
  /** Prompt tokens, BOS included (the same for every problem). */
  readonly promptLength: number;
  /** Completion tokens held-out generation may use, EOS included. */
  readonly maxCompletionLength: number;
  /** n problems from one split. */
  sample(split: 'train' | 'test', n: number, rng: Rng): P[];
  /** Up to n held-out problems in a fixed order: the evaluation set. */
  testSet(n: number): P[];
  /** [BOS, …prompt] */
  encodePrompt(p: P): number[];
  /** […completion, EOS] */
  encodeCompletion(p: P): number[];
}

/**
 * n problems of one split, drawn one after another and kept when their split is the one asked for: rejection
 * sampling, so the RNG stream (and every seeded run) is the same whichever task uses it.
 */
export function sampleSplit<P>(draw: (rng: Rng) => P, isHeldOut: (p: P) => boolean, split: 'train' | 'test', n: number, rng: Rng): P[] {
  const out: P[] = [];
  while (out.length < n) {
    const p = draw(rng);
    if (isHeldOut(p) === (split === 'test')) out.push(p);
  }
  return out;
}
