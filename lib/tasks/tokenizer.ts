/**
 * Character-level tokenizer: one token per character, plus three specials at fixed ids
 * PAD = 0 (fills batches; never trained on), BOS = 1 (starts every prompt), EOS = 2 (ends every completion).
 */
export const PAD_ID = 0;
export const BOS_ID = 1;
export const EOS_ID = 2;
const SPECIALS = ['<pad>', '<bos>', '<eos>'] as const;

/** Digits, the three operators, '=', '#' (GSM8K's "#### answer"), space, ',' (scratch work), '[' ']' (tool calls). */
export const ARITHMETIC_CHARS = '0123456789+-*=# ,[]';

/** The agent lab's vocabulary: the arithmetic characters and '?', the calculator's answer to a malformed call ("=?"). */
export const AGENT_CHARS = `${ARITHMETIC_CHARS}?`;

export interface CharTokenizer {
  /** Token strings by id: specials first, then the characters. */
  readonly vocab: readonly string[];
  readonly vocabSize: number;
  readonly pad: number;
  readonly bos: number;
  readonly eos: number;
  /** Text → ids (no specials added). Throws on a character outside the vocabulary, naming it and its position. */
  encode(text: string): number[];
  /**
   * Ids → text. By default stops at the first EOS and drops PAD/BOS; with `{ raw: true }` every token is rendered,
   * specials as '<pad>', '<bos>', '<eos>'.
   */
  decode(ids: readonly number[], opts?: { raw?: boolean }): string;
  isSpecial(id: number): boolean;
}

export function createCharTokenizer(chars: string = ARITHMETIC_CHARS): CharTokenizer {
  const unique = [...new Set(chars)];
  if (unique.length !== chars.length) throw new Error(`tokenizer characters must be unique: '${chars}'`);
  const vocab = [...SPECIALS, ...unique];
  const index = new Map(unique.map((c, i) => [c, i + SPECIALS.length]));
  return {
    vocab,
    vocabSize: vocab.length,
    pad: PAD_ID,
    bos: BOS_ID,
    eos: EOS_ID,
    encode(text) {
      return [...text].map((ch, i) => {
        const id = index.get(ch);
        if (id == null) {
          throw new Error(`unknown character ${JSON.stringify(ch)} at position ${i} of ${JSON.stringify(text)}; the vocabulary is ${JSON.stringify(unique.join(''))}`);
        }
        return id;
      });
    },
    decode(ids, opts = {}) {
      let out = '';
      for (const id of ids) {
        if (id < 0 || id >= vocab.length || !Number.isInteger(id)) throw new Error(`token id ${id} is outside the vocabulary (0..${vocab.length - 1})`);
        if (opts.raw) out += vocab[id];
        else if (id === EOS_ID) break;
        else if (id >= SPECIALS.length) out += vocab[id];
      }
      return out;
    },
    isSpecial: (id) => id < SPECIALS.length,
  };
}
