import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { columnSpan, createAdditionCurriculum, curriculumCompletionLength } from '@/lib/tasks/addition-curriculum';

describe('addition curriculum', () => {
  const cur = createAdditionCurriculum({ width: 3 });

  it('writes every problem at the full width, with two-character column sums units first', () => {
    expect(cur.problem(347, 285)).toMatchObject({ prompt: '347+285=', completion: '12,13,06 #### 632', answer: '632', difficulty: 3 });
    expect(cur.problem(470, 850 - 800)).toMatchObject({ prompt: '470+050=', completion: '00,12,05 #### 520', difficulty: 2 });
    expect(cur.problem(0, 0)).toMatchObject({ completion: '00,00,00 #### 0', difficulty: 1 });
    // The longest completion fills the budget exactly: 999 + 999.
    expect(cur.at(3).encodeCompletion(cur.problem(999, 999))).toHaveLength(curriculumCompletionLength(3));
  });

  it('measures difficulty as the columns the nonzero digits span', () => {
    expect(columnSpan(47, 85)).toBe(2);
    expect(columnSpan(470, 850)).toBe(2);
    expect(columnSpan(400, 5)).toBe(3);
    expect(columnSpan(0, 9)).toBe(1);
  });

  it('draws each difficulty at every offset, from the split asked for', () => {
    const rng = createRng(1);
    const twos = cur.at(2).sample('train', 300, rng);
    expect(twos.every((p) => p.difficulty === 2 && !cur.isHeldOut(p.a, p.b) && p.a + p.b === Number(p.answer))).toBe(true);
    // Both offsets occur: units-aligned (a nonzero units digit) and shifted up one column.
    expect(twos.some((p) => p.a % 10 !== 0 || p.b % 10 !== 0)).toBe(true);
    expect(twos.some((p) => p.a % 10 === 0 && p.b % 10 === 0)).toBe(true);
    expect(cur.at(3).sample('test', 50, rng).every((p) => p.difficulty === 3 && cur.isHeldOut(p.a, p.b))).toBe(true);
  });

  it('has a fixed held-out test set per difficulty, with no repeats', () => {
    const a = cur.at(3).testSet(100);
    expect(a.map((p) => p.prompt)).toEqual(createAdditionCurriculum({ width: 3 }).at(3).testSet(100).map((p) => p.prompt));
    expect(new Set(a.map((p) => p.prompt)).size).toBe(100);
    expect(a.every((p) => cur.isHeldOut(p.a, p.b) && p.difficulty === 3)).toBe(true);
  });

  it('keeps prompts the same length at every difficulty', () => {
    const lengths = [1, 2, 3].map((d) => cur.at(d).encodePrompt(cur.at(d).sample('train', 1, createRng(d))[0]).length);
    expect(new Set(lengths)).toEqual(new Set([cur.at(1).promptLength]));
  });

  it('refuses a width or difficulty it cannot write', () => {
    expect(() => createAdditionCurriculum({ width: 1 })).toThrow(/width/);
    expect(() => cur.at(4)).toThrow(/difficulty/);
    expect(() => cur.problem(1000, 1)).toThrow(/operands/);
  });
});
