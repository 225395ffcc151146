/**
 * Reflection at its smallest (Reflexion's retry loop without the written reflection): when the policy ends a turn
 * with a wrong final answer, the environment says only that it is wrong, "?", never what is right, and the policy
 * gets one more try in the same episode.
 *
 *   "#### 2000<eos>?[347*6]=2082 #### 2082<eos>"   wrong from memory, told so, then right with the calculator
 *
 * The reply is an environment token, masked out of the loss like a tool's. The episode's attempts are split at each
 * EOS the environment answered; rewards score the last attempt.
 */
import type { ToolEnvironment } from './environment';
import { parseAnswer } from './rewards';
import type { CharTokenizer } from './tokenizer';

/** The environment's whole reply to a wrong answer: one token, and no hint of the right value. */
export const WRONG_REPLY = '?';

/**
 * `inner` (the calculator, or nothing) plus the verdict on each finished attempt: a wrong answer with tries left
 * gets WRONG_REPLY and the episode goes on; a right answer, or the last try, ends it. answers[row] is the episode's.
 * With `toolAfterVerdict`, `inner` answers nothing before the first verdict: a first try is from memory, and only a
 * try that was told "wrong" can use the tool (the reflect_feedback preset).
 */
export function withRetries(inner: ToolEnvironment | undefined, tokenizer: CharTokenizer, answers: readonly string[], maxAttempts: number, opts: { toolAfterVerdict?: boolean } = {}): ToolEnvironment | undefined {
  if (!(Number.isInteger(maxAttempts) && maxAttempts >= 1)) throw new Error(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  if (opts.toolAfterVerdict && maxAttempts === 1) throw new Error('toolAfterVerdict needs maxAttempts of at least 2: with one try no verdict ever opens the tool');
  if (maxAttempts === 1) return inner;
  const wrong = tokenizer.encode(WRONG_REPLY);
  // An EOS in the completion so far means the policy ended a try and was told WRONG_REPLY (else the episode is over).
  const toolOpen = (completion: readonly number[]) => !opts.toolAfterVerdict || completion.includes(tokenizer.eos);
  return {
    respond: (completion, row) => (toolOpen(completion) ? inner?.respond(completion, row) ?? null : null),
    respondToEnd(completion, row = 0) {
      const attempts = attemptTexts(completion, tokenizer);
      if (attempts.length >= maxAttempts) return null;
      return parseAnswer(attempts[attempts.length - 1]) === answers[row] ? null : { tokens: wrong, done: false };
    },
  };
}

/**
 * The attempts of an episode's tokens (after the prompt, padding allowed): the text of each turn the policy ended
 * with EOS, then the unfinished rest if any, without the environment's WRONG_REPLY between them. One attempt when
 * nothing was retried: the same text tokenizer.decode gives.
 */
export function attemptTexts(tokens: readonly number[], tokenizer: CharTokenizer): string[] {
  const attempts: string[] = [];
  let start = 0;
  const end = tokens.findIndex((t) => t === tokenizer.pad);
  const upTo = end < 0 ? tokens.length : end;
  for (let i = 0; i <= upTo; i++) {
    if (i === upTo || tokens[i] === tokenizer.eos) {
      if (i > start || i < upTo) attempts.push(tokenizer.decode(tokens.slice(start, i)));
      start = i + 1;
      if (i < upTo && tokenizer.decode(tokens.slice(start, start + WRONG_REPLY.length)) === WRONG_REPLY) start += WRONG_REPLY.length;
      else if (i < upTo) break; // an EOS nobody answered ends the episode
    }
  }
  return attempts.length > 0 ? attempts : [''];
}
