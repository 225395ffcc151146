/**
 * An exportable lab run as a runnable TRL project: every file as {path, text}, built in memory, the same for the
 * command line (scripts/export.ts writes them to a folder) and the lab's "Export for TRL" button (a zip). Pure:
 * no tfjs, no UI, no file system.
 */
import { ConfigError, ownEntry, resolve, type FieldValue } from '@/lib/train/config';
import { TRAINERS } from '@/lib/spec/registry';
import type { CustomRewardExport } from './custom-reward';
import { EXPORT_METHODS, NOT_EXPORTABLE, type ExportMethod, type Plan } from './mapping';
import { buildTextProject } from './text-project';
import type { ExportLab } from './types';
import type { VisionPlan } from './vision';
import { buildVisionProject } from './vision-project';

export interface ProjectFile {
  path: string;
  text: string;
}

export interface Project<P extends Plan | VisionPlan = Plan | VisionPlan> {
  /** A folder name: trl-<method>-<preset>. */
  name: string;
  plan: P;
  files: ProjectFile[];
}

/** What can be exported: the GSM8K methods, and the vision lab (its own project, lib/export/vision.ts). */
export type ExportTarget = ExportMethod | 'vision';
export const EXPORT_TARGETS: readonly ExportTarget[] = [...EXPORT_METHODS, 'vision'];

/** The method a trainer name stands for, or a reason it has none (ppo; an unknown name). */
export function exportMethod(name: string): { method: ExportTarget } | { refusal: string } {
  if ((EXPORT_TARGETS as readonly string[]).includes(name)) return { method: name as ExportTarget };
  const why = ownEntry(NOT_EXPORTABLE, name);
  if (why) return { refusal: `${name} cannot be exported: ${why}` };
  return { refusal: `unknown method "${name.slice(0, 40)}": name one of ${EXPORT_TARGETS.join(' | ')}` };
}

/**
 * The settings of a preset with overrides on top, validated by the trainer's schema (a ConfigError names every
 * problem). With epsilon set and epsilon_high not, epsilon_high follows epsilon, as TRL and the labs do
 * (lib/train/grpo-update.ts resolveGrpoLike).
 */
export function exportSettings(method: ExportTarget, preset: string, overrides: Record<string, FieldValue> = {}): Record<string, FieldValue> {
  const { schema, presets } = TRAINERS[method];
  const chosen = ownEntry(presets as Record<string, { overrides: Record<string, FieldValue | undefined> }>, preset);
  if (!chosen) throw new ConfigError([`unknown preset "${preset.slice(0, 40)}" for ${method} (known: ${Object.keys(presets).join(', ')})`]);
  const merged: Record<string, unknown> = { ...chosen.overrides, ...overrides };
  if ('epsilon_high' in schema && Object.hasOwn(overrides, 'epsilon') && !Object.hasOwn(overrides, 'epsilon_high') && !Object.hasOwn(chosen.overrides, 'epsilon_high')) {
    merged.epsilon_high = overrides.epsilon;
  }
  return resolve(schema, merged) as Record<string, FieldValue>;
}

/** The lab as its exporter reads it. */
const exportLab = (method: ExportTarget): ExportLab => ({ trainer: method, summary: TRAINERS[method].summary, schema: TRAINERS[method].schema, presets: TRAINERS[method].presets });

/**
 * Every file of the project, in a fixed order; the same settings always give the same bytes. With the reader's own
 * reward function (grpo, agent), custom_reward.js and custom_reward.py too (custom-reward.ts).
 */
export function buildProject(method: ExportMethod, settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Project<Plan>;
export function buildProject(method: 'vision', settings: Readonly<Record<string, FieldValue>>, preset: string): Project<VisionPlan>;
export function buildProject(method: ExportTarget, settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Project;
export function buildProject(method: ExportTarget, settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Project {
  if (method === 'vision') return buildVisionProject(exportLab(method), settings, preset, customReward);
  return buildTextProject(exportLab(method), settings, preset, customReward);
}
