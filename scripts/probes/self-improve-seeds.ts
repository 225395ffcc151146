// Not a test (issue 50): one self_improve preset on one seed with overrides, as the claims run it (seeded, wasm, evaluated every
// round); prints wall time per phase, 3-digit accuracy by round and the kept samples' precision. How the default's
// steps_per_round was chosen: `npx tsx scripts/probes/self-improve-seeds.ts default 1 '{"steps_per_round":200}'`.
import fs from 'node:fs';
import { selectBackend } from '@/lib/tf/backend';
import { startTrainer } from '@/lib/spec/start';
import { trainerSettings } from '@/lib/spec/registry';
import { TrainingRun, type LogLine } from '@/lib/train/run';
const [preset, seed, json] = process.argv.slice(2);
await selectBackend({ requested: 'wasm', order: ['wasm'] });
const p = trainerSettings('self_improve').presets[preset];
const overrides = { ...p.overrides, ...JSON.parse(json ?? '{}'), seed: Number(seed) };
const t0 = performance.now();
const { trainer } = await startTrainer('self_improve', { overrides, readCheckpoint: async (f: string) => new Uint8Array(fs.readFileSync(`public/${f}`)) });
const cfg = trainer.config as { max_steps: number };
const run = new TrainingRun(trainer, { maxSteps: cfg.max_steps, evalEvery: 1 });
await run.run();
const ms = performance.now() - t0;
const tr = run.history.filter((l: LogLine) => l.kind === 'train').map((l) => l.metrics);
const ph = (k: string) => +(tr.reduce((a, m) => a + (m[`timing/${k}_ms`] ?? 0), 0) / 1000).toFixed(2);
console.log(JSON.stringify({ preset, seed: Number(seed), json, elapsed_s: +(ms / 1000).toFixed(2), ft: ph('fine_tuning'), gen: ph('generation'), ev: ph('evaluation'), target: tr.map((m) => m['eval/accuracy_target']), prec: tr.map((m) => m.kept_precision ?? null).slice(1).map((x) => x === null ? null : +x.toFixed(3)), kept: tr.map((m) => m.kept ?? null).slice(1) }));
