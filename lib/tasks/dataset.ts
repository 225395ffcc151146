/**
 * A reader's own data, as a JSONL file: one problem per line.
 *
 *   SFT, GRPO   {"prompt": "07+45=", "answer": "52"}                 optional "split": "train" | "test"
 *   DPO         {"prompt": "07+45=", "chosen": "#### 52", "rejected": "#### 53"}
 *
 * The file is untrusted input: parseDataset checks every line (valid JSON, an object, the fields and nothing else,
 * strings) and checkFits checks it against the model (every character in its vocabulary, every row within its
 * context), each error naming its line; a file is loaded whole or not at all. Lines without a split are split by a
 * hash of the prompt (10% held out), so the same prompt always lands on the same side and a file splits the same way
 * everywhere. Model-free: the trainers read a dataset through createDatasetTask, a task like the built-in ones.
 *
 * What the fields mean: `answer` is what the reward and the evaluation compare against, the integer after "####" in
 * GSM8K's format ("52" or "#### 52"); SFT learns to write "#### <answer>", or the answer itself when it already holds
 * its "####" ("12,5 #### 52": work, then the answer).
 */
import { z } from 'zod';
import type { Rng } from '@/lib/random';
import { hash32 } from './arithmetic';
import { parseAnswer } from './rewards';
import type { PromptTask, TaskProblem } from './task';
import type { CharTokenizer } from './tokenizer';

export type DatasetKind = 'prompt-answer' | 'preference';
export type Split = 'train' | 'test';

/** Refused unread above this size, and above this many lines. */
export const DATASET_MAX_BYTES = 4_000_000;
export const DATASET_MAX_LINES = 50_000;
/** Share of the lines without a "split" held out for evaluation (by a hash of the prompt), as the built-in task. */
export const DATASET_HELD_OUT_FRACTION = 0.1;

export interface PromptAnswerRecord {
  /** 1-based line in the file. */
  line: number;
  prompt: string;
  answer: string;
  split: Split;
}

export interface PreferenceRecord {
  line: number;
  prompt: string;
  chosen: string;
  rejected: string;
  split: Split;
}

export type Dataset = { kind: 'prompt-answer'; records: PromptAnswerRecord[] } | { kind: 'preference'; records: PreferenceRecord[] };

/** A problem with the file: the message names its line ("line 4: …"), or the file as a whole. */
export class DatasetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatasetError';
  }
}

const FIELDS: Record<DatasetKind, readonly string[]> = {
  'prompt-answer': ['prompt', 'answer'],
  preference: ['prompt', 'chosen', 'rejected'],
};

const schemas = {
  'prompt-answer': z.strictObject({ prompt: z.string(), answer: z.string(), split: z.enum(['train', 'test']).optional() }),
  preference: z.strictObject({ prompt: z.string(), chosen: z.string(), rejected: z.string(), split: z.enum(['train', 'test']).optional() }),
};

/** An example line of each kind, for messages. */
export const EXAMPLE_LINE: Record<DatasetKind, string> = {
  'prompt-answer': '{"prompt": "07+45=", "answer": "52"}',
  preference: '{"prompt": "07+45=", "chosen": "#### 52", "rejected": "#### 53"}',
};

/** One zod issue as a phrase about the line's fields. */
function issuePhrase(issue: z.core.$ZodIssue, kind: DatasetKind, line: object): string {
  const field = issue.path.length ? String(issue.path[0]) : '';
  if (issue.code === 'unrecognized_keys') return `unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')} (the fields are ${[...FIELDS[kind], 'split'].join(', ')})`;
  if (field === 'split') return '"split" must be "train" or "test"';
  if (!Object.hasOwn(line, field)) return `missing "${field}"`;
  return `"${field}" must be a string`;
}

