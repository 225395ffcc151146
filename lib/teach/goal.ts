/**
 * An assignment's goal: one evaluation metric, a comparison and a threshold, such as `eval/accuracy >= 0.45`. The
 * metrics are those each trainer's held-out evaluation reports (lib/teach/evaluate.ts computes them again on the
 * instructor's own evaluation set). No tfjs.
 */
import type { TrainerName } from '@/lib/spec/registry';
import type { LogLine } from '@/lib/train/run';

export const GOAL_OPS = ['>=', '<=', '>', '<'] as const;
export type GoalOp = (typeof GOAL_OPS)[number];

export interface Goal {
  metric: string;
  op: GoalOp;
  value: number;
}

/** What a goal can name, per trainer: the evaluation metrics lib/teach/evaluate.ts measures. */
export const GOAL_METRICS: { readonly [N in TrainerName]: readonly string[] } = {
  sft: ['eval/accuracy', 'eval/format', 'eval/old_task_accuracy'],
  grpo: ['eval/accuracy', 'eval/format'],
  dpo: ['eval/accuracy', 'eval/format'],
  agent: ['eval/accuracy', 'eval/accuracy_hard', 'eval/accuracy_easy', 'eval/format', 'eval/tool_call_rate', 'eval/mean_turns', 'eval/calls_per_episode', 'eval/retry_rate', 'eval/recovery_rate'],
  ppo: ['eval/return', 'eval/success_rate', 'eval/length'],
  self_improve: ['eval/accuracy_target'],
  team: [], // not assignable: see NOT_ASSIGNABLE
  vision: [], // not assignable: see NOT_ASSIGNABLE
};

/** Trainers an assignment cannot name, each with the one line that says why (the CLI, /teach/ and the grader print it). */
export const NOT_ASSIGNABLE: { readonly [N in TrainerName]?: string } = {
  team: 'the team lab cannot be assigned: grading re-evaluates a submission’s weights with lib/teach/evaluate.ts, which evaluates one model, and a team is two',
  vision: 'the vision lab cannot be assigned yet: grading re-evaluates a submission’s weights with lib/teach/evaluate.ts, which evaluates a text-only TinyLM on text tasks, and the vision model reads pictures',
};

export class GoalError extends Error {}

/**
 * The values each metric can take: shares of problems lie in [0, 1]; turns, calls and lengths are at least 0 (a mean
 * of turns at least 1); a return has no bound the grader can state for every environment.
 */
export function metricRange(metric: string): { min: number; max: number } {
  if (metric === 'eval/return') return { min: -Infinity, max: Infinity };
  if (metric === 'eval/mean_turns') return { min: 1, max: Infinity };
  if (metric === 'eval/length' || metric === 'eval/calls_per_episode') return { min: 0, max: Infinity };
  return { min: 0, max: 1 };
}

/**
 * Why a goal cannot be right, or null: one no value of the metric can meet (eval/accuracy >= 1.5), or one every value
 * meets (eval/accuracy >= 0), which grades nothing.
 */
export function goalRangeProblem(goal: Goal): string | null {
  const { min, max } = metricRange(goal.metric);
  const range = `${goal.metric} lies in [${min}, ${max === Infinity ? '∞' : max}]`;
  const { op, value } = goal;
  const never = (op === '>=' && value > max) || (op === '>' && value >= max) || (op === '<=' && value < min) || (op === '<' && value <= min);
  if (never) return `${formatGoal(goal)} can never be met: ${range}`;
  const always = (op === '>=' && value <= min) || (op === '>' && value < min) || (op === '<=' && value >= max) || (op === '<' && value > max);
  if (always) return `${formatGoal(goal)} is met by every submission: ${range}`;
  return null;
}

/** A number as the site writes one: no hex, no '+', no leading zeros (as lib/train/config.ts's parseAssignment). */
const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:e[+-]?\d+)?$/i;

/** Parses "<metric> <op> <value>" for `trainer`; throws a GoalError naming what is wrong. */
export function parseGoal(text: string, trainer: TrainerName): Goal {
  if (text.length > 200) throw new GoalError('a goal is at most 200 characters');
  const m = /^\s*(\S+?)\s*(>=|<=|>|<)\s*(\S+)\s*$/.exec(text);
  if (!m) throw new GoalError(`expected "<metric> >= <value>", got ${JSON.stringify(text.slice(0, 60))}`);
  const [, metric, op, valueText] = m;
  const refusal = NOT_ASSIGNABLE[trainer];
  if (refusal) throw new GoalError(refusal);
  const known = GOAL_METRICS[trainer];
  if (!known.includes(metric)) throw new GoalError(`${trainer} cannot be graded on ${JSON.stringify(metric.slice(0, 60))} (known: ${known.join(', ')})`);
  if (!DECIMAL.test(valueText) || !Number.isFinite(Number(valueText))) throw new GoalError(`the threshold must be a decimal number, got ${JSON.stringify(valueText.slice(0, 60))}`);
  const goal = { metric, op: op as GoalOp, value: Number(valueText) };
  const problem = goalRangeProblem(goal);
  if (problem) throw new GoalError(problem);
  return goal;
}

/** Whether a measured value meets the goal (a missing value meets none). */
export function goalMet(goal: Goal, value: number | null): boolean {
  if (value === null || !Number.isFinite(value)) return false;
  switch (goal.op) {
    case '>=':
      return value >= goal.value;
    case '<=':
      return value <= goal.value;
    case '>':
      return value > goal.value;
    case '<':
      return value < goal.value;
  }
}

export const formatGoal = (goal: Goal) => `${goal.metric} ${goal.op} ${goal.value}`;

/**
 * The run's final figure for the goal's metric and its 95% interval: ±1.96·√(p(1−p)/n) for a share of n problems
 * (normal approximation); none for a return or a count, whose spread one run does not show.
 */
export function finalFigure(history: LogLine[], metric: string, n: number): { value: number; halfWidth: number | null } | null {
  const final = [...history].reverse().find((line) => line.kind === 'eval' && typeof line.metrics[metric] === 'number');
  if (!final) return null;
  const value = final.metrics[metric] as number;
  const { max } = metricRange(metric);
  const halfWidth = max === 1 && n > 0 ? 1.96 * Math.sqrt((value * (1 - value)) / n) : null;
  return { value, halfWidth };
}
