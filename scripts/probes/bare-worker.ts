// The lab's training loop in a bare worker (no lab page): what a lab's step costs in Chromium without the page beside it.
import { selectBackend } from '@/lib/tf/backend';
import { startTrainer } from '@/lib/spec/start';
import { TrainingRun, type LogLine } from '@/lib/train/run';
import { readCheckpoint } from '@/labs/shell/checkpoints';
import * as tf from '@tensorflow/tfjs';

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
  const wasm = (tf.backend() as unknown as { wasm?: Record<string, unknown> & { asm?: Record<string, unknown> } }).wasm;
  self.postMessage({ heap: { asmKeys: Object.keys(wasm?.asm ?? {}).length, asmMemory: wasm?.asm?.memory instanceof WebAssembly.Memory, wasmKeys: Object.keys(wasm ?? {}).filter((k) => /mem|asm|HEAP/i.test(k)) }, phases_s: Object.fromEntries([...new Set(train.flatMap((l) => Object.keys(l.metrics).filter((k) => k.startsWith('timing/'))))].map((k) => [k.slice(7, -3), +(train.reduce((a, l) => a + (l.metrics[k] ?? 0), 0) / 1000).toFixed(2)])), elapsed_s: +(ms / 1000).toFixed(2), steps: train.length, step_ms_sum_s: +(stepMs / 1000).toFixed(2), outside_steps_s: +((ms - stepMs) / 1000).toFixed(2) });
};
