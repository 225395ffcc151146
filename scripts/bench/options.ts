/** Command-line flags of `npm run bench`. */
import { integerFlag, parseFlags, UsageError } from '../cli';
import { BACKEND_ORDER, parseBackendName, type BackendName } from '@/lib/tf/names';
import { TRAINER_NAMES, trainerNamed, type TrainerName } from '@/lib/spec/registry';

export const USAGE = `npm run bench -- [--backends wasm,cpu] [--trainers sft,grpo,dpo,ppo] [--steps N] [--min-ms MS] [--warmup N] [--no-sampling] [--out FILE]

  --backends  backends to benchmark, in order (default wasm,cpu; webgl and webgpu are reported unavailable in Node)
  --trainers  trainers from lib/spec/registry.ts (default: all of them)
  --steps     timed steps per trainer and backend, at least (default: wasm 15, cpu 3, webgl 5, webgpu 15)
  --min-ms    and at least this many milliseconds of timed steps (default: wasm 1500, webgpu 1500, cpu 0, webgl 0):
              15 steps of PPO last 27 ms, of SFT ~100, and a stall of the host that short decided a median
  --warmup    untimed steps before timing (default: wasm 10, cpu 2, webgl 5, webgpu 10; Adam creates its slots on
              the first, and the engine compiles its hot code over the first few: on wasm the first trainer's
              steps 1–10 ran 11–16 ms, later ones 8.5–9.5)
  --no-sampling  skip the sampling call (generate() for 64 × 15 tokens per decoder, against its FLOP bound)
  --out       where the JSON goes (default bench-results/bench.json)`;

/** Timed steps when --steps is not given: cpu is ~20× slower than wasm on this model. */
export const DEFAULT_STEPS: Record<BackendName, number> = { wasm: 15, cpu: 3, webgl: 5, webgpu: 15 };

/**
 * Milliseconds of timed steps when --min-ms is not given: the timed steps go on past --steps until this much time has
 * passed (at most MAX_TIMED_STEPS), so that a median spans more than a moment of a shared host. On 2026-12-07 one
 * run's SFT median was 11.8 ms against 6.7 in the runs either side, its 15 steps all inside one ~0.1 s stall.
 */
export const DEFAULT_MIN_MS: Record<BackendName, number> = { wasm: 1500, cpu: 0, webgl: 0, webgpu: 1500 };

/** The most timed steps --min-ms adds up to (PPO's step is ~2 ms on wasm). */
export const MAX_TIMED_STEPS = 2000;

/** Whether to time another step: until `minSteps` are done, then while under `minMs` and MAX_TIMED_STEPS. */
export function timeAnotherStep(done: number, elapsedMs: number, minSteps: number, minMs: number): boolean {
  return done < minSteps || (elapsedMs < minMs && done < MAX_TIMED_STEPS);
}

/** Warm-up steps when --warmup is not given: enough for the engine to compile its hot code, few where steps are slow. */
export const DEFAULT_WARMUP: Record<BackendName, number> = { wasm: 10, cpu: 2, webgl: 5, webgpu: 10 };

export interface BenchOptions {
  backends: BackendName[];
  /** null: every trainer in the registry. */
  trainers: TrainerName[] | null;
  /** null: {@link DEFAULT_STEPS} per backend. */
  steps: number | null;
  /** null: {@link DEFAULT_MIN_MS} per backend. */
  minMs: number | null;
  /** null: {@link DEFAULT_WARMUP} per backend. */
  warmup: number | null;
  /** Whether to time the sampling call (scripts/bench/sampling.ts) on each backend. */
  sampling: boolean;
  out: string;
}

export { UsageError };

function list(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const items = text.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  return [...new Set(items)];
}

export function parseOptions(argv: string[]): BenchOptions | 'help' {
  const { values, positionals } = parseFlags(
    argv,
    {
      backends: { type: 'string' },
      trainers: { type: 'string' },
      steps: { type: 'string' },
      'min-ms': { type: 'string' },
      warmup: { type: 'string' },
      out: { type: 'string' },
      'no-sampling': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    '(npm run bench -- --help)',
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}": every option is a --flag`);
  if (values.help) return 'help';
  const backends = (list(values.backends) ?? ['wasm', 'cpu']).map((b) => {
    const name = parseBackendName(b);
    if (name == null || name === 'auto') throw new UsageError(`unknown backend "${b}" (known: ${BACKEND_ORDER.join(', ')})`);
    return name;
  });
  if (backends.length === 0) throw new UsageError('--backends is empty');
  const trainers =
    list(values.trainers)?.map((t) => {
      const name = trainerNamed(t);
      if (name === null) throw new UsageError(`unknown trainer "${t}" (known: ${TRAINER_NAMES.join(', ')})`);
      return name;
    }) ?? null;
  if (trainers != null && trainers.length === 0) throw new UsageError('--trainers is empty');
  return {
    backends,
    trainers,
    steps: integerFlag('steps', values.steps, 1) ?? null,
    minMs: integerFlag('min-ms', values['min-ms'], 0) ?? null,
    warmup: integerFlag('warmup', values.warmup, 1) ?? null,
    sampling: !values['no-sampling'],
    out: values.out ?? 'bench-results/bench.json',
  };
}
