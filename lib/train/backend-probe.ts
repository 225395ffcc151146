/**
 * Times a lab's own training step on one tfjs backend: the trainer the lab runs, with the reader's settings, a few
 * warm-up steps (shader compilation, wasm start-up) and then the median of a few timed ones. A trainStep ends by
 * reading its metrics back, so GPU work is finished when the clock stops.
 */
import { selectBackend } from '@/lib/tf/backend';
import type { BackendTiming } from '@/lib/tf/choice';
import type { BackendName } from '@/lib/tf/names';
import type { TrainerName } from './registry';
import { startTrainer } from './start';
import { errorMessage } from '@/lib/errors';

export interface TimeBackendOptions {
  overrides: Record<string, unknown>;
  readCheckpoint?: (path: string) => Promise<Uint8Array>;
  /** Time a software WebGPU adapter or WebGL renderer too. Default false: they are slower than wasm. */
  software?: boolean;
  warmupSteps?: number;
  timedSteps?: number;
  /** Where the wasm binaries are (a URL prefix in the browser). */
  wasmPaths?: string;
}

export async function timeBackend(trainer: TrainerName, backend: BackendName, options: TimeBackendOptions): Promise<BackendTiming> {
  const { warmupSteps = 2, timedSteps = 3 } = options;
  try {
    const selection = await selectBackend({ requested: backend, order: [backend], allowSoftware: options.software ?? false, wasmPaths: options.wasmPaths, timeoutMs: 20_000 });
    if (selection.backend !== backend) return { backend, skipped: 'did not start' };
  } catch (error) {
    // selectBackend's message lists the reason per backend tried: here only this one.
    return { backend, skipped: (errorMessage(error)).replace(/^No tfjs backend could be started \((?:\w+: )?(.*)\)$/, '$1') };
  }
  let started: Awaited<ReturnType<typeof startTrainer>> | null = null;
  try {
    started = await startTrainer(trainer, { overrides: options.overrides, readCheckpoint: options.readCheckpoint });
    for (let i = 0; i < warmupSteps; i++) await started.trainer.trainStep();
    const times: number[] = [];
    for (let i = 0; i < timedSteps; i++) {
      const start = performance.now();
      await started.trainer.trainStep();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return { backend, msPerStep: times[Math.floor(times.length / 2)], steps: timedSteps };
  } catch (error) {
    return { backend, skipped: `failed while training: ${errorMessage(error)}` };
  } finally {
    started?.trainer.dispose();
  }
}
