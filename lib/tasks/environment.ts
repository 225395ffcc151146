import type { CharTokenizer } from './tokenizer';

/**
 * Multi-turn environments. The policy writes tokens; after each one the environment may append an observation
 * (tokens the policy did not choose) or end the episode. Observations are context for the next tokens but must not
 * be trained on, so every episode carries a mask: 1 for policy tokens, 0 for environment tokens.
 */
export interface EnvReply {
  /** Tokens to append after the policy's last token (may be empty). */
  tokens: number[];
  /** The episode ends here (e.g. a tool call beyond the cap). */
  done: boolean;
}

export interface ToolEnvironment {
  /**
   * Called after every policy token with the completion so far (policy and earlier observation tokens, no prompt).
   * Returns what the environment does, or null for nothing.
   */
  respond(completion: readonly number[], row?: number): EnvReply | null;
  /**
   * Called when the policy ends its turn with EOS (the completion so far includes it). A reply with tokens continues
   * the episode after them: one more try (lib/tasks/reflection.ts). Absent or null: the episode ends at EOS.
   * `row` is the episode's index in the batch, for environments that know each episode's problem.
   */
  respondToEnd?(completion: readonly number[], row?: number): EnvReply | null;
}

export interface CalculatorOptions {
  /** Results with more digits than this are refused like a malformed call. Default 8. */
  maxResultDigits?: number;
  /** Calls answered per episode (TRL's max_tool_calling_iterations); a call beyond this ends the episode. */
  maxCalls?: number;
  /**
   * Operations one call may hold: "[347*6]" is one, "[347*6+58]" two. A longer call gets the error reply, so a
   * two-operation problem takes two calls (the two-step task sets 1). Default: any number.
   */
  maxOperations?: number;
  /**
   * Calls that fail although well formed (a flaky tool): given the episode's text up to and including the call's
   * "]", true means the calculator answers with the error reply. Must be a pure function of the text, so that a
   * seed reproduces the failures (lib/tasks/agent.ts: randomCallFailures).
   */
  fails?: (episodeText: string) => boolean;
}

/** What the calculator answers to a malformed call: the policy sees it failed, and the run goes on. */
export const CALCULATOR_ERROR = '=?';

/** The longest result, in digits, the calculator answers unless told otherwise; longer ones get the error reply. */
export const CALCULATOR_MAX_RESULT_DIGITS = 8;

/**
 * A calculator tool: when the policy closes a bracket, e.g. writes "[23*47]", the environment appends "=1081".
 * It takes integers joined by + - * with the usual precedence; a malformed call (empty, "[3*]", a result too long)
 * gets "=?", never an exception. The tokenizer must know '?' (AGENT_CHARS).
 */
export function createCalculatorEnv(tokenizer: CharTokenizer, opts: CalculatorOptions = {}): ToolEnvironment {
  const [open] = tokenizer.encode('[');
  const [close] = tokenizer.encode(']');
  const error = tokenizer.encode(CALCULATOR_ERROR); // throws, naming '?', for a tokenizer that lacks it
  const maxDigits = opts.maxResultDigits ?? CALCULATOR_MAX_RESULT_DIGITS;
  const maxCalls = opts.maxCalls ?? Infinity;
  const maxOperations = opts.maxOperations ?? Infinity;
  return {
    respond(completion) {
      if (completion[completion.length - 1] !== close) return null;
      const calls = completion.filter((t) => t === close).length;
      if (calls > maxCalls) return { tokens: [], done: true };
      const start = completion.lastIndexOf(open, completion.length - 2);
      const expr = start < 0 ? '' : tokenizer.decode(completion.slice(start + 1, completion.length - 1));
      const value = operations(expr) > maxOperations ? null : evaluate(expr);
      if (value == null || String(Math.abs(value)).length > maxDigits) return { tokens: error, done: false };
      if (opts.fails?.(tokenizer.decode(completion))) return { tokens: error, done: false };
      return { tokens: tokenizer.encode(`=${value}`), done: false };
    },
  };
}

/** Binary operators in a call's expression: "347*6" has 1, "347*6+58" 2, "-3*-4" 1 (a sign is not an operation). */
export function operations(expr: string): number {
  return (expr.match(/\d[+\-*]/g) ?? []).length;
}

/** Evaluates "12+3*4-5" (integers, + - *, * binds tighter). Returns null if malformed. */
export function evaluate(expr: string): number | null {
  if (!/^-?\d+([+\-*]-?\d+)*$/.test(expr)) return null;
  const terms = expr.match(/(^-?\d+|[+\-*]-?\d+)/g)!;
  let total = 0;
  let product = Number(terms[0]);
  for (const t of terms.slice(1)) {
    const n = Number(t.slice(1));
    if (t[0] === '*') product *= n;
    else {
      total += product;
      product = t[0] === '-' ? -n : n;
    }
  }
  return total + product;
}

/**
 * Replays a scripted policy text through the environment (for SFT demonstrations of tool use): feeds the policy's
 * characters one at a time, inserting observations where the environment responds, then EOS.
 * "[23*47] #### 1081" → tokens of "[23*47]=1081 #### 1081<eos>", mask 1 except on "=1081".
 */
export function replayEpisode(env: ToolEnvironment, tokenizer: CharTokenizer, policyText: string): { completion: number[]; mask: number[] } {
  const completion: number[] = [];
  const mask: number[] = [];
  for (const id of [...tokenizer.encode(policyText), tokenizer.eos]) {
    completion.push(id);
    mask.push(1);
    if (id === tokenizer.eos) break;
    const reply = env.respond(completion, 0);
    for (const o of reply?.tokens ?? []) {
      completion.push(o);
      mask.push(0);
    }
    if (reply?.done) break;
  }
  return { completion, mask };
}

/**
 * Calls, failed calls ("=?") and policy turns in an episode's text, e.g. "[347*6]=2082 #### 2082"; and whether the
 * policy called again after its first failed call (`retried`: a bracket closed after the first "=?", answered or
 * not: "[347*6]=? [347*6]=2082 #### 2082" retried, "[347*6]=? #### 2082" did not).
 */
export function toolStats(text: string): { calls: number; failures: number; turns: number; retried: boolean } {
  const calls = (text.match(/\]=/g) ?? []).length;
  const failures = text.split(CALCULATOR_ERROR).length - 1;
  const firstFailure = text.indexOf(CALCULATOR_ERROR);
  const retried = firstFailure >= 0 && text.includes(']', firstFailure);
  return { calls, failures, turns: calls + 1, retried };
}
