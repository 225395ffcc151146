/**
 * An assignment's goal: one evaluation metric, a comparison and a threshold, such as `eval/accuracy >= 0.45`. The
 * metrics are those each trainer's held-out evaluation reports, as its spec lists them (lib/spec/registry.ts
 * grading.metrics; lib/teach/evaluate.ts computes them again on the instructor's own evaluation set). No tfjs.
 */
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import type { LogLine } from '@/lib/train/run';

export const GOAL_OPS = ['>=', '<=', '>', '<'] as const;
export type GoalOp = (typeof GOAL_OPS)[number];

export interface Goal {
  metric: string;
  op: GoalOp;
  value: number;
}

/** The metrics a goal can name for `trainer`: those its held-out evaluation reports (its spec's grading.metrics). */
export const goalMetrics = (trainer: TrainerName): readonly string[] => TRAINERS[trainer].grading.metrics.map((m) => m.name);

export class GoalError extends Error {}

/** The values `metric` can take for `trainer` (its spec says; a metric it does not report has no stated bound). */
export function metricRange(trainer: TrainerName, metric: string): { min: number; max: number } {
  const known = TRAINERS[trainer].grading.metrics.find((m) => m.name === metric);
  return known ? { min: known.min, max: known.max } : { min: -Infinity, max: Infinity };
}

/**
 * Why a goal cannot be right, or null: one no value of the metric can meet (eval/accuracy >= 1.5), or one every value
 * meets (eval/accuracy >= 0), which grades nothing.
 */
export function goalRangeProblem(goal: Goal, trainer: TrainerName): string | null {
  const { min, max } = metricRange(trainer, goal.metric);
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
  const known = goalMetrics(trainer);
  if (!known.includes(metric)) throw new GoalError(`${trainer} cannot be graded on ${JSON.stringify(metric.slice(0, 60))} (known: ${known.join(', ')})`);
  if (!DECIMAL.test(valueText) || !Number.isFinite(Number(valueText))) throw new GoalError(`the threshold must be a decimal number, got ${JSON.stringify(valueText.slice(0, 60))}`);
  const goal = { metric, op: op as GoalOp, value: Number(valueText) };
  const problem = goalRangeProblem(goal, trainer);
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
export function finalFigure(history: LogLine[], trainer: TrainerName, metric: string, n: number): { value: number; halfWidth: number | null } | null {
  const final = [...history].reverse().find((line) => line.kind === 'eval' && typeof line.metrics[metric] === 'number');
  if (!final) return null;
  const value = final.metrics[metric] as number;
  const { max } = metricRange(trainer, metric);
  const halfWidth = max === 1 && n > 0 ? 1.96 * Math.sqrt((value * (1 - value)) / n) : null;
  return { value, halfWidth };
}
