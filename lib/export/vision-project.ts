/**
 * The vision lab's project: its mapping (vision.ts), scenes (vision-scenes.ts), scripts (python/vision.ts) and
 * README (vision-readme.ts), as {path, text} in a fixed order. Pure: no tfjs, no UI, no file system.
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import { ConfigError, type FieldValue } from '@/lib/train/config';
import { ACCELERATE_CONFIGS } from './accelerate';
import type { CustomRewardExport } from './custom-reward';
import { visionCommonPy, visionEvalPy, visionPrepareDataPy, visionTrainGrpoPy, visionTrainSftPy } from './python/vision';
import { scopeOfRun } from './scope';
import { projectName } from './settings';
import type { ExportBuilder, ExportLab, Project, ProjectFile } from './types';
import { VISION_MODEL, visionPlan, type VisionPlan } from './vision';
import { visionReadmeMd, visionRequirementsTxt } from './vision-readme';
import { jsonl, visionScenes } from './vision-scenes';

/** Every file of the vision project; the same settings give the same bytes. */
export const buildVisionProject = ((lab: ExportLab, settings: Readonly<Record<string, FieldValue>>, preset: string, customReward?: CustomRewardExport): Project<VisionPlan> => {
  if (customReward) throw new ConfigError(['the vision export takes no reward function: it trains with the lab’s correctness reward']);
  const plan = visionPlan(settings);
  const name = projectName('vision', preset);
  const scenes = visionScenes(settings);
  const files: ProjectFile[] = [
    { path: 'README.md', text: visionReadmeMd(plan, { name, preset, summary: lab.summary, scenes: { train: scenes.train.length, test: scenes.test.length }, scope: scopeOfRun(lab, settings) }) },
    { path: 'requirements.txt', text: visionRequirementsTxt() },
    { path: 'common.py', text: visionCommonPy(plan, preset) },
    { path: 'prepare_data.py', text: visionPrepareDataPy() },
    { path: 'train_sft.py', text: visionTrainSftPy(plan) },
    { path: 'train_grpo.py', text: visionTrainGrpoPy(plan) },
    { path: 'eval.py', text: visionEvalPy() },
    { path: 'scenes/train.jsonl', text: jsonl(scenes.train) },
    { path: 'scenes/test.jsonl', text: jsonl(scenes.test) },
    ...ACCELERATE_CONFIGS.map((c) => ({ path: c.path, text: c.text })),
    { path: 'lab-run.json', text: `${JSON.stringify({ exported_from: 'Agentic RL Lab', trl: TRL_VERSION, trainer: 'vision', model: VISION_MODEL, preset, settings }, null, 2)}\n` },
  ];
  return { name, plan, files };
}) satisfies ExportBuilder;
