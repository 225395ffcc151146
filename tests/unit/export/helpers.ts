import { spawnSync } from 'node:child_process';
import fields from '@/lib/export/trl-fields.json';
import { EXPORT_METHODS, type ExportMethod } from '@/lib/export/mapping';
import type { Plan } from '@/lib/export/mapping';
import type { CustomRewardExport } from '@/lib/export/custom-reward';
import { buildTextProject } from '@/lib/export/text-project';
import type { Project } from '@/lib/export/types';
import type { VisionPlan } from '@/lib/export/vision';
import { buildVisionProject } from '@/lib/export/vision-project';
import { exportLabOf, exportSettings } from '@/lib/spec/export';
import { TRAINERS } from '@/lib/spec/registry';
import type { FieldValue } from '@/lib/train/config';

export { exportSettings };
export type { Project };

/**
 * A project built at once, typed by its plan, for tests that read a plan's fields: the builder each spec's export
 * loads (lib/spec/registry.ts), called directly with the lab as the spec describes it. The app and the CLI go
 * through lib/spec/export.ts buildExport, which tests/unit/export/spec-export.test.ts checks gives the same bytes.
 */
export function buildProject(method: ExportMethod, settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Project<Plan>;
export function buildProject(method: 'vision', settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Project<VisionPlan>;
export function buildProject(method: ExportMethod | 'vision', settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Project<Plan | VisionPlan> {
  const build = method === 'vision' ? buildVisionProject : buildTextProject;
  return build(exportLabOf(method), settings, preset, customReward) as Project<Plan | VisionPlan>;
}

export const TRL_FIELDS = fields;

/** Every preset of every exportable method, as the CLI would export it. */
export function everyProject(): { method: ExportMethod; preset: string; project: Project<Plan> }[] {
  return EXPORT_METHODS.flatMap((method) =>
    Object.keys(TRAINERS[method].presets).map((preset) => ({ method, preset, project: buildProject(method, exportSettings(method, preset), preset) })),
  );
}

export const hasPython = spawnSync('python3', ['--version']).status === 0;

/** Runs python3 with a script on stdin; its stdout parsed as JSON. */
export function python(script: string, args: string[] = [], cwd?: string): unknown {
  const result = spawnSync('python3', ['-', ...args], { input: script, encoding: 'utf8', cwd });
  if (result.status !== 0) throw new Error(`python3 failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}
