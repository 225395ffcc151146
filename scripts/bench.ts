/**
 * npm run bench -- [--backends wasm,cpu] [--trainers sft,grpo,dpo,ppo] [--steps N] [--min-ms MS] [--warmup N] [--out FILE]
 *
 * A benchmark, not a timed test. For each backend and each trainer of lib/spec/registry.ts it starts the trainer
 * exactly as the CLI and the labs do (lib/spec/start.ts), runs warm-up steps (Adam creates its slots), then timed
 * steps (at least --steps of them, and on until --min-ms have passed), and reports the median ms per step, steps/s,
 * throughput (tokens or env steps per second, from the trainer's own cumulative metric), the split of the step into
 * the phases the trainer itself times (`timing/*_ms`: generation or rollout, reference, forward+backward, optimizer),
 * the tensor count (which must not grow) and the model size; each step's FLOPs from the model's shapes and its
 * tokens, and the step against the bound they set at the backend's matmul rate (the faster of its measurement at the
 * start of the run and one just before that trainer's timed steps; scripts/bench/flops.ts). Then the sampling call
 * against its bound (scripts/bench/sampling.ts), unless --no-sampling. Markdown on stdout, progress on stderr,
 * everything as JSON in bench-results/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { BACKEND_ORDER, selectBackend, type BackendName } from '@/lib/tf/backend';
import { checkpointFor, TRAINER_NAMES, TRAINERS, type TrainerName } from '@/lib/spec/registry';
import type { Metrics } from '@/lib/train/run';
import { startTrainer } from '@/lib/spec/start';
import type { Trainer } from '@/lib/train/trainer';
import { errorMessage } from '@/lib/errors';
import { DEFAULT_MIN_MS, DEFAULT_STEPS, DEFAULT_WARMUP, parseOptions, timeAnotherStep, USAGE, UsageError, type BenchOptions } from './bench/options';
import { markdown } from './bench/report';
import { median } from './bench/median';
import { countKernels, kernelCallCost, matmulParamsPerToken, matmulRate, stepFlops, type KernelCallCost, type MatmulRate } from './bench/flops';
import { benchSampling, samplingBound, type SamplingBound, type SamplingResult } from './bench/sampling';
import type { BackendStatus, BenchReport, MachineInfo, ModelInfo, TrainerResult } from './bench/types';

/**
 * Changes to a trainer's defaults that only shorten set-up, never the measured step: DPO samples its preference
 * pairs before the first step (512 prompts × 4 samples by default, minutes on cpu); 128 × 3 still gives more pairs
 * than a batch needs, and each step still trains on per_device_train_batch_size pairs.
 */
const SETUP_OVERRIDES: Partial<Record<TrainerName, Record<string, unknown>>> = {
  dpo: { num_prompts: 128, samples_per_prompt: 3 },
  // One step is a whole round (round 0 alone is 1,200 SFT steps): small rounds, so each timed step shows all three
  // phases (generation, fine_tuning, evaluation) in seconds.
  self_improve: { demo_steps: 20, steps_per_round: 20, num_prompts: 32, eval_samples: 20 },
  // Its SFT phase comes first: one SFT step, so the timed steps are GRPO's (1,200 of the default run's 2,000, and the
  // dearer kind: generation plus the update), each showing its generation, forward_backward and optimizer phases.
  vision: { sft_steps: 1 },
};

const log = (message: string) => console.error(`bench: ${message}`);

function modelInfo(trainer: Trainer): ModelInfo {
  const { model } = trainer;
  const weights = [...model.namedWeights().values()];
  const params = weights.reduce((s, v) => s + v.size, 0);
  const trainable = weights.filter((v) => v.trainable).reduce((s, v) => s + v.size, 0);
  const c = model.config as Record<string, unknown>;
  let description = model.kind;
  if (model.kind === 'tiny-lm') {
    const lora = c.lora ? ` · LoRA r ${(c.lora as { r?: number }).r}` : '';
    description = `TinyLM d_model ${c.d_model} · ${c.n_layers} layers · ${c.n_heads} heads · d_ff ${c.d_ff} · vocab ${c.vocab_size} · context ${c.context_length}${lora}`;
  } else if (model.kind === 'vision-lm') {
    const { lm, encoder } = c as { lm: Record<string, number>; encoder: Record<string, number> };
    description = `patch encoder ${encoder.patch_grid}×${encoder.patch_grid} patches of ${encoder.patch_size}×${encoder.patch_size}×${encoder.num_channels} → TinyLM d_model ${lm.d_model} · ${lm.n_layers} layers · ${lm.n_heads} heads · vocab ${lm.vocab_size} · context ${lm.context_length}`;
  } else if (model.kind === 'actor-critic') {
    description = `MLP ${[c.obs_dim, ...((c.hidden_sizes as number[]) ?? []), c.n_actions].join(' → ')} + value head (${c.activation})`;
  }
  return { kind: model.kind, description, config: { ...c }, params, trainable };
}

