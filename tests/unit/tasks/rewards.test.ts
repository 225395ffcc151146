import { describe, expect, it } from 'vitest';
import {
  combineRewards,
  correctnessReward,
  formatReward,
  hackableDigitReward,
  atLeastReward,
  lengthPenalty,
  parseAnswer,
} from '@/lib/tasks/rewards';

const answers = (n: number, a = '52') => new Array(n).fill(a);

describe('reward functions', () => {
  it('parseAnswer takes the integer after ####', () => {
    expect(parseAnswer('#### 52')).toBe('52');
    expect(parseAnswer('12,5 #### -7 junk')).toBe('-7');
    expect(parseAnswer('52')).toBeNull();
  });

  it('correctness: 1 only for the right number', () => {
    const c = ['#### 52', '#### 25', '52', '#### 052', '12,4 #### 52', '####52', '#### 5'];
    expect(correctnessReward(c, { answers: answers(c.length) })).toEqual([1, 0, 0, 1, 1, 1, 0]);
    expect(correctnessReward(['#### -3'], { answers: ['-3'] })).toEqual([1]);
  });

  it('format: "[work ]#### <integer>" and nothing else, not truncated', () => {
    const c = ['#### 52', '#### 25', '12,4 #### 52', '####52', '#### 52 ', '52', '#### ', '#### 5#', '#### -1'];
    expect(formatReward(c, { answers: answers(c.length) })).toEqual([1, 1, 1, 0, 0, 0, 0, 0, 1]);
    expect(formatReward(['#### 52', '#### 52'], { answers: answers(2), truncated: [false, true] })).toEqual([1, 0]);
  });

  it('length: 0 up to the reference length, then −extra/reference, floored at −1', () => {
    const c = ['#### 52', '#### 5', '#### 5212345', '#### 52123456789012345'];
    expect(lengthPenalty(c, { answers: answers(4) })).toEqual([0, 0, -5 / 7, -1]);
    expect(lengthPenalty(['12,4 #### 52'], { answers: ['52'], references: ['12,4 #### 52'] })).toEqual([0]);
  });

  it('the hackable reward pays for the right digits in any order — and for the all-digits exploit', () => {
    const c = ['#### 52', '#### 25', '#### 1234567890', '#### 5', '#### 99', 'no answer'];
    expect(hackableDigitReward(c, { answers: answers(c.length) })).toEqual([1, 1, 1, 0, 0, 0]);
    expect(correctnessReward(c, { answers: answers(c.length) })).toEqual([1, 0, 0, 0, 0, 0]);
  });

  it('combineRewards is a weighted sum', () => {
    const r = combineRewards([
      { fn: correctnessReward, weight: 1 },
      { fn: formatReward, weight: 0.5 },
    ]);
    expect(r(['#### 52', '#### 25', 'x'], { answers: answers(3) })).toEqual([1.5, 0.5, 0]);
  });
});

describe('atLeastReward (deliberately flawed: a >= bug)', () => {
  it('pays for the right answer and for any larger one, not for smaller or unparseable ones', () => {
    const c = ['#### 52', '12,5 #### 97', '#### 199', '#### 51', '#### -3', 'no answer'];
    expect(atLeastReward(c, { answers: c.map(() => '52') })).toEqual([1, 1, 1, 0, 0, 0]);
  });
});
