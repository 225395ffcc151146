/**
 * Sweeps (lib/train/sweep.ts): axes parsed and checked against a trainer's schema, the plan crossing them with seeds,
 * final metrics read as the CLI logs them, the CSV and the per-combination summary. Then `npm run sweep` as a user
 * runs it: a table, DIR/sweep.csv, and one-line refusals.
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { grpoSchema } from '@/lib/train/grpo-config';
import { checkPlan, finalMetrics, parseAxis, parseSeeds, planSweep, summarize, sweepCsv, SweepError, type SweepResult } from '@/lib/train/sweep';

const sweepError = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(SweepError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('planning a sweep', () => {
  it('parses an axis against the schema and refuses what no run could use', () => {
    expect(parseAxis(grpoSchema, 'learning_rate=1e-4, 3e-4,0.001')).toEqual({ field: 'learning_rate', values: [1e-4, 3e-4, 0.001] });
    expect(parseAxis(grpoSchema, 'loss_type=dapo,grpo')).toEqual({ field: 'loss_type', values: ['dapo', 'grpo'] });
    expect(parseAxis(grpoSchema, 'mask_truncated_completions=true,false').values).toEqual([true, false]);
    expect(sweepError(() => parseAxis(grpoSchema, 'learning_rate'))).toBe('a sweep axis is key=v1,v2,…, got "learning_rate"');
    expect(sweepError(() => parseAxis(grpoSchema, 'lr=1,2'))).toMatch(/^unknown field "lr"/);
    expect(sweepError(() => parseAxis(grpoSchema, 'beta=0,lots'))).toMatch(/^beta must be a decimal number/);
    expect(sweepError(() => parseAxis(grpoSchema, 'beta=0,,1'))).toBe('beta: an empty value in "0,,1"');
    expect(sweepError(() => parseAxis(grpoSchema, 'beta=0.1,1e-1'))).toBe('beta: the value 0.1 is listed twice');
    expect(sweepError(() => parseAxis(grpoSchema, 'seed=1,2'))).toBe('seed is not swept as a field: list the seeds with --seeds');
  });

  it('parses seeds', () => {
    expect(parseSeeds('1, 2,3')).toEqual([1, 2, 3]);
    expect(sweepError(() => parseSeeds('1,-2'))).toMatch(/got "-2"/);
    expect(sweepError(() => parseSeeds('1,1'))).toBe('a seed is listed twice');
  });

  it('crosses the axes (the first slowest) with the seeds (fastest), over the base settings', () => {
    const runs = planSweep({ max_steps: 5, beta: 0.04 }, [parseAxis(grpoSchema, 'learning_rate=1e-4,3e-4'), parseAxis(grpoSchema, 'loss_type=dapo,grpo')], [7, 8]);
    expect(runs).toHaveLength(8);
    expect(runs.map((r) => `${r.values.join('/')}#${r.seed}`)).toEqual(['0.0001/dapo#7', '0.0001/dapo#8', '0.0001/grpo#7', '0.0001/grpo#8', '0.0003/dapo#7', '0.0003/dapo#8', '0.0003/grpo#7', '0.0003/grpo#8']);
    expect(runs[5].overrides).toEqual({ max_steps: 5, beta: 0.04, learning_rate: 3e-4, loss_type: 'dapo', seed: 8 });
    expect(sweepError(() => planSweep({}, [], [1]))).toBe('a sweep varies one or two fields, got 0');
    const axis = parseAxis(grpoSchema, 'beta=0,1');
    expect(sweepError(() => planSweep({}, [axis, axis], [1]))).toBe('beta is swept twice');
    expect(sweepError(() => planSweep({}, [parseAxis(grpoSchema, 'beta=0,1,2,3,4,5,6,7,8,9'), parseAxis(grpoSchema, 'epsilon=0.1,0.2')], parseSeeds('1,2,3,4,5,6,7')))).toMatch(/^140 runs \(20 combinations × 7 seeds\); a sweep runs at most 120/);
  });

  it('checks every run’s settings before any runs, naming the run', () => {
    const axes = [parseAxis(grpoSchema, 'beta=0.1,99')];
    expect(sweepError(() => checkPlan(grpoSchema, axes, planSweep({}, axes, [1])))).toBe('beta=99 seed=1: beta must be in [0, 10], got 99');
    const choice = [parseAxis(grpoSchema, 'loss_type=dapo,ppo')];
    expect(sweepError(() => checkPlan(grpoSchema, choice, planSweep({}, choice, [1])))).toMatch(/^loss_type=ppo seed=1: loss_type must be one of/);
  });
});

describe('reading a sweep', () => {
  const axes = [parseAxis(grpoSchema, 'learning_rate=1e-4,3e-4')];
  const runs = planSweep({}, axes, [1, 2]);
  const results: SweepResult[] = runs.map((run, i) => ({ run, state: 'done', metrics: { 'eval/accuracy': [0.3, 0.5, 0.4, 0.6][i], reward: i, 'a,b': 1 } }));

  it('takes the final metrics as the CLI logged them: the last train line, the last eval line on top', () => {
    expect(
      finalMetrics([
        { step: 0, kind: 'eval', metrics: { 'eval/accuracy': 0.1 } },
        { step: 1, kind: 'train', metrics: { loss: 2, reward: 0.1 } },
        { step: 2, kind: 'train', metrics: { loss: 1, reward: 0.2 } },
        { step: 2, kind: 'eval', metrics: { 'eval/accuracy': 0.3 } },
      ]),
    ).toEqual({ loss: 1, reward: 0.2, 'eval/accuracy': 0.3 });
  });

  it('writes one CSV row per run: the swept fields, seed, then every metric (evaluation first), quoted when needed', () => {
    const csv = sweepCsv(axes, [...results, { run: runs[0], state: 'failed', error: 'x', metrics: { loss: NaN } }]);
    expect(csv.split('\n')).toEqual(['learning_rate,seed,eval/accuracy,"a,b",loss,reward', '0.0001,1,0.3,1,,0', '0.0001,2,0.5,1,,1', '0.0003,1,0.4,1,,2', '0.0003,2,0.6,1,,3', '0.0001,1,,,NaN,', '']);
  });

  it('summarises each combination over seeds: points, mean and sample standard deviation', () => {
    const [low, high] = summarize(results, 'eval/accuracy');
    expect(low.values).toEqual([1e-4]);
    expect(low.points).toEqual([
      { seed: 1, value: 0.3 },
      { seed: 2, value: 0.5 },
    ]);
    expect(low.mean).toBeCloseTo(0.4, 12);
    expect(low.std).toBeCloseTo(Math.SQRT2 * 0.1, 12);
    expect(high.mean).toBeCloseTo(0.5, 12);
  });
});

function sweepAsync(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/sweep.ts', ...args], { encoding: 'utf8', timeout: 240_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

describe('npm run sweep', () => {
  it('runs every combination and seed, prints a table and writes DIR/sweep.csv', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-sweep-'));
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/sweep.ts', 'grpo', '--grid', 'learning_rate=1e-4,1e-3', '--seeds', '1,2', '--steps', '2', '--set', 'eval_samples=20', '--out', out], { encoding: 'utf8', timeout: 240_000 });
    expect(result.status, result.stderr).toBe(0);
    const csv = fs.readFileSync(path.join(out, 'sweep.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(5);
    const header = csv[0].split(',');
    expect(header.slice(0, 3)).toEqual(['learning_rate', 'seed', 'eval/accuracy']);
    for (const name of ['reward', 'loss', 'rewards/correctness/mean', 'num_tokens']) expect(header).toContain(name);
    expect(csv.slice(1).map((row) => row.split(',').slice(0, 2).join(','))).toEqual(['0.0001,1', '0.0001,2', '0.001,1', '0.001,2']);
    for (const row of csv.slice(1)) {
      const accuracy = Number(row.split(',')[2]);
      expect(accuracy).toBeGreaterThanOrEqual(0);
      expect(accuracy).toBeLessThanOrEqual(1);
    }
    expect(result.stdout).toMatch(/^learning_rate +seed +eval\/accuracy +reward +status/);
    expect(result.stdout).toContain('mean ± std of eval/accuracy over seeds:');
    expect(result.stderr.trim().split('\n')).toHaveLength(4); // one progress line per run
    // The same folder again is refused unless --force.
    const again = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/sweep.ts', 'grpo', '--grid', 'beta=0,0.1', '--seeds', '1', '--out', out], { encoding: 'utf8', timeout: 60_000 });
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/sweep\.csv exists: give another --out, or --force/);
  }, 240_000);

  it('refuses every mistake with one line and exit 2, before any run', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-sweep-'));
    const cases: [string[], RegExp][] = [
      [['grpo', '--seeds', '1', '--out', out], /give at least one --grid/],
      [['grpo', '--grid', 'beta=0,1', '--out', out], /give --seeds/],
      [['grpo', '--grid', 'beta=0,1', '--seeds', '1'], /give --out DIR/],
      [['grpo', '--grid', 'beta=0,99', '--seeds', '1', '--out', out], /beta=99 seed=1: beta must be in \[0, 10\]/],
      [['grpo', '--grid', 'beta=0,1', '--grid', 'epsilon=0.1,0.2', '--grid', 'temperature=1,2', '--seeds', '1', '--out', out], /a sweep varies one or two fields, got 3/],
      [['grpo', '--grid', 'beta=0,1', '--set', 'beta=0.5', '--seeds', '1', '--out', out], /beta is both swept \(--grid\) and set \(--set\)/],
      [['grpo', '--grid', 'beta=0,1', '--seeds', 'a', '--out', out], /seeds are integers/],
      [['grpo', '--grid', 'beta=0,1', '--seeds', '1', '--preset', 'nope', '--out', out], /unknown preset "nope" for grpo/],
      [['ppo', '--grid', 'beta=0,1', '--seeds', '1', '--out', out], /unknown field "beta"/],
      [['nope', '--grid', 'beta=0,1', '--seeds', '1', '--out', out], /unknown trainer "nope"/],
      [['grpo', '--grid', 'beta=0,1', '--seeds', '1', '--out', path.join(out, 'f'), '--backend', 'webgl'], /--backend must be cpu or wasm/],
    ];
    const results = await Promise.all(cases.map(([args]) => sweepAsync(...args)));
    results.forEach(({ code, stdout, stderr }, i) => {
      const label = cases[i][0].join(' ');
      expect(code, label).toBe(2);
      expect(stdout, label).toBe('');
      expect(stderr.trim().split('\n'), label).toHaveLength(1);
      expect(stderr, label).toMatch(cases[i][1]);
    });
  }, 240_000);
});