/** The step's FLOPs (scripts/bench/flops.ts) and how far the median step is from their time at the matmul rate. */
function againstBound(trainer: Trainer, result: TrainerResult, timed: Metrics[], rate: MatmulRate): TrainerResult['flops'] {
  if (!result.phases || !result.stepMs || !Number.isFinite(result.unitsPerStep)) return undefined;
  const config = trainer.config as Record<string, unknown>;
  const lengths = timed.map((m) => m['completions/mean_length']).filter((x) => Number.isFinite(x));
  const flops = stepFlops({
    paramsPerToken: matmulParamsPerToken(trainer.model as Parameters<typeof matmulParamsPerToken>[0]),
    tokensPerStep: result.unitsPerStep!,
    phases: Object.keys(result.phases),
    epochs: typeof config.num_ppo_epochs === 'number' ? config.num_ppo_epochs : undefined,
    rows: typeof config.per_device_train_batch_size === 'number' ? config.per_device_train_batch_size : undefined,
    meanCompletionLength: lengths.length > 0 ? median(lengths) : undefined,
  });
  const boundMs = flops.total / (rate.gflops * 1e6);
  return { ...flops, gflops: rate.gflops, boundMs, timesBound: result.stepMs.median / boundMs };
}

async function benchOne(name: TrainerName, backend: BackendName, minSteps: number, minMs: number, warmup: number, warnings: string[], rate: MatmulRate, callCost: KernelCallCost): Promise<TrainerResult> {
  const spec = TRAINERS[name];
  const overrides = { ...(SETUP_OVERRIDES[name] ?? {}) };
  const result: TrainerResult = { trainer: name, backend, status: 'ok', notes: [], init: checkpointFor(name, overrides), overrides };
  const beforeCreate = tf.memory().numTensors;
  let trainer: Trainer | undefined;
  try {
    const t0 = performance.now();
    ({ trainer } = await startTrainer(name, { overrides, readCheckpoint: async (file) => new Uint8Array(fs.readFileSync(path.join('public', file))) }));
    result.setupMs = performance.now() - t0;
    result.model = modelInfo(trainer);

    for (let i = 0; i < warmup; i++) await trainer.trainStep();
    // The rate again, right before the timed steps, and the faster of the two sets the bound: a machine that drifts
    // faster during the run does not flatter the ratio, and a measurement that ran slow (right after the first
    // trainer's warm-up it often does) cannot loosen the bound; a machine that slows down still can only count against it.
    const measured = await matmulRate();
    const rateNow = measured.gflops > rate.gflops ? measured : rate;
    const afterWarmup = tf.memory().numTensors;
    const timed: Metrics[] = [];
    let previous = NaN;
    const units: number[] = [];
    const timedFrom = performance.now();
    // At least minSteps steps, and on until minMs have passed: a median over more than a moment of a shared host.
    while (timeAnotherStep(timed.length, performance.now() - timedFrom, minSteps, minMs)) {
      const metrics = await trainer.trainStep(); // resolves after the metrics are read back: the step has finished
      timed.push(metrics);
      const total = metrics[spec.throughput.metric];
      if (!Number.isNaN(previous)) units.push(total - previous);
      previous = total;
    }
    const steps = timed.length;
    const afterTimed = tf.memory().numTensors;
    const phase = (key: string) => median(timed.map((m) => m[key] ?? 0));
    const stepMs = timed.map((m) => m['timing/step_ms']);
    const med = median(stepMs);
    const phases = Object.fromEntries(
      [...new Set(timed.flatMap((m) => Object.keys(m)))].filter((k) => k.startsWith('timing/') && k !== 'timing/step_ms').map((k) => [k.slice(7, -3), phase(k)]),
    );
    const unitsPerStep = units.length > 0 ? units.reduce((a, b) => a + b, 0) / units.length : NaN;
    Object.assign(result, {
      warmupSteps: warmup,
      timedSteps: steps,
      stepMs: { median: med, mean: stepMs.reduce((a, b) => a + b, 0) / steps, min: Math.min(...stepMs), max: Math.max(...stepMs), all: stepMs },
      stepsPerSecond: 1000 / med,
      unit: spec.throughput.unit,
      unitsPerStep,
      unitsPerSecond: unitsPerStep / (med / 1000),
      phases,
      other: med - Object.values(phases).reduce((a, b) => a + b, 0),
      tensors: { beforeCreate, afterWarmup, afterTimed, afterDispose: NaN, leakPerRun: afterTimed - afterWarmup, leftAfterDispose: NaN },
    } satisfies Partial<TrainerResult>);
    result.flops = againstBound(trainer, result, timed, rateNow);
    // One more step, profiled, after the timed ones (profiling slows the step it watches): how many kernels a step runs.
    const kernelsPerStep = await countKernels(() => trainer!.trainStep());
    result.dispatch = { kernelsPerStep, floorMs: (kernelsPerStep * callCost.usPerKernel) / 1000 };
    log(`  ${name}/${backend}: ${steps} steps, median ${med.toFixed(1)} ms${result.flops ? ` (${result.flops.timesBound.toFixed(1)} × bound)` : ''}`);
    if (steps < 2) result.notes.push('throughput needs at least 2 timed steps');
    if (afterTimed !== afterWarmup) warnings.push(`${name} on ${backend}: tf.memory().numTensors went ${afterWarmup} → ${afterTimed} over ${steps} timed steps (a leak)`);
  } catch (error) {
    result.status = 'failed';
    result.error = errorMessage(error);
    log(`  ${name}/${backend} failed: ${result.error}`);
  } finally {
    trainer?.dispose();
    const afterDispose = tf.memory().numTensors;
    if (result.tensors) Object.assign(result.tensors, { afterDispose, leftAfterDispose: afterDispose - beforeCreate });
    if (afterDispose !== beforeCreate) warnings.push(`${name} on ${backend}: ${afterDispose - beforeCreate} tensors left after dispose()`);
  }
  return result;
}

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
    return { backend, available: false, benchmarked: false, reason: errorMessage(error) };
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

