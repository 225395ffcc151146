/**
 * What a lab adds to the shell: its own module, so the lab files, LabShell and the pieces LabShell composes can all
 * name it without importing LabShell.tsx (which re-exports it for the labs).
 */
import type { ReactNode } from 'react';
import type { FieldOf, TrainerName } from '@/lib/spec/registry';
import type { ChartSpec, StepAxis } from './MetricChart';
import type { SummaryColumn } from './RunsSummary';
import type { Settings } from '@/ui/settings';
import type { StepSample } from './useLabWorker';

/** What a lab adds to its trainer (whose schema, presets and checkpoint come from lib/spec/registry.ts). */
export interface LabDefinition<N extends TrainerName> {
  /** Its entry in content/labs.ts: the learning path marks a lab trained under this name. */
  slug: string;
  trainer: N;
  /** Controls to show, in order: the trainer's config fields (TRL's names), checked at compile time. */
  fields: FieldOf<N>[];
  charts: ChartSpec[];
  /** Shows the latest steps' inspector data (a group inspector, a pair inspector, the grid world…). */
  inspector: { title: string; render(samples: StepSample<N>[], settings: Settings): ReactNode };
  /** The metric the status line reports after each evaluation, e.g. ['eval/accuracy', 'held-out accuracy', true]. */
  evalMetric: [name: string, label: string, percent: boolean];
  /** The presets this lab offers (default: all of the trainer's), the first being where the lab starts. */
  presets?: readonly string[];
  /**
   * The comparisons its chapter asks for, each one click: presets run one after another on the same seed, each kept
   * on the charts (e.g. GRPO's variants, or a run and its control), with the columns of the table that compares them.
   */
  comparisons?: readonly LabComparison[];
  /** What the status line calls one step (default "step"): "round" where each step is a round of self-improvement. */
  stepWord?: string;
  /**
   * How the lab numbers its steps where they are not the trainer's (self-improvement: step n is round n − 1, round 0
   * being the demonstrations). Its charts take it in their specs (ChartSpec.stepAxis); the status line and anything
   * else that names a step should number it by `at` too.
   */
  stepAxis?: StepAxis;
  /** Buttons for the trainer's actions (Trainer.actions), usable once a run is paused or finished. */
  actions?: LabAction[];
}

export interface LabComparison {
  /** What the comparison shows, naming the run each is compared to ("default against its control, sft_only: …"). */
  label: string;
  /** Run in this order, all on the form's seed and one length (useLabRuns.ts comparisonSettings). */
  presets: readonly string[];
  columns: readonly SummaryColumn[];
}

export interface LabAction {
  name: string;
  label: string;
  help: string;
}
