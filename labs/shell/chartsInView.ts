/**
 * Which of a lab's charts a page shows. A chart may apply only to some settings (ChartSpec.appliesTo: the agent lab's
 * memory chart to the memory task, its chart of hard products and times-table facts to the product tasks): it is
 * shown while the lab is set to settings it applies to, or while a run trained with such settings is on the charts,
 * and only those runs draw in it. So a preset's page never shows another task's charts, and a run kept from another
 * preset keeps its own.
 */
import type { ChartRun, ChartSpec } from './MetricChart';
import type { Settings } from '@/ui/settings';

/** Whether `run` draws in the chart (a run that does not say its settings, an old export, draws everywhere). */
export const drawsRun = (spec: ChartSpec, run: ChartRun): boolean => !spec.appliesTo || !run.settings || spec.appliesTo(run.settings);

/** The charts to show, in the lab's order, for the settings the lab is set to and the runs on its charts. */
export function chartsInView(charts: readonly ChartSpec[], settings: Settings, runs: readonly ChartRun[]): ChartSpec[] {
  return charts.filter((spec) => !spec.appliesTo || spec.appliesTo(settings) || runs.some((run) => run.settings && spec.appliesTo!(run.settings)));
}
