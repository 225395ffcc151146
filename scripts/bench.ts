/**
 * npm run bench -- [--backends wasm,cpu] [--trainers sft,grpo,dpo,ppo] [--steps N] [--warmup N] [--out FILE]
 *
 * A benchmark, not a timed test: for each trainer and each available backend, starts the trainer (LM trainers from
 * the shipped checkpoints: SFT from base, GRPO and DPO from sft; control trainers such as PPO from a fresh model),
 * runs warm-up steps (Adam creates its slots), then timed steps,
 * and reports ms per step (median), steps/s, completion tokens/s, the split into generation / forward-backward /
 * optimizer, the tensor count (which must not grow) and the model sizes. Prints markdown to stdout, progress to
 * stderr, and writes everything as JSON (default bench-results/bench.json, gitignored).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import type { ActorCritic } from '@/lib/models/actor-critic';
import { loadTinyLM, type Checkpointable } from '@/lib/models/checkpoint';
import { BACKEND_ORDER, selectBackend, type BackendName } from '@/lib/tf/backend';
import type { ArithmeticTask } from '@/lib/tasks/arithmetic';
import { CHECKPOINTS, createLabTask } from '@/lib/train/lab-setup';
import { TRAINERS, type ControlTrainerEntry, type LmTrainerEntry, type RunnableTrainer } from '@/lib/train/registry';
import type { Metrics } from '@/lib/train/run';
import { createMicroBench, lmProbe, median, ppoProbe, type MicroBench, type UpdateProbe } from './bench/micro';
import { DEFAULT_STEPS, parseOptions, USAGE, UsageError, type BenchOptions } from './bench/options';
import { markdown } from './bench/report';
import type { BackendStatus, BenchReport, MachineInfo, ModelInfo, TrainerResult } from './bench/types';

/**
 * Changes to a trainer's defaults that only shorten set-up, never the measured step: DPO samples its preference
 * pairs before the first step (512 prompts × 4 samples by default, ~4 min on cpu); 128 × 3 still gives more pairs
 * than a batch needs (40 on the shipped sft checkpoint) and each step still trains on per_device_train_batch_size pairs.
 */
const SETUP_OVERRIDES: Record<string, Record<string, unknown>> = {
  dpo: { num_prompts: 128, samples_per_prompt: 3 },
};

const log = (message: string) => console.error(`bench: ${message}`);
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

// ---------------------------------------------------------------------------------------------------------------
// Trainers: what the registry offers, and how each is started

interface Entry {
  kind: string;
  presets?: Record<string, { overrides: Record<string, unknown> }>;
}
const REGISTRY = TRAINERS as unknown as Record<string, Entry>;

interface Started {
  trainer: RunnableTrainer;
  task: ArithmeticTask | null;
  init: string | null;
  overrides: Record<string, unknown>;
  notes: string[];
  /** Frees what the trainer does not own (the loaded base model). */
  disposeExtra(): void;
  /** One update of the trainer's shape for the micro-benchmark; null when there is no probe for it. */
  probe(): UpdateProbe | null;
  /** Units processed by the step that returned `metrics`. */
  units(metrics: Metrics): { unit: string; count: number };
}

const readModel = (file: string) => loadTinyLM(new Uint8Array(fs.readFileSync(path.join('public', file))));

async function startLm(name: string, entry: LmTrainerEntry): Promise<Started> {
  const task = createLabTask();
  const init = name === 'sft' ? CHECKPOINTS.base : CHECKPOINTS.sft;
  const preset = { ...(entry.presets.default?.overrides ?? {}) } as Record<string, unknown>;
  const notes: string[] = [];
  let overrides: Record<string, unknown> = { ...preset, ...(SETUP_OVERRIDES[name] ?? {}) };
  let base = readModel(init);
  let trainer: RunnableTrainer;
  try {
    trainer = await entry.create(base, task, overrides);
  } catch (error) {
    base.dispose();
    if (!SETUP_OVERRIDES[name]) throw error;
    notes.push(`set-up overrides ${JSON.stringify(SETUP_OVERRIDES[name])} failed (${errorText(error)}); used the preset as is`);
    overrides = preset;
    base = readModel(init);
    try {
      trainer = await entry.create(base, task, overrides);
    } catch (retryError) {
      base.dispose();
      throw retryError;
    }
  }
  const config = trainer.config as unknown as Record<string, unknown>;
  const batchSize = typeof config.per_device_train_batch_size === 'number' ? config.per_device_train_batch_size : NaN;
  return {
    trainer,
    task,
    init,
    overrides,
    notes,
    disposeExtra: () => base.dispose(), // the trainer disposes its optimizer (and any adapter copy), not the base
    probe: () => lmProbe(name, trainer as unknown as { config: object; model: unknown; pairs?: unknown }, task),
    units(metrics) {
      if (typeof metrics.num_tokens === 'number') return { unit: 'completion tokens', count: metrics.num_tokens };
      if (typeof metrics['completions/mean_length'] === 'number') return { unit: 'completion tokens', count: batchSize * metrics['completions/mean_length'] };
      const last = (trainer as unknown as { lastBatch?: { pair: { chosen: number[]; rejected: number[] } }[] }).lastBatch;
      if (Array.isArray(last) && last.length > 0) {
        return { unit: 'completion tokens', count: last.reduce((s, { pair }) => s + pair.chosen.length + pair.rejected.length, 0) };
      }
      // Neither in the metrics nor on the trainer: an upper bound from the shapes (chosen + rejected, full length).
      return { unit: 'completion tokens (upper bound)', count: 2 * batchSize * task.maxCompletionLength };
    },
  };
}

