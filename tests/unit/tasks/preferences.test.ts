import { describe, expect, it } from 'vitest';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { buildPreferencePairs, offlinePreferencePairs, wrongAnswer } from '@/lib/tasks/preferences';
import { correctnessReward } from '@/lib/tasks/rewards';
import { createRng } from '@/lib/random';

describe('preference pairs', () => {
  it('pairs correct with incorrect completions of the same prompt only', () => {
    const completions = ['#### 52', '#### 25', '#### 52', '#### 7', '#### 9', '#### 9'];
    const group = [0, 0, 0, 0, 1, 1];
    const answers = ['52', '52', '52', '52', '9', '9'];
    const rewards = correctnessReward(completions, { answers });
    const pairs = buildPreferencePairs(completions.map((c, i) => ({ group: group[i], completion: c, reward: rewards[i] })));
    expect(pairs).toEqual([
      { group: 0, chosen: '#### 52', rejected: '#### 7', chosenReward: 1, rejectedReward: 0 },
      { group: 0, chosen: '#### 52', rejected: '#### 25', chosenReward: 1, rejectedReward: 0 },
    ]); // group 1: both correct, no pair
  });

  it('skips ties, respects a margin, and caps pairs per group', () => {
    const s = (r: number[]) => r.map((reward, i) => ({ group: 'g', completion: i, reward }));
    expect(buildPreferencePairs(s([0.5, 0.5, 0.5]))).toEqual([]);
    expect(buildPreferencePairs(s([1, 0.9, 0.2, 0]), { minMargin: 0.5 }).map((p) => [p.chosen, p.rejected])).toEqual([[0, 3], [1, 2]]);
    expect(buildPreferencePairs(s([1, 0.9, 0.2, 0]), { minMargin: 0.8 }).map((p) => [p.chosen, p.rejected])).toEqual([[0, 3]]);
    expect(buildPreferencePairs(s([1, 1, 0, 0]), { maxPairsPerGroup: 1 })).toHaveLength(1);
  });

  it('wrong answers are plausible and never right', () => {
    const task = createArithmeticTask();
    const rng = createRng(4);
    for (const p of task.sample('train', 200, rng)) {
      const w = wrongAnswer(p, rng);
      expect(w).not.toBe(p.answer);
      expect(Math.abs(Number(w) - Number(p.answer))).toBeLessThanOrEqual(110); // at most both carries forgotten
    }
    const p = { a: 47, b: 85, op: '+' as const, prompt: '47+85=', completion: '#### 132', answer: '132' };
    const seen = new Set(Array.from({ length: 100 }, () => wrongAnswer(p, rng)));
    expect(seen).toContain('22'); // the forgotten carry
  });

  it('offline pairs: chosen is the reference, rejected the same format with a wrong answer', () => {
    const task = createArithmeticTask();
    const pairs = offlinePreferencePairs(task, 20, createRng(1));
    for (const { problem, prompt, chosen, rejected } of pairs) {
      expect(prompt).toEqual(task.encodePrompt(problem));
      expect(task.tokenizer.decode(chosen)).toBe(problem.completion);
      const r = task.tokenizer.decode(rejected);
      expect(r).toMatch(/^#### -?\d+$/);
      expect(correctnessReward([r], { answers: [problem.answer] })).toEqual([0]);
      expect(rejected[rejected.length - 1]).toBe(task.tokenizer.eos);
    }
  });
});
