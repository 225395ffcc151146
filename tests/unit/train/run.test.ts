import { describe, expect, it, vi } from 'vitest';
import { nextTask, TrainingRun, type Metrics, type StepTrainer } from '@/lib/train/run';

/** A trainer whose "loss" follows a script, so the loop's behaviour can be checked exactly. */
function scripted(losses: number[], options: { slow?: boolean } = {}): StepTrainer & { steps: number; evals: number; disposed: boolean } {
  const t = {
    steps: 0,
    evals: 0,
    disposed: false,
    async trainStep(): Promise<Metrics> {
      if (options.slow) await new Promise((r) => setTimeout(r, 5));
      return { loss: losses[t.steps++] ?? 0 };
    },
    async evaluate(): Promise<Metrics> {
      t.evals += 1;
      return { 'eval/accuracy': t.steps / 10 };
    },
    dispose() {
      t.disposed = true;
    },
  };
  return t;
}

describe('TrainingRun', () => {
  it('runs every step, evaluating before the first, every evalEvery steps and after the last', async () => {
    const trainer = scripted([3, 2, 1, 0.5, 0.25]);
    const lines: string[] = [];
    const run = new TrainingRun(trainer, { maxSteps: 5, evalEvery: 2, onLog: (l) => lines.push(`${l.kind}@${l.step}`) });
    expect(await run.run()).toBe('done');
    expect(lines).toEqual(['eval@0', 'train@1', 'train@2', 'eval@2', 'train@3', 'train@4', 'eval@4', 'train@5', 'eval@5']);
    expect(run.history.filter((l) => l.kind === 'train').map((l) => l.metrics.loss)).toEqual([3, 2, 1, 0.5, 0.25]);
  });

  it('stops on a NaN metric with a clear message and keeps the history', async () => {
    const trainer = scripted([1, 0.5, NaN, 0.1]);
    const states: string[] = [];
    const run = new TrainingRun(trainer, { maxSteps: 4, evalEvery: 0, onState: (s) => states.push(s) });
    expect(await run.run()).toBe('failed');
    expect(run.error).toMatch(/step 3: loss is NaN.*lower learning_rate/);
    expect(run.history.map((l) => l.metrics.loss)).toEqual([1, 0.5, NaN]);
    expect(trainer.steps).toBe(3);
    expect(states).toEqual(['running', 'failed']);
  });

  it('stops on an infinite metric too', async () => {
    const run = new TrainingRun(scripted([Infinity]), { maxSteps: 3, evalEvery: 0 });
    expect(await run.run()).toBe('failed');
    expect(run.error).toMatch(/loss is Infinity/);
  });

  it('reports an exception thrown by a step as a failure instead of rejecting', async () => {
    const trainer = scripted([1]);
    trainer.trainStep = async () => {
      throw new Error('GPU device was lost');
    };
    const run = new TrainingRun(trainer, { maxSteps: 3, evalEvery: 0 });
    expect(await run.run()).toBe('failed');
    expect(run.error).toBe('Training failed at step 1: GPU device was lost');
  });

  it('pauses between steps, resumes where it left off, and can be stopped while paused', async () => {
    const trainer = scripted(Array(100).fill(1), { slow: true });
    const run = new TrainingRun(trainer, { maxSteps: 100, evalEvery: 0 });
    const finished = run.run();
    await new Promise((r) => setTimeout(r, 30));
    run.pause();
    await new Promise((r) => setTimeout(r, 20)); // the step in flight completes
    const pausedAt = trainer.steps;
    await new Promise((r) => setTimeout(r, 40));
    expect(trainer.steps).toBe(pausedAt);
    expect(run.state).toBe('paused');
    run.resume();
    await new Promise((r) => setTimeout(r, 30));
    expect(trainer.steps).toBeGreaterThan(pausedAt);
    run.pause();
    await new Promise((r) => setTimeout(r, 20));
    run.stop();
    expect(await finished).toBe('stopped');
    expect(trainer.steps).toBeLessThan(100);
    expect(run.history).toHaveLength(trainer.steps);
  });

  it('turns the event loop between steps without a timer (issue 50: browsers clamp nested timers to 4 ms a step)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    try {
      // With timers faked and never advanced, a loop that waited on setTimeout would never end.
      const run = new TrainingRun(scripted(Array(50).fill(1)), { maxSteps: 50, evalEvery: 10 });
      expect(await run.run()).toBe('done');
      expect(run.history.filter((l) => l.kind === 'train')).toHaveLength(50);
    } finally {
      vi.useRealTimers();
    }
  });

  it('nextTask lets a message already queued in before it resolves, as a pause needs', async () => {
    const order: string[] = [];
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => order.push('message');
    port2.postMessage(null);
    await nextTask();
    order.push('turn');
    port1.close();
    expect(order).toEqual(['message', 'turn']);
  });

  it('nextTask without setImmediate (a browser) takes turns on a message channel, in order, with messages queued before them', async () => {
    vi.stubGlobal('setImmediate', undefined);
    try {
      const order: string[] = [];
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => order.push('message');
      port2.postMessage(null);
      await Promise.all([1, 2, 3].map((i) => nextTask().then(() => order.push(`turn ${i}`))));
      await nextTask(); // the channel made by the first turn serves the next ones
      port1.close();
      expect(order).toEqual(['message', 'turn 1', 'turn 2', 'turn 3']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('says after each step whether it took a pause point (a step with parts), for what reads the step before the next', async () => {
    const seen: boolean[] = [];
    const trainer: StepTrainer = {
      // Odd steps have parts (a pause point between them, as a self-improvement round does); even steps do not.
      trainStep: async (pausePoint) => {
        if (seen.length % 2 === 0) await pausePoint?.();
        return { loss: 1 };
      },
      evaluate: async () => ({}),
      dispose: () => undefined,
    };
    const run: TrainingRun = new TrainingRun(trainer, { maxSteps: 4, evalEvery: 0, afterStep: async () => void seen.push(run.stepTookPausePoints) });
    expect(await run.run()).toBe('done');
    expect(seen).toEqual([true, false, true, false]);
  });

  it('refuses a bad step count and a second run()', async () => {
    expect(() => new TrainingRun(scripted([]), { maxSteps: 0, evalEvery: 0 })).toThrow(/maxSteps/);
    const run = new TrainingRun(scripted([1]), { maxSteps: 1, evalEvery: 0 });
    await run.run();
    await expect(run.run()).rejects.toThrow(/twice/);
  });
});
