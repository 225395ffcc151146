// What a reader brings to a command-line run (train, sweep): --reward FILE.js (an ES module whose default export is a
// reward function, run in the Node sandbox), --reward-weight W, and --dataset FILE.jsonl. Everything is read and
// checked before training starts; a mistake is a UsageError (one line, exit 2).
import { createNodeSandbox } from '@/lib/sandbox/node';
import { describeFailure, type CodeSandbox } from '@/lib/sandbox/outcome';
import { REWARD_MAX_SOURCE_BYTES, REWARD_TIME_LIMIT_MS, REWARD_WEIGHT_DEFAULT, REWARD_WEIGHT_MAX, RewardCodeError, sandboxedReward } from '@/lib/tasks/custom-reward';
import { checkFits, DATASET_MAX_BYTES, DatasetError, parseDataset } from '@/lib/tasks/dataset';
import { datasetLimits } from '@/lib/train/dataset-task';
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import type { TrainerExtras } from '@/lib/train/trainer';
import { readFlagFile, UsageError } from './cli';

/** The flags, as parseArgs options (spread them into a command's own). */
export const EXTRAS_FLAGS = {
  reward: { type: 'string' },
  'reward-weight': { type: 'string' },
  dataset: { type: 'string' },
} as const;

export const EXTRAS_USAGE = '[--reward FILE.js [--reward-weight W]] [--dataset FILE.jsonl]';

export interface ReadExtras {
  extras: TrainerExtras;
  /** True once the reader's reward function has failed during training (the run then exits 2, as for a bad flag). */
  rewardFailed(): boolean;
  /** Stops the reward sandbox's worker. */
  close(): void;
}

/**
 * Reads and checks the extras for `trainer`. `config` is the run's resolved config: a GRPO dataset must leave room
 * for its max_completion_length.
 */
export async function readExtras(trainer: TrainerName, values: { reward?: string; 'reward-weight'?: string; dataset?: string }, config: Record<string, unknown>): Promise<ReadExtras> {
  const { accepts } = TRAINERS[trainer];
  const extras: TrainerExtras = {};
  let sandbox: CodeSandbox | null = null;
  let failed = false;
  if (values['reward-weight'] !== undefined && values.reward === undefined) throw new UsageError('--reward-weight needs --reward: it weighs your reward function');
  if (values.dataset !== undefined) {
    if (!accepts.dataset) throw new UsageError(`--dataset: ${trainer} trains on its own task and takes no dataset file (sft, grpo and dpo do)`);
    const text = readFlagFile(values.dataset, DATASET_MAX_BYTES, 'a dataset');
    try {
      const dataset = parseDataset(text, accepts.dataset);
      // A trainer that samples completions (its schema caps them with max_completion_length) needs room for that many.
      checkFits(dataset, datasetLimits(), 'max_completion_length' in TRAINERS[trainer].schema ? (config.max_completion_length as number) : undefined);
      extras.dataset = dataset;
    } catch (error) {
      if (error instanceof DatasetError) throw new UsageError(`--dataset ${values.dataset}: ${error.message}`);
      throw error;
    }
  }
  if (values.reward !== undefined) {
    if (!accepts.reward) throw new UsageError(`--reward: ${trainer} takes no reward function (grpo and agent do)`);
    const text = values['reward-weight'];
    const weight = text === undefined ? REWARD_WEIGHT_DEFAULT : text.trim() === '' ? NaN : Number(text);
    if (!Number.isFinite(weight) || weight < 0 || weight > REWARD_WEIGHT_MAX) {
      throw new UsageError(`--reward-weight must be a number from 0 to ${REWARD_WEIGHT_MAX}, got ${JSON.stringify(values['reward-weight'])}`);
    }
    const source = readFlagFile(values.reward, REWARD_MAX_SOURCE_BYTES, 'a reward file');
    sandbox = createNodeSandbox();
    const loaded = await sandbox.load(source, 'default', REWARD_TIME_LIMIT_MS);
    if (!loaded.ok) {
      sandbox.dispose();
      throw new UsageError(`--reward ${values.reward}: ${describeFailure(loaded)}`);
    }
    const fn = sandboxedReward((args, timeoutMs) => sandbox!.call(args, timeoutMs));
    extras.reward = {
      weight,
      fn: async (completions, context) => {
        try {
          return await fn(completions, context);
        } catch (error) {
          if (error instanceof RewardCodeError) failed = true;
          throw error;
        }
      },
    };
  }
  return { extras, rewardFailed: () => failed, close: () => sandbox?.dispose() };
}
