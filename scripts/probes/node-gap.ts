// Not a test (issue 50): the Node side of the browser gap: the lab's loop (TrainingRun, evaluations) with no page; a third argument also
// reads inspect() after every step, as the lab's worker did. Prints the log's hash without timings (same numbers or not).
import fs from 'node:fs';
import crypto from 'node:crypto';
import { selectBackend } from '@/lib/tf/backend';
import { startTrainer } from '@/lib/spec/start';
import { TrainingRun, type LogLine } from '@/lib/train/run';
const [name, json, inspect] = process.argv.slice(2);
const t0 = performance.now();
await selectBackend({ requested: 'wasm' });
const started = await startTrainer(name as never, { overrides: JSON.parse(json ?? '{}'), readCheckpoint: async (f: string) => new Uint8Array(fs.readFileSync(`public/${f}`)) } as never);
const t = started.trainer;
const lines: LogLine[] = [];
const run = new TrainingRun(t, { maxSteps: (t.config as { max_steps: number }).max_steps, evalEvery: (t.config as { eval_steps: number }).eval_steps, onLog: (l) => lines.push(l), afterStep: inspect ? async () => void (await t.inspect()) : undefined });
await run.run();
const ms = performance.now() - t0;
const train = lines.filter((l) => l.kind === 'train');
const stepMs = train.reduce((s, l) => s + (l.metrics['timing/step_ms'] ?? 0), 0);
console.log(JSON.stringify({ phases_s: Object.fromEntries([...new Set(train.flatMap((l) => Object.keys(l.metrics).filter((k) => k.startsWith('timing/'))))].map((k) => [k.slice(7, -3), +(train.reduce((a, l) => a + (l.metrics[k] ?? 0), 0) / 1000).toFixed(2)])), name, json, inspect: !!inspect, elapsed_s: +(ms / 1000).toFixed(2), steps: train.length, step_ms_sum_s: +(stepMs / 1000).toFixed(2), outside_steps_s: +((ms - stepMs) / 1000).toFixed(2), evals: lines.length - train.length, numbers: crypto.createHash('sha256').update(JSON.stringify(lines.map((l) => Object.entries(l.metrics).filter(([k]) => !k.startsWith('timing/'))))).digest('hex').slice(0, 12) }));