/**
 * A control trainer (PPO): the registry's `create(overrides)` builds its own model and environments. Without a
 * registry entry, ppo starts through createPpoTrainer (lib/train/ppo-trainer.ts), whose signature is the same.
 */
async function startControl(name: string, entry: ControlTrainerEntry | undefined): Promise<Started> {
  const overrides = { ...(entry?.presets.default?.overrides ?? {}) } as Record<string, unknown>;
  let trainer: RunnableTrainer;
  const notes: string[] = [];
  if (entry) {
    trainer = await entry.create(overrides);
  } else {
    const { createPpoTrainer } = await import('@/lib/train/ppo-trainer');
    trainer = createPpoTrainer(overrides) as unknown as RunnableTrainer;
    notes.push('not in TRAINERS: started with createPpoTrainer from lib/train/ppo-trainer.ts');
  }
  const c = trainer.config as unknown as Record<string, unknown>;
  const transitions = (typeof c.num_envs === 'number' ? c.num_envs : NaN) * (typeof c.num_steps === 'number' ? c.num_steps : NaN);
  return {
    trainer,
    task: null,
    init: null,
    overrides,
    notes,
    disposeExtra: () => undefined, // the trainer owns its model
    probe: () => (name === 'ppo' && trainer.model.kind === 'actor-critic' ? ppoProbe(trainer.model as unknown as ActorCritic, c) : null),
    units: () => ({ unit: 'transitions', count: transitions }),
  };
}

/** TinyLM and ActorCritic both have trainableVariables(); Checkpointable does not promise it. */
const trainableVariables = (model: Checkpointable): tf.Variable[] =>
  (model as Checkpointable & { trainableVariables?: () => tf.Variable[] }).trainableVariables?.() ?? [];

function modelInfo(model: Checkpointable): ModelInfo {
  const params = [...model.namedWeights().values()].reduce((s, v) => s + v.size, 0);
  const trainable = trainableVariables(model).reduce((s, v) => s + v.size, 0);
  const c = model.config as Record<string, unknown>;
  let description = model.kind;
  if (model.kind === 'tiny-lm') {
    const lora = c.lora ? ` · LoRA r ${(c.lora as { r?: number }).r}` : '';
    description = `TinyLM d_model ${c.d_model} · ${c.n_layers} layers · ${c.n_heads} heads · d_ff ${c.d_ff} · vocab ${c.vocab_size} · context ${c.context_length}${lora}`;
  } else if (model.kind === 'actor-critic') {
    description = `MLP ${[c.obs_dim, ...((c.hidden_sizes as number[]) ?? []), c.n_actions].join(' → ')} + value head (${c.activation})`;
  }
  return { kind: model.kind, description, config: { ...c }, params, trainable };
}

// ---------------------------------------------------------------------------------------------------------------
// One trainer on one backend

