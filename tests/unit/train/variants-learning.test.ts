/**
 * Chapter 8's comparison table: GRPO, Dr. GRPO, DAPO and GSPO from the shipped SFT checkpoint, 60 steps, seed 0,
 * wasm, each as `npm run train -- grpo --preset <name> --backend wasm` runs it. The printed figures must be these.
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '@/lib/tf/backend';
import type { LogLine } from '@/lib/train/run';
import { runClaims } from '../../../scripts/claims/run';

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});

const VARIANTS = ['grpo_paper', 'dr_grpo', 'dapo', 'gspo'] as const;

describe('chapter 8: the variant comparison', () => {
  it('prints exactly these runs’ figures', async () => {
    const histories: Record<string, LogLine[]> = {};
    await runClaims([
      {
        id: 'variants',
        text: 'chapter 8 table',
        where: 'chapter 8',
        runs: Object.fromEntries(VARIANTS.map((p) => [p, { trainer: 'grpo' as const, preset: p, steps: 60, evalEvery: 60 }])),
        check: (h) => (Object.assign(histories, h), { holds: true, figure: '' }),
      },
    ]);
    const chapter = fs.readFileSync('content/chapters/08-research-2025.mdx', 'utf8');
    for (const preset of VARIANTS) {
      const h = histories[preset];
      const recent = (metric: string) => {
        const xs = h.filter((l) => l.kind === 'train' && metric in l.metrics).slice(-10).map((l) => l.metrics[metric]);
        return xs.reduce((a, b) => a + b, 0) / xs.length;
      };
      const accuracy = h.filter((l) => l.kind === 'eval').at(-1)!.metrics['eval/accuracy'];
      const row = `| \`${preset}\` | ${(100 * accuracy).toFixed(1)}% | ${recent('completions/mean_length_correct').toFixed(2)} | ${recent('completions/mean_length_incorrect').toFixed(2)} | ${recent('entropy').toFixed(3)} | ${(100 * recent('clip_ratio/region_mean')).toFixed(2)}% |`;
      expect(chapter, preset).toContain(row);
    }
  }, 600_000);
});
