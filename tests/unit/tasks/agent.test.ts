/** The agent lab's task: what each split holds and in what mix. */
import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { agentProblem, createAgentTask } from '@/lib/tasks/agent';

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
});