/** The lines of `text` as records of `kind`; the first bad line throws a DatasetError naming it. */
export function parseDataset(text: string, kind: DatasetKind): Dataset {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.length > DATASET_MAX_LINES) throw new DatasetError(`the file has ${lines.length} lines; at most ${DATASET_MAX_LINES} are read`);
  const records: (PromptAnswerRecord | PreferenceRecord)[] = [];
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new DatasetError(`line ${line}: not valid JSON (${(error as Error).message}); each line is one object like ${EXAMPLE_LINE[kind]}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new DatasetError(`line ${line}: expected an object like ${EXAMPLE_LINE[kind]}`);
    const parsed = schemas[kind].safeParse(value);
    if (!parsed.success) {
      // An unknown field first: a misspelt "answr" is why "answer" is missing.
      const issues = [...parsed.error.issues].sort((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'));
      throw new DatasetError(`line ${line}: ${issuePhrase(issues[0], kind, value)}`);
    }
    const record = parsed.data as Record<string, string>;
    for (const field of FIELDS[kind]) if (record[field].trim() === '') throw new DatasetError(`line ${line}: "${field}" is empty`);
    const split: Split = (parsed.data.split as Split | undefined) ?? (hash32(record.prompt) / 2 ** 32 < DATASET_HELD_OUT_FRACTION ? 'test' : 'train');
    records.push({ ...record, line, split } as PromptAnswerRecord | PreferenceRecord);
  });
  if (records.length === 0) throw new DatasetError(`the file has no records; each line is one object like ${EXAMPLE_LINE[kind]}`);
  return { kind, records } as Dataset;
}

/** The answer the rewards and the evaluation compare against: the integer after "####", or the field as written. */
export const referenceAnswer = (answer: string): string => parseAnswer(answer) ?? answer.trim();

/** What SFT learns to write for an answer: "#### 52", or the answer as written when it already holds its "####". */
export const sftTarget = (answer: string): string => (answer.includes('####') ? answer : `#### ${answer.trim()}`);

/** The texts a row of the dataset puts in the model after the prompt, per field (what must fit in its context). */
function completions(dataset: Dataset, record: PromptAnswerRecord | PreferenceRecord): [field: string, text: string][] {
  if (dataset.kind === 'preference') {
    const r = record as PreferenceRecord;
    return [
      ['chosen', r.chosen],
      ['rejected', r.rejected],
    ];
  }
  return [['answer', sftTarget((record as PromptAnswerRecord).answer)]];
}

export interface ModelLimits {
  /** The characters the model's tokenizer knows (its specials aside). */
  chars: string;
  /** The model's context_length. */
  contextLength: number;
}

/**
 * Checks a dataset against the model it will train. Every character must be in the vocabulary. Prompts are padded to
 * the longest one (createDatasetTask), so each row needs 1 (BOS) + the longest prompt + its completion positions,
 * less one (the last token is never an input): with `sampledCompletion` (GRPO samples up to max_completion_length
 * tokens) that many, otherwise the row's own text plus EOS. Last, the file must hold lines to train on and lines to
 * hold out. Throws a DatasetError naming the first line that breaks a rule.
 */
export function checkFits(dataset: Dataset, limits: ModelLimits, sampledCompletion?: number): void {
  checkLines(dataset, limits, sampledCompletion);
  const count = (split: Split) => dataset.records.filter((r) => r.split === split).length;
  if (count('train') === 0) throw new DatasetError('no line is for training: every line has "split": "test"');
  if (count('test') === 0) throw new DatasetError(`no line is held out for evaluation: add "split": "test" to some lines (by default about ${DATASET_HELD_OUT_FRACTION * 100}% of prompts are, by a hash, and none of these ${dataset.records.length} were)`);
}

function checkLines(dataset: Dataset, limits: ModelLimits, sampledCompletion?: number): void {
  const known = new Set(limits.chars);
  for (const record of dataset.records) {
    const fields: [string, string][] = [['prompt', record.prompt], ...completions(dataset, record)];
    for (const [field, text] of fields) {
      const at = [...text].findIndex((ch) => !known.has(ch));
      if (at >= 0) {
        const ch = [...text][at];
        throw new DatasetError(`line ${record.line}: "${field}" has the character ${JSON.stringify(ch)} (position ${at + 1}), which the model's vocabulary lacks (it knows ${JSON.stringify(limits.chars)})`);
      }
    }
  }
  const longest = dataset.records.reduce((a, r) => ([...r.prompt].length > [...a.prompt].length ? r : a));
  const promptTokens = 1 + [...longest.prompt].length;
  const room = limits.contextLength + 1 - promptTokens; // completion tokens a row can hold, EOS included
  if (sampledCompletion !== undefined) {
    if (sampledCompletion > room) {
      throw new DatasetError(
        `line ${longest.line}: the prompt has ${promptTokens - 1} characters: with <bos> and max_completion_length ${sampledCompletion} a row needs ${promptTokens + sampledCompletion - 1} positions, and the model's context is ${limits.contextLength} (shorten the prompts to ${limits.contextLength + 1 - sampledCompletion - 1} characters, or lower max_completion_length to ${Math.max(room, 0)})`,
      );
    }
    return;
  }
  for (const record of dataset.records) {
    for (const [field, text] of completions(dataset, record)) {
      const tokens = [...text].length + 1; // EOS
      if (tokens > room) {
        throw new DatasetError(
          `line ${record.line}: "${field}" is ${tokens - 1} characters; after the longest prompt (line ${longest.line}, ${promptTokens - 1} characters) and <bos>, the model's context of ${limits.contextLength} leaves room for ${Math.max(room - 1, 0)}`,
        );
      }
    }
  }
}

/** A dataset's problem: what a task's problem is (prompt, answer, the SFT target), and where it came from. */
export interface DatasetProblem extends TaskProblem {
  line: number;
}

/**
 * A dataset as a task the trainers read like the built-in ones. Prompts shorter than the longest are left-padded with
 * <pad> after <bos>, so every row has the same length (the built-in task zero-pads its operands for the same reason);
 * sampling, training and evaluation all see the same padded prompt. For a preference file, the problems are its
 * prompts with `chosen` as the reference: what DPO's held-out accuracy compares against.
 */
export function createDatasetTask(dataset: Dataset, tokenizer: CharTokenizer, contextLength: number): PromptTask<DatasetProblem> {
  const problems: DatasetProblem[] = dataset.records.map((r) => {
    const target = 'answer' in r ? r.answer : r.chosen;
    return { line: r.line, prompt: r.prompt, answer: referenceAnswer(target), completion: sftTarget(target) };
  });
  const bySplit = { train: problems.filter((_, i) => dataset.records[i].split === 'train'), test: problems.filter((_, i) => dataset.records[i].split === 'test') };
  const width = Math.max(...problems.map((p) => [...p.prompt].length));
  const promptLength = 1 + width;
  return {
    tokenizer,
    promptLength,
    // Held-out generation may use all the room the context leaves.
    maxCompletionLength: contextLength + 1 - promptLength,
    sample: (split: Split, n: number, rng: Rng) => Array.from({ length: n }, () => bySplit[split][rng.int(bySplit[split].length)]),
    testSet: (n: number) => bySplit.test.slice(0, n),
    encodePrompt: (p) => {
      const ids = tokenizer.encode(p.prompt);
      return [tokenizer.bos, ...Array<number>(width - ids.length).fill(tokenizer.pad), ...ids];
    },
    encodeCompletion: (p) => [...tokenizer.encode(p.completion), tokenizer.eos],
  };
}
