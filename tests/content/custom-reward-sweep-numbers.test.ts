/**
 * Chapter 6's "Writing your own reward" and chapter 7's "Sweeps and seed variance" state facts of the code: the time
 * limit, and a sweep command whose plan is the one the seeded claim runs (scripts/claims/catalog.ts checks the
 * chapters' figures against that run).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REWARD_TIME_LIMIT_MS } from '@/lib/tasks/custom-reward';
import { grpoSchema } from '@/lib/train/grpo-config';
import { parseAxis, parseSeeds } from '@/lib/train/sweep';
import { CLAIMS } from '../../scripts/claims/catalog';

const chapter = (file: string) => fs.readFileSync(`content/chapters/${file}`, 'utf8');

describe('chapter 6: writing your own reward', () => {
  it('states the sandbox’s time limit per call', () => {
    expect(chapter('06-grpo.mdx')).toContain(`with a time limit of ${REWARD_TIME_LIMIT_MS / 1000} seconds per call`);
  });
});

describe('chapter 7: sweeps and seed variance', () => {
  it('prints the sweep command whose runs the claim makes', () => {
    const command = /npm run sweep -- grpo --grid (\S+) --seeds (\S+) --steps (\d+) --set eval_steps=(\d+) --out \S+/.exec(chapter('07-pipeline.mdx'));
    expect(command).not.toBeNull();
    const [, grid, seeds, steps, evalSteps] = command!;
    const axis = parseAxis(grpoSchema, grid);
    const runs = Object.values(CLAIMS.find((c) => c.id === 'grpo-lr-sweep-seed-variance')!.runs);
    const planned = axis.values.flatMap((lr) => parseSeeds(seeds).map((seed) => ({ lr, seed })));
    expect(runs.map((r) => ({ lr: r.overrides?.learning_rate, seed: r.overrides?.seed }))).toEqual(planned);
    for (const run of runs) expect([run.steps, run.evalEvery]).toEqual([Number(steps), Number(evalSteps)]);
  });
});
