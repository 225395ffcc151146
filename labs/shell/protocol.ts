/**
 * The typed messages between a lab page and its training worker. Only new points travel: one log line
 * per step (and the step's inspector data), never the whole history. Types only: the page loads no tfjs.
 */
import type { BackendFallback, BackendName } from '@/lib/tf/backend';
import type { BackendTiming } from '@/lib/tf/choice';
import type { FieldValue } from '@/lib/train/config';
import type { InspectOf, TrainerName } from '@/lib/spec/registry';
import type { LogLine, RunState } from '@/lib/train/run';
import type { ActionResult } from '@/lib/train/trainer';
import type { SandboxOutcome } from '@/lib/sandbox/outcome';
import type { Dataset } from '@/lib/tasks/dataset';

/**
 * What a reader brings to a run: their dataset (sent whole), and whether their reward function takes part, with its
 * weight. The function itself never enters the worker: it runs in the page's sandbox, which the worker asks for each
 * batch's rewards ('reward-request' → 'reward-result').
 */
export interface RunExtras {
  reward?: { weight: number };
  dataset?: Dataset;
}

export type ToWorker =
  /** Start training (building the trainer first if needed), or resume a paused run. */
  | { type: 'train'; runId: number; trainer: TrainerName; overrides: Record<string, FieldValue>; backend: BackendName | 'auto'; extras?: RunExtras }
  /** The page's answer to a 'reward-request': what the reader's function returned, or how it failed. */
  | { type: 'reward-result'; id: number; outcome: SandboxOutcome }
  | { type: 'pause' }
  /** Run one of the trainer's actions (lib/train/trainer.ts) on the current run, between steps. */
  | { type: 'action'; runId: number; name: string }
  /** The current run's weights as a checkpoint file (for a submission), between steps. */
  | { type: 'weights'; runId: number }
  /** Move the run to another backend before its next step (the measured choice: lib/tf/choice.ts). */
  | { type: 'switch'; runId: number; backend: BackendName; reason: string }
  /** Stop and drop the run and its model; the next 'train' starts fresh from the checkpoint. */
  | { type: 'reset' };

export type Sampler = 'fused' | 'tfjs';

/** Run-scoped messages carry the runId of the 'train' that started the run, so late ones from a reset run are dropped. */
export type FromWorker<N extends TrainerName = TrainerName> =
  /** sampler: how generate() decodes for this lab ('fused': the WebAssembly kernel on the CPU), null if it never samples. */
  | { type: 'backend'; backend: BackendName; fallbacks: BackendFallback[]; sampler: Sampler | null }
  /** The run moved to another backend after `step` steps (or could not: `error`). */
  | { type: 'switched'; runId: number; backend: BackendName; step: number; reason: string; error?: string }
  | { type: 'log'; runId: number; line: LogLine }
  /** The part of the running step under way, for trainers that report one (Trainer.onPhase). */
  | { type: 'phase'; runId: number; phase: string }
  /** What trainer N's inspect() returned after a training step. */
  | { type: 'samples'; runId: number; step: number; data: InspectOf<N> }
  | { type: 'state'; runId: number; state: RunState; error?: string }
  | { type: 'action'; runId: number; name: string; result: ActionResult }
  | { type: 'weights'; runId: number; bytes: Uint8Array; tfjs: string }
  /** Asks the page to run the reader's reward function (in its sandbox) on one batch: `args` = [completions, ctx]. */
  | { type: 'reward-request'; runId: number; id: number; args: unknown[]; timeoutMs: number }
  /** A request that failed; `request` names it, so a failed weights read is not taken for any other error. */
  | { type: 'error'; runId: number; message: string; request: ToWorker['type'] };

/** To the backend probe (labs/shell/probe.worker.ts): time this trainer's step with these settings. */
export interface ToProbe {
  trainer: TrainerName;
  overrides: Record<string, FieldValue>;
  software: boolean;
}

export type FromProbe = { type: 'timing'; timing: BackendTiming } | { type: 'done' };
