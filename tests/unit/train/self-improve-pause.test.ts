/**
 * Pause inside a step: a self-improvement round (seconds in a browser; round 0 trained in the run, most of a minute)
 * stops at its next pause point, between two fine-tuning steps, and the resumed run logs exactly what an uninterrupted
 * one logs. And the step loop's pause
 * points let a pause in even when the step never leaves its task on its own (the wasm backend's case).
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { configForTask } from '@/lib/models/presets';
import { saveTinyLM } from '@/lib/models/checkpoint';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createAdditionCurriculum } from '@/lib/tasks/addition-curriculum';
import { TrainingRun, type LogLine, type PausePoint, type RunState, type StepTrainer } from '@/lib/train/run';
import { createSelfImproveTrainer, type SelfImproveTrainer } from '@/lib/train/self-improve-trainer';

// init_from 'base': round 0 trains here (the shipped round 0 is for 3-digit targets).
const tiny = { init_from: 'base', target_digits: 2, demonstration_digits: 1, demo_steps: 3, steps_per_round: 4, num_prompts: 4, num_generations: 2, per_device_train_batch_size: 4, eval_samples: 10, temperature: 1.5, max_steps: 3 };
const smallModel = () => createTinyLM(configForTask(createAdditionCurriculum({ width: 2 }).at(1), { d_model: 16, n_layers: 1, n_heads: 2 }), 0);
const withoutTiming = (history: LogLine[]) => history.map((l) => ({ ...l, metrics: Object.fromEntries(Object.entries(l.metrics).filter(([k]) => !k.startsWith('timing/'))) }));

/**
 * Calls `onPoint(phase, n)` at the n-th pause point (from 1) of each phase, before the run's own pause point: a test
 * pauses or stops the run exactly where it wants, through the real loop.
 */
function watchPausePoints(trainer: SelfImproveTrainer, onPoint: (phase: string, n: number) => void) {
  let phase = '';
  let n = 0;
  trainer.onPhase!((p) => {
    phase = p;
    n = 0;
  });
  const inner = trainer.trainStep;
  trainer.trainStep = (point?: PausePoint) =>
    inner(async () => {
      onPoint(phase, ++n);
      await point!();
    });
}

const stateReached = (states: RunState[], wanted: RunState) =>
  new Promise<void>((resolve) => {
    const poll = () => (states.includes(wanted) ? resolve() : setTimeout(poll, 1));
    poll();
  });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('pausing a self-improvement round', () => {
  it('stops between two fine-tuning steps of a round and resumes it with the numbers of an unpaused run', async () => {
    const modelA = smallModel();
    const uninterrupted = createSelfImproveTrainer(modelA, tiny);
    const reference = new TrainingRun(uninterrupted, { maxSteps: 3, evalEvery: 1 });
    expect(await reference.run()).toBe('done');
    uninterrupted.dispose();
    modelA.dispose();

    const modelB = smallModel();
    const trainer = createSelfImproveTrainer(modelB, tiny);
    const states: RunState[] = [];
    let run: TrainingRun;
    // Round 1 (step 2) after its sampling and its first two fine-tuning steps: mid-round and mid-phase.
    watchPausePoints(trainer, (phase, n) => {
      if (phase.startsWith('round 1: fine-tuning') && n === 3) run.pause();
    });
    run = new TrainingRun(trainer, { maxSteps: 3, evalEvery: 1, onState: (s) => states.push(s) });
    const finished = run.run();
    await stateReached(states, 'paused');
    await run.whenIdle(); // resolves while the round waits at its pause point
    const trainLines = () => run.history.filter((l) => l.kind === 'train').length;
    expect(trainLines()).toBe(1); // round 0 only: round 1 is under way
    expect(run.stepsDone).toBe(2);
    // What a paused lab may do meanwhile: read the weights (Submit, export). Nothing moves while it waits.
    expect((await saveTinyLM(trainer.model)).byteLength).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(trainLines()).toBe(1);
    run.resume();
    expect(await finished).toBe('done');
    expect(states).toEqual(['running', 'paused', 'running', 'done']);
    expect(withoutTiming(run.history)).toEqual(withoutTiming(reference.history));
    expect(run.history.filter((l) => l.kind === 'train').map((l) => l.metrics.round)).toEqual([0, 1, 2]);
    // The round's clock leaves the pause out: its step time is its work, not the reader's break.
    const round1 = run.history.find((l) => l.kind === 'train' && l.metrics.round === 1)!.metrics;
    expect(round1['timing/step_ms']).toBeLessThan(round1['timing/generation_ms'] + round1['timing/fine_tuning_ms'] + round1['timing/evaluation_ms'] + 100);
    trainer.dispose();
    modelB.dispose();
  });

  it('ends a run stopped while its round waits at a pause point, without logging the half round', async () => {
    const model = smallModel();
    const trainer = createSelfImproveTrainer(model, tiny);
    const states: RunState[] = [];
    let run: TrainingRun;
    watchPausePoints(trainer, (phase, n) => {
      if (phase.startsWith('round 0: fine-tuning') && n === 2) run.pause();
    });
    run = new TrainingRun(trainer, { maxSteps: 3, evalEvery: 1, onState: (s) => states.push(s) });
    const finished = run.run();
    await stateReached(states, 'paused');
    run.stop();
    expect(await finished).toBe('stopped');
    expect(run.history.filter((l) => l.kind === 'train')).toEqual([]); // only the evaluation before training
    trainer.dispose();
    model.dispose();
  });
});

describe('TrainingRun pause points', () => {
  it('let a pause in during a step that never yields to the event loop by itself', async () => {
    let partsDone = 0;
    // 40 parts of 5 ms of synchronous work, with only microtask awaits between them: a timer cannot fire inside the
    // step unless its pause points give the event loop a turn.
    const busy: StepTrainer = {
      async trainStep(pausePoint) {
        for (let i = 0; i < 40; i++) {
          const until = performance.now() + 5;
          while (performance.now() < until);
          partsDone += 1;
          await pausePoint!();
        }
        return { loss: 1 };
      },
      evaluate: async () => ({}),
      dispose: () => undefined,
    };
    const states: RunState[] = [];
    const run = new TrainingRun(busy, { maxSteps: 1, evalEvery: 0, onState: (s) => states.push(s) });
    const finished = run.run();
    setTimeout(() => run.pause(), 20);
    await stateReached(states, 'paused');
    await run.whenIdle();
    // Paused within the step: ~20 ms plus one pause-point interval (100 ms) of 5-ms parts, far from all 40.
    expect(partsDone).toBeGreaterThan(0);
    expect(partsDone).toBeLessThan(40);
    const atPause = partsDone;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(partsDone).toBe(atPause);
    run.resume();
    expect(await finished).toBe('done');
    expect(partsDone).toBe(40);
  });
});
