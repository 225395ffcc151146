/**
 * Runs claims: each distinct run once (claims that share a run share it), seeded, on the active backend, started as
 * the CLI starts trainers. Returns each claim's verdict; checks read the chapters from disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { trainerSettings } from '@/lib/spec/registry';
import { TrainingRun, type LogLine } from '@/lib/train/run';
import { startTrainer } from '@/lib/spec/start';
import { errorMessage } from '@/lib/errors';
import { createNodeSandbox } from '@/lib/sandbox/node';
import { asRewardModule, REWARD_EXAMPLES, REWARD_TIME_LIMIT_MS, sandboxedReward } from '@/lib/tasks/custom-reward';
import type { TrainerExtras } from '@/lib/train/trainer';
import type { Claim, ClaimRun, Histories, Verdict } from '@/lib/claims/types';
import { NODE_CLAIM_CONTEXT } from './context';

const readCheckpoint = async (file: string) => new Uint8Array(fs.readFileSync(path.join('public', file)));

async function execute(run: ClaimRun): Promise<LogLine[]> {
  const preset = run.preset ? trainerSettings(run.trainer).presets[run.preset] : undefined;
  if (run.preset && !preset) throw new Error(`${run.trainer} has no preset "${run.preset}"`);
  const overrides = { ...(preset?.overrides ?? {}), ...(run.overrides ?? {}), max_steps: run.steps, eval_steps: run.evalEvery };
  // A reader's reward function runs as the CLI runs a reward file: in the Node sandbox.
  const sandbox = run.reward ? createNodeSandbox() : null;
  const extras: TrainerExtras = {};
  if (sandbox && run.reward) {
    const loaded = await sandbox.load(asRewardModule(REWARD_EXAMPLES[run.reward.example].source), 'default', REWARD_TIME_LIMIT_MS);
    if (!loaded.ok) throw new Error(`the ${run.reward.example} example does not load: ${loaded.message}`);
    extras.reward = { fn: sandboxedReward((args, ms) => sandbox.call(args, ms)), weight: run.reward.weight };
  }
  const { trainer } = await startTrainer(run.trainer, { overrides, readCheckpoint, extras }).catch((error: unknown) => {
    sandbox?.dispose();
    throw error;
  });
  try {
    const training = new TrainingRun(trainer, { maxSteps: run.steps, evalEvery: run.evalEvery });
    const state = await training.run();
    if (state !== 'done') throw new Error(training.error ?? `the run ended as ${state}`);
    return training.history;
  } finally {
    trainer.dispose();
    sandbox?.dispose();
  }
}

export interface ClaimResult extends Verdict {
  claim: Claim;
  seconds: number;
}

/** Runs by their settings, for the whole process: claims that share a run (here or in another runClaims call) train it once. */
const cache = new Map<string, Promise<LogLine[]>>();

export async function runClaims(claims: readonly Claim[], onResult?: (result: ClaimResult) => void): Promise<ClaimResult[]> {
  const results: ClaimResult[] = [];
  for (const claim of claims) {
    const started = performance.now();
    let verdict: Verdict;
    try {
      const histories: Histories = {};
      for (const [name, run] of Object.entries(claim.runs)) {
        const key = JSON.stringify(run);
        if (!cache.has(key)) cache.set(key, execute(run));
        histories[name] = await cache.get(key)!;
      }
      verdict = claim.check(histories, NODE_CLAIM_CONTEXT);
    } catch (error) {
      verdict = { holds: false, figure: `could not run: ${errorMessage(error)}` };
    }
    const result = { claim, ...verdict, seconds: (performance.now() - started) / 1000 };
    results.push(result);
    onResult?.(result);
  }
  return results;
}
