/**
 * The GSM8K project of a text lab run (sft, grpo, dpo, agent): every file as {path, text}, built in memory. The
 * method is the lab's trainer; its fields are mapped by mapping.ts, its scripts written by python/*, its README by
 * readme.ts. Pure: no tfjs, no UI, no file system.
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import { ConfigError, type FieldValue } from '@/lib/train/config';
import { ACCELERATE_CONFIGS } from './accelerate';
import { customRewardJs, customRewardPy, type CustomRewardExport } from './custom-reward';
import { EXPORT_METHODS, exportPlan, type ExportMethod, type Plan } from './mapping';
import { commonPy } from './python/common';
import { evalPy } from './python/evaluate';
import { prepareDataPy } from './python/prepare';
import { makePairsPy, trainDpoPy, trainGrpoPy, trainSftPy } from './python/train';
import { readmeMd, requirementsTxt, RL_SCRIPT } from './readme';
import { scopeOfRun } from './scope';
import { changedFields, projectName } from './settings';
import type { ExportBuilder, ExportLab, Project, ProjectFile } from './types';

/**
 * Every file of the project, in a fixed order; the same settings always give the same bytes. With the reader's own
 * reward function (grpo, agent), custom_reward.js and custom_reward.py too (custom-reward.ts).
 */
export const buildTextProject = ((lab: ExportLab, settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Project<Plan> => {
  if (!(EXPORT_METHODS as readonly string[]).includes(lab.trainer)) throw new ConfigError([`the GSM8K export takes ${EXPORT_METHODS.join(', ')}, not ${lab.trainer}`]);
  const method = lab.trainer as ExportMethod;
  const plan = exportPlan(method, settings, customReward);
  const name = projectName(method, preset);
  const about = { name, title: lab.summary, preset, changed: changedFields(lab, preset, settings) };
  const rl = RL_SCRIPT[method];
  const files: ProjectFile[] = [
    { path: 'README.md', text: readmeMd(plan, { ...about, scope: scopeOfRun(lab, settings) }) },
    { path: 'requirements.txt', text: requirementsTxt() },
    { path: 'common.py', text: commonPy(plan, about) },
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
}) satisfies ExportBuilder;
