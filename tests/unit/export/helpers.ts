import { spawnSync } from 'node:child_process';
import fields from '@/lib/export/trl-fields.json';
import { EXPORT_METHODS, type ExportMethod } from '@/lib/export/mapping';
import type { Plan } from '@/lib/export/mapping';
import { buildProject, exportSettings, type Project } from '@/lib/export/project';
import { TRAINERS } from '@/lib/spec/registry';

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
