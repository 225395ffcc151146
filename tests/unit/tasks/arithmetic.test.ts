import { describe, expect, it } from 'vitest';
import { columnSums, createArithmeticTask } from '@/lib/tasks/arithmetic';
import { createRng } from '@/lib/random';

describe('arithmetic task', () => {
  const task = createArithmeticTask();

  it('lays out prompt → completion in the #### format, with EOS, at fixed prompt length', () => {
    const [p] = task.sample('train', 1, createRng(1));
    expect(p.prompt).toMatch(/^\d\d\+\d\d=$/);
    expect(p.completion).toBe(`#### ${p.a + p.b}`);
    expect(p.answer).toBe(String(p.a + p.b));
    const prompt = task.encodePrompt(p);
    expect(prompt).toHaveLength(task.promptLength);
    expect(prompt[0]).toBe(task.tokenizer.bos);
    const completion = task.encodeCompletion(p);
    expect(completion[completion.length - 1]).toBe(task.tokenizer.eos);
    expect(completion.length).toBeLessThanOrEqual(task.maxCompletionLength);
    expect(task.tokenizer.decode([...prompt, ...completion])).toBe(p.prompt + p.completion);
  });

  it('train and test splits are disjoint, deterministic, and about the configured size', () => {
    const train = task.sample('train', 3000, createRng(1));
    const test = task.testSet(300);
    const key = (p: { a: number; b: number; op: string }) => `${p.a}${p.op}${p.b}`;
    const testKeys = new Set(test.map(key));
    expect(testKeys.size).toBe(300);
    expect(train.some((p) => testKeys.has(key(p)))).toBe(false);
    expect(task.testSet(300)).toEqual(test);
    expect(createArithmeticTask().testSet(50)).toEqual(test.slice(0, 50));
    expect(task.sample('train', 20, createRng(7))).toEqual(task.sample('train', 20, createRng(7)));
    let held = 0;
    for (let a = 0; a < 100; a++) for (let b = 0; b < 100; b++) held += task.isHeldOut(a, b, '+') ? 1 : 0;
    expect(held / 10_000).toBeGreaterThan(0.08);
    expect(held / 10_000).toBeLessThan(0.12);
    expect(createArithmeticTask({ split_seed: 1 }).testSet(20)).not.toEqual(test.slice(0, 20));
  });

  it('scratchpad writes column sums units first', () => {
    expect(columnSums(47, 85, 2)).toEqual([12, 13]);
    expect(columnSums(7, 5, 2)).toEqual([12, 1]);
    const s = createArithmeticTask({ scratchpad: true });
    const [p] = s.sample('train', 1, createRng(3));
    expect(p.completion).toBe(`${columnSums(p.a, p.b, 2).join(',')} #### ${p.a + p.b}`);
    expect(s.encodeCompletion(p).length).toBeLessThanOrEqual(s.maxCompletionLength);
  });

  it('supports - and * and validates its config', () => {
    const t = createArithmeticTask({ operators: ['-', '*'] });
    const ps = t.sample('train', 50, createRng(2));
    expect(new Set(ps.map((p) => p.op))).toEqual(new Set(['-', '*']));
    for (const p of ps) {
      expect(Number(p.answer)).toBe(p.op === '-' ? p.a - p.b : p.a * p.b);
      expect(t.encodeCompletion(p).length).toBeLessThanOrEqual(t.maxCompletionLength);
    }
    expect(() => createArithmeticTask({ scratchpad: true, operators: ['*'] })).toThrow(/addition/);
    expect(() => createArithmeticTask({ digits: 0 })).toThrow(/digits/);
  });

  it('keeps sequences short (prompt + completion ≤ 24 tokens)', () => {
    expect(task.promptLength + task.maxCompletionLength).toBeLessThanOrEqual(24);
    const s = createArithmeticTask({ scratchpad: true });
    expect(s.promptLength + s.maxCompletionLength).toBeLessThanOrEqual(24);
  });
});
