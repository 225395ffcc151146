/** The benchmark as markdown tables. */
import { SAMPLING_ROWS, SAMPLING_TOKENS } from './sampling';
import type { BenchReport, TrainerResult } from './types';

const fixed = (x: number | undefined, digits: number) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));
/** Milliseconds with sensible precision: 0.42, 12.3, 1234. */
const ms = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
const rate = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const count = (n: number) => n.toLocaleString('en-US');
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

/** The phases trainers time, in the order a step runs them (lib/train/optim.ts StepTimer). */
const PHASES = ['generation', 'rollout', 'reference', 'forward_backward', 'optimizer'];

function speedRow(r: TrainerResult): string[] {
  if (r.status !== 'ok' || !r.stepMs || !r.tensors) return [r.trainer, r.backend, r.status, ...PHASES.map(() => '–'), '–', '–', '–', '–', '–'];
  const t = r.tensors;
  return [
    r.trainer,
    r.backend,
    String(r.timedSteps),
    ms(r.stepMs.median),
    rate(r.stepsPerSecond),
    `${rate(r.unitsPerSecond)} ${r.unit ?? ''}/s`,
    ...PHASES.map((p) => (r.phases?.[p] === undefined ? '–' : ms(r.phases[p]))),
    ms(r.other),
    `${t.afterWarmup} → ${t.afterTimed}${t.leakPerRun !== 0 ? ' ⚠' : ''}`,
  ];
}

