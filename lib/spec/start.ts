/**
 * The one way to start a trainer, for the training worker, the CLI and the benchmark alike: choose the backend,
 * read the checkpoint, build the trainer. Whatever part fails, everything already allocated is freed and the error
 * says which part it was, so the caller can fix the cause and simply try again.
 */
import { selectBackend, type BackendSelection, type SelectBackendOptions } from '@/lib/tf/backend';
import { errorMessage } from '@/lib/errors';
import { CHECKPOINTS } from '@/lib/train/lab-setup';
import { checkpointFor, TRAINERS, type InspectOf, type SchemaOf, type TrainerName, type TrainerSpec } from './registry';
import type { Trainer, TrainerExtras } from '@/lib/train/trainer';

export interface StartOptions {
  /** Config overrides (validated by the trainer: unknown fields and out-of-range values are refused). */
  overrides?: Record<string, unknown>;
  /** Checkpoint bytes to start from instead of the trainer's shipped one. */
  init?: Uint8Array;
  /** Reads a shipped checkpoint, given its site-relative path (fetch in a browser, the file system in Node). */
  readCheckpoint?: (path: string) => Promise<Uint8Array>;
  /** Choose (and activate) a tfjs backend first; leave out to use the active one. */
  backend?: SelectBackendOptions;
  /** The reader's own reward function or data, for the trainers that accept them (registry `accepts`). */
  extras?: TrainerExtras;
}

export interface StartedTrainer<N extends TrainerName> {
  name: N;
  trainer: Trainer<SchemaOf<N>, InspectOf<N>>;
  /** The backend choice, when `backend` was given. */
  backend: BackendSelection | null;
}

export class StartError extends Error {
  constructor(
    readonly stage: 'backend' | 'checkpoint',
    message: string,
  ) {
    super(message);
    this.name = 'StartError';
  }
}


export async function startTrainer<N extends TrainerName>(name: N, options: StartOptions = {}): Promise<StartedTrainer<N>> {
  const spec: TrainerSpec<SchemaOf<N>, InspectOf<N>> = TRAINERS[name];
  let backend: BackendSelection | null = null;
  if (options.backend) {
    try {
      backend = await selectBackend(options.backend);
    } catch (error) {
      throw new StartError('backend', `no backend could be started: ${errorMessage(error)}`);
    }
  }
  let init: Uint8Array | null = options.init ?? null;
  // Which checkpoint may depend on the config; resolving it first also refuses bad overrides before any read.
  const checkpoint = checkpointFor(name, options.overrides ?? {});
  if (init === null && checkpoint !== null) {
    const path = CHECKPOINTS[checkpoint];
    if (!options.readCheckpoint) throw new StartError('checkpoint', `${name} starts from ${path}, and no way to read it was given`);
    try {
      init = await options.readCheckpoint(path);
    } catch (error) {
      throw new StartError('checkpoint', `could not read the checkpoint ${path}: ${errorMessage(error)}`);
    }
  }
  const create = await spec.load();
  // The factory frees what it allocated if it fails (lib/train/trainer.ts), and its errors (a ConfigError for bad
  // overrides) pass through unchanged.
  const trainer = await create(init, options.overrides ?? {}, options.extras);
  return { name, trainer, backend };
}
