// The chapter 3 widgets' own logic (what they show around lib/dist's numbers), without a browser.
import { describe, expect, it } from 'vitest';
import { bytesText, gb } from '@/app/_components/widgets/dist-format';
import { rowsFor, sci } from '@/app/_components/widgets/dist-demo-rows';
import { advice, choicesFor, report } from '@/app/_components/widgets/memory-options';
import { normalise, settingsProblem } from '@/app/_components/widgets/pipeline-options';
import { DEFAULT_LAYOUT, memoryPerGpu } from '@/lib/dist';

describe('number formats', () => {
  it('prints GB with digits that suit the size, and bytes in the largest unit', () => {
    expect([gb(146.74e9), gb(62.42e9), gb(1.875e9), gb(0.0335e9)]).toEqual(['147', '62.4', '1.88', '0.034']);
    expect([bytesText(4.015e9), bytesText(570_425_344), bytesText(131_072), bytesText(640)]).toEqual(['4.0 GB', '570 MB', '131 kB', '640 B']);
    expect([sci(0), sci(4.47e-8), sci(0.00315)]).toEqual(['0', '4.5e−8', '3.2e−3']);
  });
});

describe('memory calculator', () => {
  it('names the largest part and what shrinks it', () => {
    expect(advice(DEFAULT_LAYOUT, memoryPerGpu(DEFAULT_LAYOUT))).toMatch(/^Activations are the largest part/);
    const plain = { ...DEFAULT_LAYOUT, zero: 0 as const };
    expect(advice(plain, memoryPerGpu(plain))).toMatch(/ZeRO-1 shards it/);
    const small = { ...DEFAULT_LAYOUT, seqLen: 1024, zero: 1 as const, dp: 1 };
    expect(advice(small, memoryPerGpu(small))).toMatch(/Adam state is still the largest part/);
  });

  it('keeps an author’s value that is not among the choices, and reports bad layouts as text', () => {
    expect(choicesFor('dp', 6)).toEqual([1, 2, 4, 6, 8, 16, 32, 64, 128, 256, 512, 1024]);
    expect(choicesFor('tp', 2)).toEqual([1, 2, 4, 8]);
    expect(report({ ...DEFAULT_LAYOUT, tp: 3 })).toMatch(/TP size 3 must divide/);
  });
});

describe('pipeline timeline settings', () => {
  it('rounds m up to a multiple of p for the interleaved schedule, within the slider', () => {
    expect(normalise({ schedule: 'interleaved', stages: 3, microbatches: 8, chunks: 2 }).microbatches).toBe(9);
    expect(normalise({ schedule: 'interleaved', stages: 6, microbatches: 32, chunks: 2 }).microbatches).toBe(30);
    expect(normalise({ schedule: '1f1b', stages: 3, microbatches: 8, chunks: 2 }).microbatches).toBe(8);
    expect(settingsProblem({ schedule: 'interleaved', stages: 4, microbatches: 6, chunks: 2 })).toMatch(/multiple of stages/);
    expect(settingsProblem({ schedule: '1f1b', stages: 5, microbatches: 6, chunks: 2 })).toMatch(/stages must be one of/);
    expect(settingsProblem({ schedule: '1f1b', stages: 4, microbatches: 8, chunks: 2 })).toBeNull();
  });
});

describe('demonstration rows', () => {
  it('gives each result its comparisons and what to expect of them', () => {
    const rows = rowsFor({
      name: 'zero',
      workers: 4,
      steps: 2,
      params: 100,
      shardSize: 25,
      perStep: [0, 0],
      maxAbsDiff: 0,
      maxAbsUpdate: 0.01,
      clipped: { maxGradNorm: 1, perStep: [3e-8, 4e-6] },
    });
    expect(rows.map((r) => [r.key, r.expect, r.values])).toEqual([
      ['zero', 'equal', [0, 0]],
      ['zero-clipped', 'rounding', [3e-8, 4e-6]],
    ]);
    const dp = rowsFor({ name: 'dp', workers: 4, batchSize: 32, tokensPerWorker: [1, 2, 3, 4], params: 10, maxAbsDiff: 1e-8, perShardMeanMaxAbsDiff: 1e-3, maxAbsGradient: 0.5 });
    expect(dp.map((r) => r.expect)).toEqual(['equal', 'different']);
    expect(dp[0].what).toContain('each on 8 of the 32 problems');
  });
});
