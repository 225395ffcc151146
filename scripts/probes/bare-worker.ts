// The lab's training loop in a bare worker (no lab page): what a lab's step costs in Chromium without the page beside it.
import { selectBackend } from '@/lib/tf/backend';
import { startTrainer } from '@/lib/spec/start';
import { TrainingRun, type LogLine } from '@/lib/train/run';
import { readCheckpoint } from '@/labs/shell/checkpoints';

self.onmessage = async (event: MessageEvent<{ trainer: string; overrides: Record<string, unknown> }>) => {
  const t0 = performance.now();
  await selectBackend({ requested: 'wasm' });
  const started = await startTrainer(event.data.trainer as never, { overrides: event.data.overrides as never, readCheckpoint } as never);
  const t = started.trainer;
  const lines: LogLine[] = [];
  const config = t.config as { max_steps: number; eval_steps: number };
  const run = new TrainingRun(t, { maxSteps: config.max_steps, evalEvery: config.eval_steps, onLog: (l) => lines.push(l) });
  await run.run();
  const ms = performance.now() - t0;
  const train = lines.filter((l) => l.kind === 'train');
  const stepMs = train.reduce((s, l) => s + (l.metrics['timing/step_ms'] ?? 0), 0);
  self.postMessage({ elapsed_s: +(ms / 1000).toFixed(2), steps: train.length, step_ms_sum_s: +(stepMs / 1000).toFixed(2), outside_steps_s: +((ms - stepMs) / 1000).toFixed(2) });
};
