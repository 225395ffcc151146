/** The benchmark as markdown tables. */
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

function speedRow(r: TrainerResult): string[] {
  if (r.status !== 'ok' || !r.stepMs || !r.split || !r.tensors) {
    return [r.trainer, r.backend, r.status, '–', '–', '–', '–', '–', '–', '–', '–', '–'];
  }
  const t = r.tensors;
  const tensors = `${t.afterWarmup} → ${t.afterTimed}${t.leakPerRun !== 0 ? ' ⚠' : ''}`;
  return [
    r.trainer,
    r.backend,
    String(r.timedSteps),
    ms(r.stepMs.median),
    rate(r.stepsPerSecond),
    r.unit === 'completion tokens' ? rate(r.unitsPerSecond) : `${rate(r.unitsPerSecond)} ${r.unit ?? ''}/s`,
    // '–' where the trainer has no generation phase (SFT, DPO); PPO's is its rollout.
    r.trainerTiming?.['timing/generation_ms'] !== undefined || r.trainerTiming?.['timing/rollout_ms'] !== undefined ? ms(r.split.generation) : '–',
    ms(r.split.forwardBackward),
    ms(r.split.optimizer),
    ms(r.split.other),
    tensors,
    r.batch ?? '–',
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
        ['trainer', 'starts from', 'model', 'parameters', 'trainable', 'batch per update'],
        models.map((r) => [r.trainer, r.init ?? 'fresh init', r.model!.description, count(r.model!.params), count(r.model!.trainable), r.micro?.shape ?? r.batch ?? '–']),
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
  out.push(`### Speed (median over timed steps: ${steps}; after ${report.options.warmup} warm-up steps)`);
  out.push('');
  out.push(
    table(
      ['trainer', 'backend', 'steps', 'ms/step', 'steps/s', 'tokens/s', 'generation ms', 'fwd+bwd ms', 'optimizer ms', 'other ms', 'tensors (warm-up → end)', 'tokens/step'],
      report.results.map((r) => {
        const row = speedRow(r);
        row[11] = r.unitsPerStep === undefined ? '–' : `${fixed(r.unitsPerStep, 0)}${r.unit && r.unit !== 'completion tokens' ? ` ${r.unit}` : ''}`;
        return row;
      }),
    ),
  );
  out.push('');
  out.push(
    'tokens/s: completion tokens per step (SFT: Σ mask; GRPO: generated tokens; DPO: chosen + rejected) over the median step time. ' +
      'generation: GRPO’s own `timing/generation_ms` (PPO: `timing/rollout_ms`). fwd+bwd and optimizer: a separate micro-benchmark per trainer and backend that ' +
      'rebuilds one update of the trainer’s shape and times `tf.variableGrads` apart from `clipByGlobalNorm` + `applyGradients` ' +
      '(× updates per step). other: the rest of the median step (batching, rewards, metric read-back), a difference of medians that ' +
      'can dip below zero.',
  );
  out.push('');

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
