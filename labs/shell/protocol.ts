/**
 * The typed messages between a lab page and its training worker. Only new points travel: one log line
 * per step (and the step's samples for the inspector), never the whole history.
 */
import type { BackendFallback, BackendName } from '@/lib/tf/backend';
import type { LogLine, RunState } from '@/lib/train/run';

export type TrainerName = 'sft' | 'grpo' | 'dpo' | 'ppo';

export type ToWorker =
  /** Start training (creating the trainer first if needed), or resume a paused run. */
  | { type: 'train'; runId: number; trainer: TrainerName; overrides: Record<string, unknown>; backend: BackendName | 'auto'; checkpointUrl?: string }
  | { type: 'pause' }
  /** Stop and drop the run and its model; the next 'train' starts fresh from the checkpoint. */
  | { type: 'reset' };

/** Run-scoped messages carry the runId of the 'train' that started the run, so late ones from a reset run are dropped. */
export type FromWorker =
  | { type: 'backend'; backend: BackendName; fallbacks: BackendFallback[] }
  | { type: 'log'; runId: number; line: LogLine }
  /** What the lab's inspector shows for a training step: a GRPO batch, DPO pairs, PPO's policy map. */
  | { type: 'samples'; runId: number; step: number; data: unknown }
  | { type: 'state'; runId: number; state: RunState; error?: string }
  | { type: 'error'; runId: number; message: string };
