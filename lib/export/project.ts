/**
 * An exportable lab run as a runnable TRL project: every file as {path, text}, built in memory, the same for the
 * command line (scripts/export.ts writes them to a folder) and the lab's "Export for TRL" button (a zip). Pure:
 * no tfjs, no UI, no file system.
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import { ConfigError, ownEntry, resolve, type FieldValue } from '@/lib/train/config';
import { TRAINERS } from '@/lib/spec/registry';
import { ACCELERATE_CONFIGS } from './accelerate';
import { customRewardJs, customRewardPy, type CustomRewardExport } from './custom-reward';
import { EXPORT_METHODS, exportPlan, NOT_EXPORTABLE, type ExportMethod, type Plan } from './mapping';
import { commonPy } from './python/common';
import { evalPy } from './python/evaluate';
import { prepareDataPy } from './python/prepare';
import { makePairsPy, trainDpoPy, trainGrpoPy, trainSftPy } from './python/train';
import { readmeMd, requirementsTxt, RL_SCRIPT } from './readme';
import { buildVisionProject, type VisionPlan } from './vision';

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

/** The fields whose values differ from the preset's (for the README's first line). */
function changedFields(method: ExportTarget, preset: string, settings: Readonly<Record<string, FieldValue>>): string[] {
  const base = exportSettings(method, preset);
  return Object.keys(settings)
    .filter((k) => settings[k] !== base[k])
    .map((k) => `${k}=${String(settings[k])}`);
}

/**
 * Every file of the project, in a fixed order; the same settings always give the same bytes. With the reader's own
 * reward function (grpo, agent), custom_reward.js and custom_reward.py too (custom-reward.ts).
 */
export function buildProject(method: ExportMethod, settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Project<Plan>;
export function buildProject(method: 'vision', settings: Readonly<Record<string, FieldValue>>, preset: string): Project<VisionPlan>;
export function buildProject(method: ExportTarget, settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Project;
export function buildProject(method: ExportTarget, settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Project {
  if (method === 'vision') {
    if (customReward) throw new ConfigError(['the vision export takes no reward function: it trains with the lab’s correctness reward']);
    return buildVisionProject(Object.keys(TRAINERS.vision.schema), settings, preset, TRAINERS.vision.summary);
  }
  const plan = exportPlan(method, settings, customReward);
  const name = `trl-${method}-${preset.replace(/[^a-z0-9_-]/gi, '_')}`;
  const lab = { name, title: TRAINERS[method].summary, preset, changed: changedFields(method, preset, settings) };
  const rl = RL_SCRIPT[method];
  const files: ProjectFile[] = [
    { path: 'README.md', text: readmeMd(plan, lab) },
    { path: 'requirements.txt', text: requirementsTxt() },
    { path: 'common.py', text: commonPy(plan, lab) },
    { path: 'prepare_data.py', text: prepareDataPy(method) },
    { path: 'train_sft.py', text: trainSftPy(plan) },
    ...(method === 'dpo' ? [{ path: 'make_pairs.py', text: makePairsPy(plan) }] : []),
    ...(rl && method === 'dpo' ? [{ path: rl, text: trainDpoPy(plan) }] : rl ? [{ path: rl, text: trainGrpoPy(plan) }] : []),
    ...(customReward ? [{ path: 'custom_reward.py', text: customRewardPy(customReward) }, { path: 'custom_reward.js', text: customRewardJs(customReward) }] : []),
    { path: 'eval.py', text: evalPy(plan) },
    ...ACCELERATE_CONFIGS.map((c) => ({ path: c.path, text: c.text })),
    { path: 'lab-run.json', text: `${JSON.stringify({ exported_from: 'Agentic RL Lab', trl: TRL_VERSION, trainer: method, preset, settings, ...(customReward ? { custom_reward: { weight: customReward.weight, source: 'custom_reward.js' } } : {}) }, null, 2)}\n` },
  ];
  return { name, plan, files };
}
