import { describe, expect, it } from 'vitest';
import { ARITHMETIC_CHARS, BOS_ID, createCharTokenizer, EOS_ID, PAD_ID } from '@/lib/tasks/tokenizer';

describe('character tokenizer', () => {
  const tok = createCharTokenizer();

  it('has specials at fixed ids and one token per character', () => {
    expect([tok.pad, tok.bos, tok.eos]).toEqual([PAD_ID, BOS_ID, EOS_ID]);
    expect(tok.vocabSize).toBe(3 + ARITHMETIC_CHARS.length);
    expect(tok.vocab.slice(0, 4)).toEqual(['<pad>', '<bos>', '<eos>', '0']);
  });

  it('round-trips every character', () => {
    const text = '12+34=#### 46,[7*8]=56 -9';
    const ids = tok.encode(text);
    expect(ids).toHaveLength(text.length);
    expect(tok.decode(ids)).toBe(text);
    expect(tok.encode('0')).toEqual([3]);
  });

  it('decode stops at EOS and drops PAD/BOS unless raw', () => {
    const ids = [BOS_ID, ...tok.encode('7+1='), ...tok.encode('8'), EOS_ID, PAD_ID, ...tok.encode('9')];
    expect(tok.decode(ids)).toBe('7+1=8');
    expect(tok.decode(ids, { raw: true })).toBe('<bos>7+1=8<eos><pad>9');
    expect(() => tok.decode([99])).toThrow(/token id 99 is outside the vocabulary/);
  });

  it('rejects unknown characters, naming them', () => {
    expect(() => tok.encode('12/4')).toThrow(/unknown character "\/" at position 2 of "12\/4"/);
    expect(() => tok.encode('x')).toThrow(/unknown character "x"/);
  });

  it('rejects duplicate characters', () => {
    expect(() => createCharTokenizer('aab')).toThrow(/unique/);
  });
});
