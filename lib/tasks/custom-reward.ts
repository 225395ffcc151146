/**
 * A reward function the reader writes, in TRL's shape: `reward(completions, ctx)` returns one number per completion,
 * with ctx carrying one prompt and one answer per completion (TRL passes dataset columns as keyword arguments; here
 * they arrive as ctx.prompts and ctx.answers). It runs in a sandbox (lib/sandbox) and is combined with the built-in
 * rewards by weight, as TRL's reward_weights. Whatever it does wrong (throws, loops, returns the wrong length, NaN)
 * becomes a RewardCodeError naming the problem, which stops the run with the history so far. Model-free.
 */
import { describeFailure, type SandboxOutcome } from '@/lib/sandbox/outcome';
import type { RewardContext } from './rewards';

/** What the reader's function receives besides the completions (plain data, copied into the sandbox). */
export interface CustomRewardContext {
  prompts: string[];
  answers: string[];
  /** True where the completion was cut off at max_completion_length without EOS. */
  truncated: boolean[];
}

export type AsyncRewardFunction = (completions: string[], context: RewardContext) => Promise<number[]>;

/** The function name the browser editor's code must define; a CLI reward file default-exports it instead. */
export const REWARD_ENTRY = 'reward';
/** Each call's limit. A reward over a batch of 64 short completions takes well under a millisecond. */
export const REWARD_TIME_LIMIT_MS = 2000;
/** The largest reward file or editor text read. */
export const REWARD_MAX_SOURCE_BYTES = 100_000;
/** The weight a reader's reward gets unless told otherwise, and its bounds (as the built-in reward_weight_* fields). */
export const REWARD_WEIGHT_DEFAULT = 1;
export const REWARD_WEIGHT_MAX = 10;

/** What the reader's function must look like, for error messages: TRL's reward signature, in JavaScript. */
export const REWARD_SIGNATURE = 'function reward(completions, ctx) returning one number per completion (ctx.prompts, ctx.answers, ctx.truncated: one entry per completion)';

/** The name editorScript() gives a default-exported function. */
const DEFAULT_EXPORT = '__defaultReward';

/**
 * The editor's code as a script the browser sandbox can run, and the function to call: a plain `function reward`, or,
 * as in a CLI reward file, an `export default` (a function, an arrow, or the name of one defined above it), which
 * becomes a constant. A script cannot contain `export`; this is the one form of it the editor accepts.
 */
export function editorScript(source: string): { source: string; entry: string } {
  const exported = /^([ \t]*)export[ \t]+default[ \t]+/m;
  if (!exported.test(source)) return { source, entry: REWARD_ENTRY };
  return { source: source.replace(exported, `$1const ${DEFAULT_EXPORT} = `), entry: DEFAULT_EXPORT };
}

/** A reader's reward function failed; the message says how, in one line. */
export class RewardCodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RewardCodeError';
  }
}

const preview = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** The reader's function's return value as rewards, or a RewardCodeError saying what is wrong with it. */
export function checkRewardValues(value: unknown, completions: readonly string[]): number[] {
  if (!Array.isArray(value)) {
    const got = value === null ? 'null' : typeof value === 'object' ? 'an object' : typeof value;
    throw new RewardCodeError(`the reward function returned ${got}, not an array of ${completions.length} numbers (one per completion)`);
  }
  if (value.length !== completions.length) throw new RewardCodeError(`the reward function returned ${value.length} values for ${completions.length} completions: it must return one number per completion`);
  value.forEach((x, i) => {
    if (typeof x !== 'number') throw new RewardCodeError(`the reward function returned ${x === null ? 'null' : typeof x} for completion ${i} (${preview(completions[i])}): every reward must be a number`);
    if (!Number.isFinite(x)) throw new RewardCodeError(`the reward function returned ${x} for completion ${i} (${preview(completions[i])}): every reward must be a finite number`);
  });
  return value as number[];
}

/** The failure of a load or a call, as the one line a RewardCodeError carries. */
export function rewardFailure(outcome: Extract<SandboxOutcome, { ok: false }>): RewardCodeError {
  return new RewardCodeError(`the reward function failed: ${describeFailure(outcome)}`);
}

/** The context as the reader's function sees it: plain arrays, one entry per completion. */
export function customContext(completions: readonly string[], context: RewardContext): CustomRewardContext {
  const n = completions.length;
  return { prompts: context.prompts ?? Array<string>(n).fill(''), answers: context.answers, truncated: context.truncated ?? Array<boolean>(n).fill(false) };
}

/** A reward function that asks `call` (a loaded sandbox) for each batch, and checks what comes back. */
export function sandboxedReward(call: (args: unknown[], timeoutMs: number) => Promise<SandboxOutcome>): AsyncRewardFunction {
  return async (completions, context) => {
    const outcome = await call([completions, customContext(completions, context)], REWARD_TIME_LIMIT_MS);
    if (!outcome.ok) throw rewardFailure(outcome);
    return checkRewardValues(outcome.value, completions);
  };
}

/** Examples to start from, in the editor's format (a function named `reward`); the CLI's form is `export default`. */
export const REWARD_EXAMPLES = {
  correctness: {
    title: 'Correctness',
    source: `// 1 when the integer after "####" equals the answer, else 0: the lab's own correctness reward.
function reward(completions, ctx) {
  return completions.map((text, i) => {
    const match = /####\\s*(-?\\d+)/.exec(text);
    return match !== null && Number(match[1]) === Number(ctx.answers[i]) ? 1 : 0;
  });
}
`,
  },
  format: {
    title: 'Format',
    source: `// 1 for a well-formed answer, "[work ]#### <integer>" and nothing after it, else 0.
// It says nothing about whether the answer is right: pair it with correctness.
function reward(completions, ctx) {
  return completions.map((text, i) => (!ctx.truncated[i] && /^(?:[^#]* )?#### (-?\\d+)$/.test(text) ? 1 : 0));
}
`,
  },
  length_penalty: {
    title: 'Length penalty',
    source: `// 0 up to the length of "#### <answer>", then minus the share of extra characters, down to -1.
// Alone it is maximised by writing nothing: use it beside correctness, with a small weight.
function reward(completions, ctx) {
  return completions.map((text, i) => {
    const reference = ('#### ' + ctx.answers[i]).length;
    const extra = text.length - reference;
    return extra <= 0 ? 0 : Math.max(-1, -extra / reference);
  });
}
`,
  },
  hackable: {
    title: 'Hackable (deliberately flawed)',
    source: `// DELIBERATELY FLAWED: a one-character bug. It was meant to pay 1 when the answer equals the truth,
// but compares with >= : every over-estimate earns full marks too. Run it with correctness at weight 0,
// watch rewards/custom/mean climb while held-out accuracy falls, then fix it (===) and run again.
function reward(completions, ctx) {
  return completions.map((text, i) => {
    const match = /####\\s*(-?\\d+)/.exec(text);
    return match !== null && Number(match[1]) >= Number(ctx.answers[i]) ? 1 : 0;
  });
}
`,
  },
} as const;

export type RewardExampleName = keyof typeof REWARD_EXAMPLES;

/** An editor example as a CLI reward file: the same function, default-exported. */
export const asRewardModule = (source: string): string => `${source}\nexport default reward;\n`;
