/** The agent lab's task: what each split holds and in what mix. */
import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { agentProblem, createAgentTask, episodeStats, randomCallFailures } from '@/lib/tasks/agent';

const task = createAgentTask();

describe('agent task', () => {
  it('writes a problem with the first factor padded to three digits', () => {
    expect(agentProblem(7, 6)).toMatchObject({ prompt: '007*6=', expression: '007*6', answer: '42', easy: true });
    expect(agentProblem(347, 6)).toMatchObject({ prompt: '347*6=', answer: '2082', easy: false });
  });

  it('never trains on a held-out problem, and tests only on held-out hard problems', () => {
    const train = task.sample('train', 2000, createRng('train'));
    const test = task.sample('test', 2000, createRng('test'));
    expect(train.filter((p) => task.isHeldOut(p))).toEqual([]);
    expect(test.filter((p) => !p.easy && !task.isHeldOut(p))).toEqual([]);
    expect(test.some((p) => !p.easy)).toBe(true);
  });

  it('keeps easy_fraction easy problems in a test sample, as in the test set', () => {
    const share = (ps: { easy: boolean }[]) => ps.filter((p) => p.easy).length / ps.length;
    // 2000 draws at p = 0.25: one standard error is ~0.01.
    expect(share(task.sample('test', 2000, createRng('mix')))).toBeCloseTo(0.25, 1);
    expect(share(task.testSet(200))).toBe(0.25);
    expect(share(createAgentTask({ easy_fraction: 0.5 }).sample('test', 2000, createRng('mix')))).toBeCloseTo(0.5, 1);
  });

  it('draws the same problems from the same seed', () => {
    expect(task.sample('test', 20, createRng('s'))).toEqual(task.sample('test', 20, createRng('s')));
  });

  it('writes the plan of a product: one call', () => {
    expect(agentProblem(347, 6).plan).toEqual(['347*6']);
  });

  it('fails calls at random at the rate asked, reproducibly from the salt alone', () => {
    const fails = randomCallFailures(0.3, 'eval')!;
    const texts = Array.from({ length: 4000 }, (_, i) => `[${100 + (i % 900)}*${2 + (i % 8)}]=? [${i}*7]`);
    const share = texts.filter((t) => fails(t)).length / texts.length;
    expect(share).toBeGreaterThan(0.27); // 4000 draws at p = 0.3: one standard error is ~0.007
    expect(share).toBeLessThan(0.33);
    expect(texts.map((t) => fails(t))).toEqual(texts.map((t) => randomCallFailures(0.3, 'eval')!(t)));
    expect(texts.filter((t) => fails(t) !== randomCallFailures(0.3, 'train:0:1')!(t)).length).toBeGreaterThan(1000);
    expect(randomCallFailures(0, 'eval')).toBeUndefined();
    expect(() => randomCallFailures(1.5, 'eval')).toThrow(/failure rate/);
  });

  it('counts retries and recoveries among the episodes with a failed call', () => {
    const texts = ['[347*6]=? [347*6]=2082 #### 2082', '[347*6]=? #### 2000', '[347*6]=? [347*6]=2082 #### 2081', '[347*6]=2082 #### 2082'];
    const stats = episodeStats(texts, { answers: texts.map(() => '2082') });
    expect(stats.failedEpisodes).toBe(3);
    expect(stats.retryRate).toBeCloseTo(2 / 3, 12);
    expect(stats.recoveryRate).toBeCloseTo(1 / 3, 12);
    expect(episodeStats(['[347*6]=2082 #### 2082']).retryRate).toBeNull();
  });
});