async function benchOne(name: string, backend: BackendName, steps: number, warmup: number, warnings: string[]): Promise<TrainerResult> {
  const entry = REGISTRY[name];
  const result: TrainerResult = { trainer: name, backend, status: 'ok', notes: [], init: null, overrides: {} };
  const beforeCreate = tf.memory().numTensors;
  let started: Started | undefined;
  let micro: MicroBench | undefined;
  try {
    const t0 = performance.now();
    if (entry?.kind === 'lm') started = await startLm(name, entry as unknown as LmTrainerEntry);
    else if (entry?.kind === 'control' || (entry === undefined && name === 'ppo')) {
      started = await startControl(name, entry as unknown as ControlTrainerEntry | undefined);
    } else {
      result.status = 'skipped';
      result.notes.push(entry ? `kind '${entry.kind}' is neither 'lm' nor 'control': its factory is unknown here` : 'not in TRAINERS');
      return result;
    }
    result.setupMs = performance.now() - t0;
    const { trainer } = started;
    result.init = started.init;
    result.overrides = started.overrides;
    result.notes.push(...started.notes);
    result.model = modelInfo(trainer.model);

    for (let i = 0; i < warmup; i++) await trainer.trainStep();
    // The micro-benchmark's own warm-up update (its Adam's slots) belongs to the warm-up too.
    const probe = started.probe();
    if (probe) {
      micro = createMicroBench(trainableVariables(trainer.model), probe);
      await micro.update(false);
    } else {
      result.notes.push('no micro-benchmark for this trainer: fwd+bwd and optimizer are not split');
    }
    const afterWarmup = tf.memory().numTensors;

    const stepMs: number[] = [];
    const units: number[] = [];
    const timing: Record<string, number[]> = {};
    let unit = '';
    for (let i = 0; i < steps; i++) {
      const t = performance.now();
      const metrics = await trainer.trainStep(); // returns after reading its metrics back: the step has finished
      stepMs.push(performance.now() - t);
      const u = started.units(metrics);
      unit = u.unit;
      units.push(u.count);
      for (const [k, v] of Object.entries(metrics)) if (k.startsWith('timing/')) (timing[k] ??= []).push(v);
      await micro?.update(true); // interleaved: the split sees the same machine load as the steps
    }
    const afterTimed = tf.memory().numTensors;
    log(`  ${name}/${backend}: ${steps} steps, median ${median(stepMs).toFixed(1)} ms`);
    const split = micro?.result();

    const med = median(stepMs);
    const trainerTiming = Object.fromEntries(Object.entries(timing).map(([k, v]) => [k, median(v)]));
    const generation = trainerTiming['timing/generation_ms'] ?? trainerTiming['timing/rollout_ms'] ?? 0;
    const k = split?.updatesPerStep ?? NaN;
    const forwardBackward = (split?.forwardBackwardMs ?? NaN) * k;
    const [clip, apply] = [(split?.clipMs ?? NaN) * k, (split?.applyMs ?? NaN) * k];
    const other = med - generation - (split ? forwardBackward + clip + apply : 0);
    const unitsMean = units.reduce((a, b) => a + b, 0) / units.length;
    Object.assign(result, {
      batch: split?.shape,
      warmupSteps: warmup,
      timedSteps: steps,
      stepMs: { median: med, mean: stepMs.reduce((a, b) => a + b, 0) / steps, min: Math.min(...stepMs), max: Math.max(...stepMs), all: stepMs },
      stepsPerSecond: 1000 / med,
      unit,
      unitsPerStep: unitsMean,
      unitsPerSecond: unitsMean / (med / 1000),
      split: { generation, forwardBackward, optimizer: clip + apply, clip, apply, other },
      micro: split,
      trainerTiming,
      tensors: { beforeCreate, afterWarmup, afterTimed, afterDispose: NaN, leakPerRun: afterTimed - afterWarmup, leftAfterDispose: NaN },
    } satisfies Partial<TrainerResult>);
    if (split?.note) result.notes.push(`micro-benchmark: ${split.note}`);
    if (afterTimed !== afterWarmup) {
      warnings.push(`${name} on ${backend}: tf.memory().numTensors went ${afterWarmup} → ${afterTimed} over ${steps} timed steps (a leak)`);
    }
  } catch (error) {
    result.status = 'failed';
    result.error = errorText(error);
    log(`  ${name}/${backend} failed: ${result.error}`);
  } finally {
    try {
      micro?.dispose();
      started?.trainer.dispose();
      started?.disposeExtra();
    } catch (error) {
      warnings.push(`${name} on ${backend}: dispose failed (${errorText(error)})`);
    }
    const afterDispose = tf.memory().numTensors;
    if (result.tensors) {
      result.tensors.afterDispose = afterDispose;
      result.tensors.leftAfterDispose = afterDispose - beforeCreate;
    }
    if (started && afterDispose !== beforeCreate) {
      warnings.push(`${name} on ${backend}: ${afterDispose - beforeCreate} tensors left after dispose()`);
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Backends

/** Activates `backend` if it can run here; otherwise says why (selectBackend's fallback reason). */
async function probeBackend(backend: BackendName): Promise<BackendStatus> {
  try {
    const selection = await selectBackend({ requested: backend, order: ['cpu'] });
    if (selection.backend === backend) {
      const details: Record<string, unknown> = { runtime: selection.runtime };
      if (backend === 'wasm') {
        for (const flag of ['WASM_HAS_SIMD_SUPPORT', 'WASM_HAS_MULTITHREAD_SUPPORT']) {
          details[flag.replace('WASM_HAS_', '').replace('_SUPPORT', '').toLowerCase()] = await tf.env().getAsync(flag).catch(() => 'unknown');
        }
      }
      return { backend, available: true, benchmarked: false, details };
    }
    const reason = selection.fallbacks.find((f) => f.backend === backend)?.reason ?? `selectBackend chose ${selection.backend}`;
    return { backend, available: false, benchmarked: false, reason };
  } catch (error) {
    return { backend, available: false, benchmarked: false, reason: errorText(error) };
  }
}

function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    platform: `${os.platform()} ${os.release()}`,
    arch: os.arch(),
    node: process.version,
    tfjs: tf.version.tfjs,
    totalMemGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadavgStart: os.loadavg()[0],
    date: new Date().toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------------------

async function main(options: BenchOptions): Promise<number> {
  const started = performance.now();
  const machine = machineInfo();
  const known = Object.keys(REGISTRY);
  const trainers = options.trainers ?? known;
  const unknown = trainers.filter((t) => !known.includes(t) && t !== 'ppo');
  if (unknown.length > 0) throw new UsageError(`unknown trainer(s) ${unknown.join(', ')} (known: ${[...known, ...(known.includes('ppo') ? [] : ['ppo'])].join(', ')})`);
  const notes: string[] = [];
  const warnings: string[] = [];
  if (!known.includes('ppo') && options.trainers == null) notes.push('ppo is not in TRAINERS yet: `--trainers ppo` benchmarks it through createPpoTrainer');
  for (const t of trainers) {
    const kind = REGISTRY[t]?.kind;
    if (kind !== undefined && kind !== 'lm' && kind !== 'control') log(`note: ${t} has kind '${kind}' (neither 'lm' nor 'control'): skipped`);
  }

  // Every backend is probed, so the report says why the ones Node lacks are missing.
  const statuses: BackendStatus[] = [];
  for (const b of [...options.backends, ...BACKEND_ORDER.filter((b) => !options.backends.includes(b))]) statuses.push(await probeBackend(b));
  const stepsFor = (b: BackendName) => options.steps ?? DEFAULT_STEPS[b];

  const results: TrainerResult[] = [];
  for (const backend of options.backends) {
    const status = statuses.find((s) => s.backend === backend)!;
    if (!status.available) {
      log(`${backend}: unavailable (${status.reason})`);
      continue;
    }
    const selection = await selectBackend({ requested: backend, order: [backend] });
    if (selection.backend !== backend) throw new Error(`could not switch to ${backend}`);
    status.benchmarked = true;
    for (const name of trainers) {
      log(`${name} on ${backend}: ${options.warmup} warm-up + ${stepsFor(backend)} timed steps…`);
      const r = await benchOne(name, backend, stepsFor(backend), options.warmup, warnings);
      if (r.status === 'skipped') log(`  ${name}: skipped (${r.notes.join('; ')})`);
      results.push(r);
    }
  }
  machine.loadavgEnd = os.loadavg()[0];
  const load = Math.max(machine.loadavgStart, machine.loadavgEnd);
  if (load > machine.cores) {
    notes.push(`the machine was busy (1-min load ${load.toFixed(1)} on ${machine.cores} cores): expect noisy times; the JSON also has each step's time and the fastest ones`);
  }

  const report: BenchReport = {
    schema: 1,
    machine,
    options: {
      backends: options.backends,
      trainers,
      steps: Object.fromEntries(options.backends.filter((b) => statuses.find((s) => s.backend === b)?.benchmarked).map((b) => [b, stepsFor(b)])),
      warmup: options.warmup,
    },
    backends: BACKEND_ORDER.map((b) => statuses.find((s) => s.backend === b)!).sort((a, b) => Number(b.benchmarked) - Number(a.benchmarked)),
    results,
    notes,
    warnings,
    wallSeconds: (performance.now() - started) / 1000,
  };
  for (const w of warnings) log(`WARNING: ${w}`);
  console.log(markdown(report));
  fs.mkdirSync(path.dirname(path.resolve(options.out)), { recursive: true });
  fs.writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${options.out} (${report.wallSeconds.toFixed(0)} s)`);
  if (!statuses.some((s) => s.benchmarked)) {
    log(`none of the requested backends (${options.backends.join(', ')}) is available here`);
    return 1;
  }
  return results.some((r) => r.status === 'failed') ? 1 : 0;
}

try {
  const options = parseOptions(process.argv.slice(2));
  if (options === 'help') {
    console.log(USAGE);
  } else {
    process.exitCode = await main(options);
  }
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`bench: ${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  }
}
