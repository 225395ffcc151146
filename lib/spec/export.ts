/**
 * Exporting a lab run as a TRL project, for any trainer, through its spec: which trainers have a project (and why the
 * others have none), the settings of a preset with overrides, and the project's files. The CLI (scripts/export.ts)
 * and the lab's "Export for TRL" dialog both call this; the builders themselves live in lib/export and never name a
 * trainer they were not given. No tfjs.
 */
import type { CustomRewardExport } from '@/lib/export/custom-reward';
import { scopeSentences, type NotExported } from '@/lib/export/scope';
import { labSettings } from '@/lib/export/settings';
import type { ExportLab, Project } from '@/lib/export/types';
import { ConfigError, configProblem, resolve, type FieldValue } from '@/lib/train/config';
import { TRAINER_NAMES, TRAINERS, trainerNamed, type ExportSpec, type TrainerName } from './registry';

/** The trainers whose labs export a project, in the registry's order. */
export const EXPORTABLE: readonly TrainerName[] = TRAINER_NAMES.filter((name) => 'load' in TRAINERS[name].export);

/** The export of trainer `name`, or the one line that says why there is none (or that no trainer has that name). */
export function exportOf(name: string): { trainer: TrainerName; spec: ExportSpec } | { refusal: string } {
  const trainer = trainerNamed(name);
  if (trainer === null) return { refusal: `unknown lab trainer "${name.slice(0, 40)}": name one of ${EXPORTABLE.join(' | ')}` };
  const spec = TRAINERS[trainer].export;
  return 'refusal' in spec ? { refusal: `${trainer} cannot be exported: ${spec.refusal}` } : { trainer, spec };
}

/**
 * What "Export for TRL" gives for these settings, said before any click: why there is no project (the trainer's
 * refusal, or the settings' problem), or the project's model, what it holds and what of the run it leaves out, each
 * with its reason, as `sentences` (the README of the project prints the same: lib/export/scope.ts).
 */
export type ExportStatement = { refusal: string } | { model: string; writes: string; notExported: readonly NotExported[]; sentences: string[] };

export function exportStatement(trainer: TrainerName, settings: Readonly<Record<string, FieldValue>>): ExportStatement {
  const spec = TRAINERS[trainer].export;
  if ('refusal' in spec) return { refusal: `This lab has no TRL project: ${spec.refusal}` };
  let complete: Record<string, FieldValue>;
  try {
    complete = resolve(TRAINERS[trainer].schema, settings) as Record<string, FieldValue>;
  } catch (error) {
    return { refusal: `These settings cannot be exported: ${configProblem(error)}.` };
  }
  const scope = spec.scope(complete);
  return { model: spec.model, ...scope, sentences: scopeSentences(scope) };
}

/** The lab as its exporter reads it (lib/export/types.ts ExportLab): what the trainer's spec says of it. */
export function exportLabOf(trainer: TrainerName): ExportLab {
  const { summary, schema, presets, export: exporter } = TRAINERS[trainer];
  return { trainer, summary, schema, presets, ...('scope' in exporter ? { scope: exporter.scope } : {}) };
}

/**
 * The settings of a preset with overrides on top, validated by the trainer's schema (a ConfigError names every
 * problem; lib/export/settings.ts labSettings, which also makes epsilon_high follow epsilon as TRL does).
 */
export const exportSettings = (trainer: TrainerName, preset: string, overrides: Record<string, FieldValue> = {}): Record<string, FieldValue> =>
  labSettings(exportLabOf(trainer), preset, overrides);

/**
 * Every file of the project of trainer `trainer`'s run (`settings` complete and valid), in a fixed order: the same
 * settings always give the same bytes. A reader's reward function goes with the trainers that train with one
 * (the spec's `accepts.reward`); any other is refused.
 */
export async function buildExport(trainer: TrainerName, settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Promise<Project> {
  const chosen = exportOf(trainer);
  if ('refusal' in chosen) throw new ConfigError([chosen.refusal]);
  if (customReward && !TRAINERS[trainer].accepts.reward) throw new ConfigError([`the ${trainer} export takes no reward function: its lab trains with its own rewards only`]);
  const build = await chosen.spec.load();
  return build(exportLabOf(trainer), settings, preset, customReward);
}
