/**
 * What running a reader's code can come to, whichever sandbox ran it (lib/sandbox/browser.ts in a page, node.ts in
 * the command lines): a value, or one failure told in one sentence. The code is untrusted input: it never runs in
 * the page or the CLI's own context, and every way it can fail ends here as data, never as a thrown host error.
 */

export type FailureKind =
  /** The source does not parse, or does not define the function it must. */
  | 'compile'
  /** The function threw. */
  | 'throw'
  /** It ran past the time limit and was stopped. */
  | 'timeout'
  /** It returned something the caller cannot use (a Promise, a function, a value that cannot be copied). */
  | 'result'
  /** The sandbox itself failed (out of memory, could not start). */
  | 'crash';

export type SandboxOutcome = { ok: true; value: unknown } | { ok: false; kind: FailureKind; message: string; line?: number };

/** A reader's code, loaded once, called many times; each call bounded by its own time limit. */
export interface CodeSandbox {
  /**
   * Compiles `source`, which must define a function named `entry` (in Node, `entry` 'default' reads an ES module's
   * default export instead); its top-level code runs here, under the time limit.
   */
  load(source: string, entry: string, timeoutMs: number): Promise<SandboxOutcome>;
  /** Calls the loaded function with `args` (copied in, its result copied out). */
  call(args: unknown[], timeoutMs: number): Promise<SandboxOutcome>;
  dispose(): void;
}

/** The failure as one sentence: "line 3: TypeError: x is undefined", "stopped after 1000 ms: …". */
export function describeFailure(outcome: Extract<SandboxOutcome, { ok: false }>): string {
  return outcome.line !== undefined ? `line ${outcome.line}: ${outcome.message}` : outcome.message;
}

/** The time limit's message, the same in every sandbox. */
export const timeoutMessage = (ms: number) => `stopped after ${ms} ms: the code did not return (an infinite loop?)`;

/**
 * The line of the reader's source where an error was thrown, read from its stack: the first frame in `file` (the
 * name the sandbox compiled the source under), minus `offset` lines the sandbox put before the source.
 */
export function userLine(stack: unknown, file: string, offset = 0): number | undefined {
  if (typeof stack !== 'string') return undefined;
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}:(\\d+):\\d+`).exec(stack);
  if (!match) return undefined;
  const line = Number(match[1]) - offset;
  return line >= 1 ? line : undefined;
}

/** An error's "Name: message", whatever was thrown (a string, an object, null). */
export function thrownMessage(error: unknown): string {
  if (error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)) {
    const e = error as { name?: unknown; message?: unknown };
    return `${typeof e.name === 'string' ? e.name : 'Error'}: ${String(e.message)}`;
  }
  return `threw ${typeof error === 'string' ? JSON.stringify(error) : String(error)}`;
}
