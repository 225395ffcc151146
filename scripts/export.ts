/**
 * npm run export -- <trainer> [--preset NAME] [--set key=value ...] [--reward FILE.js [--reward-weight W]] --out DIR [--force]
 *
 * Writes a runnable TRL project for a lab run, built by the exporter its trainer's spec names (lib/spec/export.ts):
 * for the GSM8K labs data preparation, SFT, the run's RL step with its values under TRL's names, evaluation,
 * Accelerate and DeepSpeed configs, and a README with the mapping table and the hardware each step needs. The lab's "Export for TRL" button downloads the same files as a zip.
 * --reward adds a reward function of your own (grpo, agent; the file as `npm run train -- grpo --reward` takes it):
 * custom_reward.js keeps it, custom_reward.py gives TRL its Python side (lib/export/custom-reward.ts).
 *
 * A mistake (an unknown method, preset or field, a bad value, a non-empty --out without --force) costs one line on
 * stderr and exit code 2; nothing is written outside DIR.
 */
import { ConfigError, parseAssignment, type FieldValue } from '@/lib/train/config';
import fs from 'node:fs';
import { REWARD_MAX_SOURCE_BYTES, REWARD_WEIGHT_DEFAULT, REWARD_WEIGHT_MAX } from '@/lib/tasks/custom-reward';
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import { buildExport, EXPORTABLE, exportOf, exportSettings } from '@/lib/spec/export';
import { errorMessage } from '@/lib/errors';
import { parseFlags, UsageError } from './cli';
import { writeProject } from './export/write';

const USAGE = `usage: npm run export -- <${EXPORTABLE.join('|')}> [--preset NAME] [--set key=value ...] [--reward FILE.js [--reward-weight W]] --out DIR [--force]`;

function fail(message: string, code = 2): never {
  console.error(`export: ${message.split('\n')[0]}`);
  process.exit(code);
}

async function main() {
  const { values, positionals } = parseFlags(
    process.argv.slice(2),
    {
      preset: { type: 'string', default: 'default' },
      set: { type: 'string', multiple: true, default: [] },
      out: { type: 'string' },
      reward: { type: 'string' },
      'reward-weight': { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  if (values.help) {
    console.log(`${USAGE}\n\n${EXPORTABLE.map((m) => `  ${m.padEnd(12)} ${TRAINERS[m].summary}; presets: ${Object.keys(TRAINERS[m].presets).join(', ')}`).join('\n')}`);
    return;
  }
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `name a method: ${EXPORTABLE.join(' | ')}` : `one method at a time, got ${positionals.join(' ')}`);
  const chosen = exportOf(positionals[0]);
  if ('refusal' in chosen) throw new UsageError(chosen.refusal);
  const { trainer: method, spec } = chosen;
  if (values.out === undefined || values.out === '') throw new UsageError(`--out DIR is required. ${USAGE}`);
  const overrides: Record<string, FieldValue> = {};
  for (const text of values.set ?? []) {
    const [key, value] = parseAssignment(TRAINERS[method].schema, text);
    overrides[key] = value;
  }
  const settings = exportSettings(method, values.preset!, overrides);
  const project = await buildExport(method, settings, values.preset!, readReward(method, values.reward, values['reward-weight']));
  const root = writeProject(values.out, project.files, { force: values.force === true });
  console.log(`export: wrote ${project.files.length} files of ${project.name} to ${root}`);
  for (const warning of project.plan.warnings) console.log(`export: warning: ${warning}`);
  const changed = project.plan.rows.filter((r) => r.status === 'changed').map((r) => r.field);
  if (changed.length) console.log(`export: changed for ${spec.model} (see README.md, "What carried over"): ${changed.join(', ')}`);
}

/** The --reward file and its weight, refused in one line when unreadable, too long, or on a method without rewards. */
function readReward(method: string, file: string | undefined, weightText: string | undefined): { source: string; weight: number } | undefined {
  if (file === undefined) {
    if (weightText !== undefined) throw new UsageError('--reward-weight needs --reward FILE.js');
    return undefined;
  }
  const takers = EXPORTABLE.filter((name) => TRAINERS[name].accepts.reward);
  if (!takers.includes(method as TrainerName)) throw new UsageError(`--reward is for ${takers.join(' and ')}: ${method} takes no reward function`);
  const weight = weightText === undefined ? REWARD_WEIGHT_DEFAULT : Number(weightText);
  if (!(weight > 0 && weight <= REWARD_WEIGHT_MAX)) throw new UsageError(`--reward-weight must be in (0, ${REWARD_WEIGHT_MAX}], got ${weightText}`);
  let source: string;
  try {
    if (fs.statSync(file).size > REWARD_MAX_SOURCE_BYTES) throw new UsageError(`${file} is over ${REWARD_MAX_SOURCE_BYTES / 1000} KB`);
    source = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
  }
  return { source, weight };
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError) fail(error.message);
  fail(`unexpected error: ${errorMessage(error)}`, 1);
});
