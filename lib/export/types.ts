/**
 * What every exporter gives, whatever it exports (a GSM8K project, the vision project, the self-improvement loop):
 * a project of files, with the mapping table and warnings the lab's dialog shows. A trainer's spec names its exporter
 * (lib/spec/registry.ts `export.load()`) or says in one line why it has none. Types only.
 */
import type { FieldValue, PresetTable, Schema } from '@/lib/train/config';
import type { CustomRewardExport } from './custom-reward';
import type { Row } from './rules';
import type { ScopeOf } from './scope';

export interface ProjectFile {
  path: string;
  text: string;
}

/** What the dialog and the README show of any export: one row per lab field, and the loud remarks. */
export interface ExportPlan {
  rows: Row[];
  warnings: string[];
}

export interface Project<P extends ExportPlan = ExportPlan> {
  /** A folder name: trl-<method>-<preset>. */
  name: string;
  plan: P;
  files: ProjectFile[];
}

/** The lab being exported, as its spec describes it. */
export interface ExportLab {
  trainer: string;
  summary: string;
  schema: Schema;
  presets: PresetTable;
  /** What a run's project holds and leaves out (the spec's export.scope); absent for a trainer that is not exported. */
  scope?: ScopeOf;
}

/** Builds the project of one run: `settings` complete and valid for the lab's schema; the same input, the same bytes. */
export type ExportBuilder = (lab: ExportLab, settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport) => Project;
