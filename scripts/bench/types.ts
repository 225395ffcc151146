/** The shape of bench-results/bench.json (schema 3 added `sampling`, schema 4 `matmul` and each result's `flops`, schema 5 `kernelCall` and each result's `dispatch`, schema 6 the matmul rate each result's bound used, `flops.gflops`, and warm-up steps per backend, schema 7 `options.minMs`: timed steps run at least that long, so `steps` is a minimum). Times in milliseconds. */
import type { BackendName } from '@/lib/tf/names';
import type { KernelCallCost, MatmulRate, StepFlops } from './flops';
import type { SamplingBound, SamplingResult } from './sampling';

export interface MachineInfo {
  cpu: string;
  cores: number;
  platform: string;
  arch: string;
  node: string;
  tfjs: string;
  totalMemGiB: number;
  /** 1-minute load average at the start and the end: other processes skew the numbers. */
  loadavgStart: number;
  loadavgEnd?: number;
  date: string;
}

export interface BackendStatus {
  backend: BackendName;
  available: boolean;
  /** Why not, as selectBackend's fallbacks say. */
  reason?: string;
  /** Whether this run benchmarked it (requested and available). */
  benchmarked: boolean;
  details?: Record<string, unknown>;
}

export interface ModelInfo {
  kind: string;
  /** e.g. "TinyLM d_model 32 · 2 layers · 4 heads · vocab 22 · context 22". */
  description: string;
  config: Record<string, unknown>;
  params: number;
  trainable: number;
}

export interface TrainerResult {
  trainer: string;
  backend: BackendName;
  status: 'ok' | 'skipped' | 'failed';
  /** Why skipped or failed, or notes on how it ran. */
  notes: string[];
  /** Shipped checkpoint the model started from (null: freshly initialised). */
  init: string | null;
  overrides: Record<string, unknown>;
  model?: ModelInfo;
  setupMs?: number;
  warmupSteps?: number;
  timedSteps?: number;
  stepMs?: { median: number; mean: number; min: number; max: number; all: number[] };
  stepsPerSecond?: number;
  /** Units processed per step (tokens for LMs, env steps for control tasks) and their rate. */
  unit?: string;
  unitsPerStep?: number;
  unitsPerSecond?: number;
  /** Medians over the timed steps of the trainer's own `timing/<phase>_ms` metrics, by phase. */
  phases?: Record<string, number>;
  /** Median step time minus the phases: batching, rewards, bookkeeping, metric read-back. */
  other?: number;
  tensors?: {
    beforeCreate: number;
    afterWarmup: number;
    afterTimed: number;
    afterDispose: number;
    /** afterTimed − afterWarmup: must be 0. */
    leakPerRun: number;
    /** afterDispose − beforeCreate: what dispose() left behind. */
    leftAfterDispose: number;
  };
  /** The step's FLOPs (scripts/bench/flops.ts), their time at the backend's matmul rate, and the median step over it. */
  /** The bound at `gflops`: the faster of the run's first matmul rate and one measured just before this trainer's timed steps. */
  flops?: StepFlops & { gflops: number; boundMs: number; timesBound: number };
  /** Kernels one step dispatches (a step after the timed ones, under tf.profile) and their floor: kernels × the cost of one call. */
  dispatch?: { kernelsPerStep: number; floorMs: number };
  error?: string;
}

export interface BenchReport {
  schema: 7;
  machine: MachineInfo;
  options: { backends: BackendName[]; trainers: string[]; steps: Record<string, number>; warmup: Record<string, number>; minMs: Record<string, number> };
  backends: BackendStatus[];
  /** Each benchmarked backend's matmul rate, measured before its trainers: the FLOP bounds use it. */
  matmul: Partial<Record<BackendName, MatmulRate>>;
  /** What one near-empty kernel call costs per backend (the dispatch floor's unit). */
  kernelCall: Partial<Record<BackendName, KernelCallCost>>;
  results: TrainerResult[];
  /** The sampling call (scripts/bench/sampling.ts): its bound (measured on wasm; null if wasm was not benchmarked). */
  sampling: { bound: SamplingBound | null; results: SamplingResult[] };
  notes: string[];
  warnings: string[];
  wallSeconds: number;
}