async function main(options: BenchOptions): Promise<number> {
  const started = performance.now();
  const machine = machineInfo();
  const trainers = options.trainers ?? TRAINER_NAMES;
  const notes: string[] = [];
  const warnings: string[] = [];

  // Every backend is probed, so the report says why the ones Node lacks are missing.
  const statuses: BackendStatus[] = [];
  for (const b of [...options.backends, ...BACKEND_ORDER.filter((b) => !options.backends.includes(b))]) statuses.push(await probeBackend(b));
  const stepsFor = (b: BackendName) => options.steps ?? DEFAULT_STEPS[b];
  const warmupFor = (b: BackendName) => options.warmup ?? DEFAULT_WARMUP[b];
  const minMsFor = (b: BackendName) => options.minMs ?? DEFAULT_MIN_MS[b];

  const results: TrainerResult[] = [];
  const sampling: SamplingResult[] = [];
  const matmul: Partial<Record<BackendName, MatmulRate>> = {};
  const kernelCall: Partial<Record<BackendName, KernelCallCost>> = {};
  let bound: SamplingBound | null = null;
  for (const backend of options.backends) {
    const status = statuses.find((s) => s.backend === backend)!;
    if (!status.available) {
      log(`${backend}: unavailable (${status.reason})`);
      continue;
    }
    if ((await selectBackend({ requested: backend, order: [backend] })).backend !== backend) throw new Error(`could not switch to ${backend}`);
    status.benchmarked = true;
    const rate = await matmulRate();
    matmul[backend] = rate;
    const callCost = await kernelCallCost();
    kernelCall[backend] = callCost;
    log(`${backend}: matmul ${rate.n}³ at ${rate.gflops.toFixed(1)} GFLOP/s (median ${rate.medianGflops.toFixed(1)}); a kernel call ${callCost.usPerKernel.toFixed(1)} µs`);
    for (const name of trainers) {
      log(`${name} on ${backend}: ${warmupFor(backend)} warm-up + at least ${stepsFor(backend)} timed steps and ${minMsFor(backend)} ms…`);
      results.push(await benchOne(name, backend, stepsFor(backend), minMsFor(backend), warmupFor(backend), warnings, rate, callCost));
    }
    if (options.sampling) {
      log(`the sampling call on ${backend}…`);
      if (backend === 'wasm') bound = await samplingBound();
      sampling.push(...(await benchSampling(backend)));
    }
  }
  machine.loadavgEnd = os.loadavg()[0];
  const load = Math.max(machine.loadavgStart, machine.loadavgEnd);
  if (load > machine.cores) {
    notes.push(`the machine was busy (1-min load ${load.toFixed(1)} on ${machine.cores} cores): expect noisy times; the JSON also has each step's time`);
  }

  const report: BenchReport = {
    schema: 7,
    machine,
    options: {
      backends: options.backends,
      trainers,
      steps: Object.fromEntries(options.backends.filter((b) => statuses.find((s) => s.backend === b)?.benchmarked).map((b) => [b, stepsFor(b)])),
      warmup: Object.fromEntries(options.backends.filter((b) => statuses.find((s) => s.backend === b)?.benchmarked).map((b) => [b, warmupFor(b)])),
      minMs: Object.fromEntries(options.backends.filter((b) => statuses.find((s) => s.backend === b)?.benchmarked).map((b) => [b, minMsFor(b)])),
    },
    backends: BACKEND_ORDER.map((b) => statuses.find((s) => s.backend === b)!).sort((a, b) => Number(b.benchmarked) - Number(a.benchmarked)),
    matmul,
    kernelCall,
    results,
    sampling: { bound, results: sampling },
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
  return results.some((r) => r.status === 'failed') || warnings.length > 0 ? 1 : 0;
}

try {
  const options = parseOptions(process.argv.slice(2));
  if (options === 'help') console.log(USAGE);
  else process.exitCode = await main(options);
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`bench: ${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    console.error(`bench: ${errorMessage(error)}`);
    process.exitCode = 1;
  }
}
