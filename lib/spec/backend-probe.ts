/**
 * Times a lab's own training step on one tfjs backend: the trainer the lab runs, with the reader's settings, a few
 * warm-up steps (shader compilation, wasm start-up) and then a few timed ones. A trainStep ends by reading its metrics
 * back, so GPU work is finished when the clock stops. Where steps differ in a cycle (GRPO with steps_per_generation or
 * num_iterations above 1 samples on the first step of each cycle only), whole cycles are warmed up and timed, and a
 * cycle's mean step is what counts: a sampling step costs differently from an update-only one.
 */
import { selectBackend } from '@/lib/tf/backend';
import type { BackendTiming } from '@/lib/tf/choice';
import type { BackendName } from '@/lib/tf/names';
import { errorMessage } from '@/lib/errors';
import type { TrainerName } from './registry';
import { startTrainer } from './start';

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
    const cycle = stepsPerCycle(started.trainer.config);
    for (let i = 0; i < Math.ceil(warmupSteps / cycle) * cycle; i++) await started.trainer.trainStep();
    const cycles = Math.ceil(timedSteps / cycle);
    const means: number[] = [];
    for (let c = 0; c < cycles; c++) {
      const start = performance.now();
      for (let i = 0; i < cycle; i++) await started.trainer.trainStep();
      means.push((performance.now() - start) / cycle);
    }
    means.sort((a, b) => a - b);
    return { backend, msPerStep: means[Math.floor(means.length / 2)], steps: cycles * cycle };
  } catch (error) {
    return { backend, skipped: `failed while training: ${errorMessage(error)}` };
  } finally {
    started?.trainer.dispose();
  }
}

/** Steps from one sampling to the next: steps_per_generation × num_iterations for the GRPO-style trainers, else 1. */
export function stepsPerCycle(config: object): number {
  const field = (name: string) => {
    const value = (config as Record<string, unknown>)[name];
    return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 1;
  };
  return field('steps_per_generation') * field('num_iterations');
}
