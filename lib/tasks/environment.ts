import type { CharTokenizer } from './tokenizer';

/**
 * Multi-turn environments. The policy writes tokens; after each one the environment may append an observation
 * (tokens the policy did not choose). Observations are context for the next tokens but must not be trained on,
 * so every episode carries a mask: 1 for policy tokens, 0 for environment tokens.
 */
export interface ToolEnvironment {
  /**
   * Called after every policy token with the completion so far (policy and earlier observation tokens, no prompt).
   * Returns the observation tokens to append, or null for none.
   */
  respond(completion: readonly number[]): number[] | null;
}

/**
 * A calculator tool: when the policy closes a bracket, e.g. writes "[23*47]", the environment appends "=1081".
 * Accepts integers joined by + - * with the usual precedence; anything else (empty, malformed, a result too long)
 * gets no answer, so the policy learns that only well-formed calls pay.
 */
export function createCalculatorEnv(tokenizer: CharTokenizer, opts: { maxResultDigits?: number } = {}): ToolEnvironment {
  const open = tokenizer.encode('[')[0];
  const close = tokenizer.encode(']')[0];
  const maxDigits = opts.maxResultDigits ?? 8;
  return {
    respond(completion) {
      if (completion[completion.length - 1] !== close) return null;
      const start = completion.lastIndexOf(open, completion.length - 2);
      if (start < 0) return null;
      const expr = tokenizer.decode(completion.slice(start + 1, completion.length - 1));
      const value = evaluate(expr);
      if (value == null || String(Math.abs(value)).length > maxDigits) return null;
      return tokenizer.encode(`=${value}`);
    },
  };
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
export function replayEpisode(
  env: ToolEnvironment,
  tokenizer: CharTokenizer,
  policyText: string,
): { completion: number[]; mask: number[] } {
  const completion: number[] = [];
  const mask: number[] = [];
  for (const id of [...tokenizer.encode(policyText), tokenizer.eos]) {
    completion.push(id);
    mask.push(1);
    if (id === tokenizer.eos) break;
    for (const o of env.respond(completion) ?? []) {
      completion.push(o);
      mask.push(0);
    }
  }
  return { completion, mask };
}

/** What a policy should write for a problem when it has the calculator: "[23*47] #### 1081". */
export function toolPolicyText(p: { a: number; b: number; op: string; answer: string }): string {
  return `[${p.a}${p.op}${p.b}] #### ${p.answer}`;
}
