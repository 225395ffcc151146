import { describe, expect, it } from 'vitest';
import { answerOf, filterSamples, keptPrecision, verified } from '@/lib/train/self-improve-filter';

// Two problems (answers 132 and 57), three samples each, as the trainer lays them out: group after group.
const texts = ['12,13 #### 132', '12,13 #### 132', '12,3 #### 32', '7,5 #### 57', '7,4 #### 47', '7,4 #### 47'];
const answers = ['132', '132', '132', '57', '57', '57'];
const finished = [true, true, true, true, true, true];

describe('self-improvement filters', () => {
  it('reads an answer as an integer, or none', () => {
    expect(answerOf('1,2 #### 052')).toBe('52');
    expect(answerOf('1,2 ####')).toBeNull();
    expect(answerOf('garbage')).toBeNull();
  });

  it('the verifier keeps exactly the right answers', () => {
    expect(verified(texts, answers)).toEqual([true, true, false, true, false, false]);
    expect(filterSamples('verifier', { texts, finished, answers, groupSize: 3 })).toEqual([0, 1, 3]);
  });

  it('majority vote keeps what more than half of a group answers, right or wrong, without reading the answers', () => {
    // Group 1: 132 twice out of 3 (kept); group 2: 47 twice (kept, though wrong).
    const kept = filterSamples('majority', { texts, finished, answers: answers.map(() => '0'), groupSize: 3 });
    expect(kept).toEqual([0, 1, 4, 5]);
    // Precision against the true answers: 2 of the 4 kept are right.
    expect(keptPrecision(kept, verified(texts, answers))).toBe(0.5);
  });

  it('a tie is no majority: nothing of that group is kept', () => {
    const tie = ['#### 1', '#### 1', '#### 2', '#### 2'];
    expect(filterSamples('majority', { texts: tie, finished: [true, true, true, true], answers: ['1', '1', '1', '1'], groupSize: 4 })).toEqual([]);
  });

  it('never keeps a sample cut off before EOS, and none keeps every finished one', () => {
    const cut = [true, false, true, true, true, true];
    expect(filterSamples('verifier', { texts, finished: cut, answers, groupSize: 3 })).toEqual([0, 3]);
    expect(filterSamples('none', { texts, finished: cut, answers, groupSize: 3 })).toEqual([0, 2, 3, 4, 5]);
  });

  it('refuses samples that do not split into groups', () => {
    expect(() => filterSamples('majority', { texts, finished, answers, groupSize: 4 })).toThrow(/groups of 4/);
  });

  it('precision of nothing kept is 0', () => {
    expect(keptPrecision([], [])).toBe(0);
  });
});
