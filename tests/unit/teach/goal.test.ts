import { describe, expect, it } from 'vitest';
import { TRAINER_NAMES, TRAINERS } from '@/lib/spec/registry';
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

describe('every lab can be assigned, its goals read from its spec', () => {
  it.each(TRAINER_NAMES)('%s: every metric its spec lists parses, and one it does not report is refused', (trainer) => {
    const metrics = TRAINERS[trainer].grading.metrics;
    expect(metrics.length).toBeGreaterThan(0);
    for (const { name, min, max } of metrics) {
      // A threshold strictly inside the metric's range, so that no goal here is refused for its range.
      const value = Number.isFinite(min) && Number.isFinite(max) ? (min + max) / 2 : Number.isFinite(min) ? min + 1 : 0;
      expect(parseGoal(`${name} >= ${value}`, trainer).metric).toBe(name);
    }
    expect(() => parseGoal('eval/not_a_metric >= 0.5', trainer)).toThrow(`${trainer} cannot be graded on "eval/not_a_metric"`);
  });

  it('states the team lab’s bounds: a message is at most its channel long, and carries at most 2 bits about 4 positions', () => {
    expect(() => parseGoal('eval/message_length > 4', 'team')).toThrow(/can never be met: eval\/message_length lies in \[0, 4\]/);
    expect(() => parseGoal('eval/message_information_bits >= 2.5', 'team')).toThrow(/can never be met/);
    expect(parseGoal('eval/accuracy >= 0.9', 'team')).toEqual({ metric: 'eval/accuracy', op: '>=', value: 0.9 });
    expect(parseGoal('eval/accuracy_count_colour >= 0.4', 'vision').metric).toBe('eval/accuracy_count_colour');
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
