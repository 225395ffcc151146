import { describe, expect, it } from 'vitest';
import { pipelineBubble, simulatePipeline, stageOrder } from '@/lib/dist';

describe('pipelineBubble: idle fraction of total pipeline time', () => {
  it('is (p − 1)/(m + p − 1) for GPipe and 1F1B', () => {
    expect(pipelineBubble({ stages: 4, microbatches: 8, schedule: 'gpipe' })).toBeCloseTo(3 / 11, 12);
    expect(pipelineBubble({ stages: 4, microbatches: 8, schedule: '1f1b' })).toBeCloseTo(3 / 11, 12);
    expect(pipelineBubble({ stages: 1, microbatches: 8, schedule: '1f1b' })).toBe(0);
    expect(pipelineBubble({ stages: 8, microbatches: 1, schedule: 'gpipe' })).toBeCloseTo(7 / 8, 12);
  });

  it('is (p − 1)/(v·m + p − 1) for the interleaved schedule', () => {
    expect(pipelineBubble({ stages: 4, microbatches: 8, schedule: 'interleaved', chunks: 2 })).toBeCloseTo(3 / 19, 12);
    expect(pipelineBubble({ stages: 4, microbatches: 8, schedule: 'interleaved', chunks: 4 })).toBeCloseTo(3 / 35, 12);
    // Megatron-LM reports the ratio r = bubble time / ideal time = (p − 1)/(v·m); f = r/(1 + r).
    const r = 3 / (2 * 8);
    expect(pipelineBubble({ stages: 4, microbatches: 8, schedule: 'interleaved', chunks: 2 })).toBeCloseTo(r / (1 + r), 12);
  });

  it('shrinks as micro-batches grow', () => {
    const fs = [4, 8, 16, 32].map((m) => pipelineBubble({ stages: 4, microbatches: m, schedule: '1f1b' }));
    for (let i = 1; i < fs.length; i++) expect(fs[i]).toBeLessThan(fs[i - 1]);
  });

  it('refuses bad input', () => {
    expect(() => pipelineBubble({ stages: 0, microbatches: 4, schedule: 'gpipe' })).toThrow(/stages must be an integer ≥ 1/);
    expect(() => pipelineBubble({ stages: 2, microbatches: 1.5, schedule: 'gpipe' })).toThrow(/microbatches must be an integer/);
    expect(() => pipelineBubble({ stages: 2, microbatches: 4, schedule: 'zigzag' as 'gpipe' })).toThrow(/schedule must be one of/);
    expect(() => pipelineBubble({ stages: 2, microbatches: 4, schedule: 'interleaved', chunks: 1 })).toThrow(/chunks must be an integer ≥ 2/);
  });
});

describe('simulatePipeline: the schedules laid out in time', () => {
  const cases: [number, number, number][] = [
    [2, 4, 2],
    [3, 6, 2],
    [4, 4, 2],
    [4, 8, 2],
    [4, 8, 3],
    [8, 16, 4],
  ];
  for (const schedule of ['gpipe', '1f1b', 'interleaved'] as const) {
    for (const [p, m, v] of cases) {
      it(`${schedule}, p = ${p}, m = ${m}${schedule === 'interleaved' ? `, v = ${v}` : ''}: the simulated idle fraction equals the formula`, () => {
        for (const [forwardTime, backwardTime] of [
          [1, 2],
          [1, 1],
        ]) {
          const sim = simulatePipeline({ stages: p, microbatches: m, schedule, chunks: v, forwardTime, backwardTime });
          expect(sim.idleFraction).toBeCloseTo(pipelineBubble({ stages: p, microbatches: m, schedule, chunks: v }), 10);
          const vv = schedule === 'interleaved' ? v : 1;
          expect(sim.ops).toHaveLength(2 * p * m * vv); // every micro-batch forward and backward on every chunk
          // Total time: m (forward + backward) of work plus (p − 1)/v block-times of fill and drain.
          expect(sim.makespan).toBeCloseTo((m + (p - 1) / vv) * (forwardTime + backwardTime), 10);
        }
      });
    }
  }

  it('never overlaps two blocks on one stage and respects the data dependencies', () => {
    const sim = simulatePipeline({ stages: 4, microbatches: 8, schedule: 'interleaved', chunks: 2 });
    for (let s = 0; s < 4; s++) {
      const mine = sim.ops.filter((o) => o.stage === s).sort((a, b) => a.start - b.start);
      for (let i = 1; i < mine.length; i++) expect(mine[i].start).toBeGreaterThanOrEqual(mine[i - 1].end - 1e-12);
    }
    const end = (kind: 'F' | 'B', mb: number, vs: number) => sim.ops.find((o) => o.kind === kind && o.microbatch === mb && o.chunk * 4 + o.stage === vs)!.end;
    for (const o of sim.ops) {
      const vs = o.chunk * 4 + o.stage;
      if (o.kind === 'F' && vs > 0) expect(o.start).toBeGreaterThanOrEqual(end('F', o.microbatch, vs - 1));
      if (o.kind === 'B' && vs < 7) expect(o.start).toBeGreaterThanOrEqual(end('B', o.microbatch, vs + 1));
    }
  });

  it('holds m micro-batches of activations with GPipe, p − s with 1F1B and p + (p − 1)/v with interleaving', () => {
    expect(simulatePipeline({ stages: 4, microbatches: 8, schedule: 'gpipe' }).peakInFlight).toEqual([8, 8, 8, 8]);
    expect(simulatePipeline({ stages: 4, microbatches: 8, schedule: '1f1b' }).peakInFlight).toEqual([4, 3, 2, 1]);
    // Korthikanti et al. 2022: the interleaved first stage holds (1 + (p − 1)/(p·v)) × p micro-batches.
    expect(simulatePipeline({ stages: 4, microbatches: 8, schedule: 'interleaved', chunks: 2 }).peakInFlight[0]).toBe(4 + 3 / 2);
  });

  it('orders 1F1B as warm-up forwards, then one forward one backward, then the remaining backwards', () => {
    const names = stageOrder(1, { stages: 4, microbatches: 5, schedule: '1f1b' }).map((s) => `${s.kind}${s.microbatch}`);
    expect(names).toEqual(['F0', 'F1', 'F2', 'B0', 'F3', 'B1', 'F4', 'B2', 'B3', 'B4']);
  });

  it('needs m to be a multiple of p for the interleaved schedule, as Megatron-LM does', () => {
    expect(() => simulatePipeline({ stages: 4, microbatches: 6, schedule: 'interleaved', chunks: 2 })).toThrow(/multiple of stages/);
  });
});