export function markdown(report: BenchReport): string {
  const m = report.machine;
  const out: string[] = [];
  out.push(`## Trainer benchmark`);
  out.push('');
  out.push(`${m.date} · ${m.cpu} × ${m.cores} cores · ${m.platform}/${m.arch} · Node ${m.node} · tfjs ${m.tfjs} · load ${fixed(m.loadavgStart, 2)} → ${fixed(m.loadavgEnd, 2)} (1-min avg) · ${fixed(report.wallSeconds, 0)} s`);
  out.push('');
  out.push('### Backends');
  out.push('');
  out.push(
    table(
      ['backend', 'available', 'benchmarked', 'note'],
      report.backends.map((b) => [
        b.backend,
        b.available ? 'yes' : 'no',
        b.benchmarked ? 'yes' : 'no',
        b.reason ?? (b.details ? Object.entries(b.details).map(([k, v]) => `${k}: ${String(v)}`).join(', ') : ''),
      ]),
    ),
  );
  out.push('');

  const seen = new Set<string>();
  const models = report.results.filter((r) => r.model && !seen.has(r.trainer) && seen.add(r.trainer));
  if (models.length > 0) {
    out.push('### Models');
    out.push('');
    out.push(
      table(
        ['trainer', 'starts from', 'model', 'parameters', 'trainable', 'per step'],
        models.map((r) => [r.trainer, r.init ?? 'fresh init', r.model!.description, count(r.model!.params), count(r.model!.trainable), r.unitsPerStep === undefined ? '–' : `${fixed(r.unitsPerStep, 0)} ${r.unit}`]),
      ),
    );
    out.push('');
  }

  if (report.results.length === 0) {
    out.push('### Speed');
    out.push('');
    out.push(`Nothing was benchmarked: none of the requested backends (${report.options.backends.join(', ')}) is available here.`);
    out.push('');
    return out.join('\n');
  }
  const steps = Object.entries(report.options.steps).map(([b, n]) => `${b} ${n}`).join(', ');
  const minMs = Object.entries(report.options.minMs).map(([b, ms]) => `${b} ${ms} ms`).join(', ');
  const warmup = Object.entries(report.options.warmup).map(([b, n]) => `${b} ${n}`).join(', ');
  out.push(`### Speed (median over the timed steps: at least ${steps}, and at least ${minMs} of them; after warm-up steps: ${warmup})`);
  out.push('');
  out.push(
    table(
      ['trainer', 'backend', 'steps', 'ms/step', 'steps/s', 'throughput', ...PHASES.map((p) => `${p.replace('_', '+')} ms`), 'other ms', 'tensors (warm-up → end)'],
      report.results.map(speedRow),
    ),
  );
  out.push('');
  out.push(
    'Every number comes from the trainers’ own steps (lib/spec/start.ts, as the CLI and the labs start them). Phases are the ' +
      'medians of each trainer’s `timing/<phase>_ms` metrics: generation (sampling completions), rollout (PPO’s environment ' +
      'steps), reference (no-gradient log-probs of the old or reference policy), forward+backward (`tf.variableGrads`), ' +
      'optimizer (gradient clipping and Adam). other: the median step minus those (batching, rewards, metric read-back); ' +
      'a difference of medians, so it can dip below zero. Throughput: the change per step of the trainer’s cumulative ' +
      '`num_tokens` (prompt and completion tokens, as TRL logs it) or `global_step` (environment steps), per second.',
  );
  out.push('');

  const bounded = report.results.filter((r) => r.status === 'ok' && r.flops);
  if (bounded.length > 0) {
    const rates = Object.entries(report.matmul).map(([b, r]) => `${b} ${fixed(r!.gflops, 1)} GFLOP/s (median ${fixed(r!.medianGflops, 1)}, ${r!.n}³ × ${r!.repeats})`).join('; ');
    const calls = Object.entries(report.kernelCall ?? {}).map(([b, c]) => `${b} ${fixed(c!.usPerKernel, 1)} µs`).join('; ');
    out.push(`### Against the FLOP bound (matmul rate at the start of this run: ${rates}; one kernel call: ${calls || 'not measured'})`);
    out.push('');
    out.push(
      table(
        ['trainer', 'backend', 'weights/token', 'tokens/step', 'MFLOP/step', 'generation MFLOP (cached → re-run)', 'GFLOP/s', 'bound ms', 'ms/step', '× bound', 'kernels/step', 'dispatch floor ms'],
        bounded.map((r) => {
          const f = r.flops!;
          const generation = f.byPhase.generation === undefined ? '–' : `${fixed(f.byPhase.generation / 1e6, 1)} → ${f.generationRerun === null ? '–' : fixed(f.generationRerun / 1e6, 1)}`;
          const dispatch = r.dispatch ? [count(r.dispatch.kernelsPerStep), ms(r.dispatch.floorMs)] : ['–', '–'];
          return [r.trainer, r.backend, count(f.paramsPerToken), count(Math.round(f.tokensPerStep)), fixed(f.total / 1e6, 1), generation, fixed(f.gflops, 1), ms(f.boundMs), ms(r.stepMs!.median), fixed(f.timesBound, 2), ...dispatch];
        }),
      ),
    );
    out.push('');
    out.push(
      'FLOPs (scripts/bench/flops.ts): 2·N·T per forward pass, N the weights a token is multiplied by, T the step’s tokens ' +
        '(`num_tokens`, or PPO’s environment steps): generation (with its cache) and reference 1 pass, rollout 1, ' +
        'forward+backward 3 (× num_ppo_epochs); attention’s own products left out (under 10% here). Re-run: generation ' +
        'if the forward were re-run over the whole prefix for each token. Bound: the step’s FLOPs at the matmul rate (GFLOP/s: ' +
        'the faster of the rate at the start and the rate measured again just before each trainer’s timed steps). ' +
        'Dispatch floor: the kernels one step runs (counted under tf.profile) times the cost of a near-empty kernel call; ' +
        'where it is above the FLOP bound, the step is bound by how many kernels it calls, not by its arithmetic.',
    );
    out.push('');
  }

  const { bound, results: sampling } = report.sampling;
  if (sampling.length > 0) {
    out.push(`### The sampling call (generate(): ${SAMPLING_ROWS} prompts × ${SAMPLING_TOKENS} tokens, the lab's SFT checkpoint)`);
    out.push('');
    out.push(
      table(
        ['backend', 'decoder', 'median ms', 'min ms', '× bound', 'tfjs kernels per token step'],
        sampling.map((s) => [
          s.backend,
          s.decoder === 'auto' ? (s.fused ? 'fused kernel' : 'auto (tfjs: the kernel stood aside)') : 'tfjs kernels',
          ms(s.medianMs),
          ms(s.minMs),
          bound ? fixed(s.medianMs / bound.boundMs, 2) : '–',
          fixed(s.kernelsPerStep, 0),
        ]),
      ),
    );
    out.push('');
    if (bound) {
      out.push(
        `Bound: ${fixed(bound.flops / 1e6, 1)} MFLOP of cached decoding at ${fixed(bound.peakGflops, 1)} GFLOP/s (tfjs-wasm's matmul ` +
          `peak here, 512³) = ${ms(bound.flops / (bound.peakGflops * 1e6))} ms, plus ${ms(bound.readBackMs)} ms to read the weights back ` +
          `once: ${ms(bound.boundMs)} ms. Target: the median within 2× of it.`,
      );
      out.push('');
    }
  }

  const problems = [
    ...report.warnings.map((w) => `⚠ ${w}`),
    ...report.results.filter((r) => r.status !== 'ok').map((r) => `${r.trainer} on ${r.backend}: ${r.status}${r.error ? ` (${r.error})` : ''}${r.notes.length ? ` — ${r.notes.join('; ')}` : ''}`),
    ...report.results.filter((r) => r.status === 'ok' && r.notes.length > 0).map((r) => `${r.trainer} on ${r.backend}: ${r.notes.join('; ')}`),
    ...report.notes,
  ];
  if (problems.length > 0) {
    out.push('### Notes');
    out.push('');
    for (const p of problems) out.push(`- ${p}`);
    out.push('');
  }
  return out.join('\n');
}
