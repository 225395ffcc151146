import { describe, expect, it } from 'vitest';
import { formatGoal, goalMet, GoalError, parseGoal } from '@/lib/teach/goal';

describe('parseGoal', () => {
  it('reads "<metric> <op> <value>" with or without spaces', () => {
    expect(parseGoal('eval/accuracy >= 0.45', 'grpo')).toEqual({ metric: 'eval/accuracy', op: '>=', value: 0.45 });
    expect(parseGoal('  eval/format<0.9 ', 'dpo')).toEqual({ metric: 'eval/format', op: '<', value: 0.9 });
    expect(parseGoal('eval/return >= -0.25', 'ppo')).toEqual({ metric: 'eval/return', op: '>=', value: -0.25 });
    expect(parseGoal('eval/old_task_accuracy>=5e-1', 'sft').value).toBe(0.5);
  });

  it.each([
    ['eval/return >= 1', /grpo cannot be graded on "eval\/return"/],
    ['__proto__ >= 1', /cannot be graded on "__proto__"/],
    ['constructor >= 1', /cannot be graded on "constructor"/],
    ['toString >= 1', /cannot be graded on "toString"/],
    ['eval/accuracy >= 0x10', /decimal number/],
    ['eval/accuracy >= +1', /decimal number/],
    ['eval/accuracy >= 1e999', /decimal number/],
    ['eval/accuracy == 1', /expected/],
    ['eval/accuracy', /expected/],
    ['>= 1', /expected/],
    ['x'.repeat(300), /at most 200/],
  ])('refuses %s', (text, message) => {
    expect(() => parseGoal(text, 'grpo')).toThrow(GoalError);
    expect(() => parseGoal(text, 'grpo')).toThrow(message);
  });
});

describe('a lab no assignment can name', () => {
  it('refuses the team lab in one line that says why, whatever the goal', () => {
    expect(() => parseGoal('eval/accuracy >= 0.9', 'team')).toThrow(new GoalError('the team lab cannot be assigned: grading re-evaluates a submission’s weights with lib/teach/evaluate.ts, which evaluates one model, and a team is two'));
  });

  it('refuses the vision lab in one line that says why: the grader evaluates a text-only model', () => {
    expect(() => parseGoal('eval/accuracy >= 0.5', 'vision')).toThrow(GoalError);
    expect(() => parseGoal('eval/accuracy >= 0.5', 'vision')).toThrow(/^the vision lab cannot be assigned yet: .*text-only TinyLM.*reads pictures$/);
  });
});

describe('goalMet', () => {
  const at = (op: '>=' | '<=' | '>' | '<') => ({ metric: 'eval/accuracy', op, value: 0.45 });
  it('compares at the boundary as written', () => {
    expect([goalMet(at('>='), 0.45), goalMet(at('>'), 0.45), goalMet(at('<='), 0.45), goalMet(at('<'), 0.45)]).toEqual([true, false, true, false]);
    expect([goalMet(at('>='), 0.44), goalMet(at('<'), 0.44)]).toEqual([false, true]);
  });

  it('never meets a goal without a measurement', () => {
    expect(goalMet(at('<='), null)).toBe(false);
    expect(goalMet(at('<='), NaN)).toBe(false);
  });

  it('formats a goal as it is parsed', () => {
    expect(formatGoal(parseGoal('eval/accuracy>=0.45', 'grpo'))).toBe('eval/accuracy >= 0.45');
  });
});
