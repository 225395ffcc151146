/** The `npm run train` command line, run as a user would: JSON lines out, clear errors for bad input. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function train(...args: string[]) {
  const result = spawnSync('npx', ['tsx', 'scripts/train.ts', ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('train CLI', () => {
  it('prints one JSON object per line, with an evaluation before the first step, and saves a loadable checkpoint', () => {
    const save = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'arl-')), 'grpo.arlw');
    const { code, stdout, stderr } = train('grpo', '--backend', 'wasm', '--steps', '2', '--seed', '3', '--set', 'eval_samples=20', '--set', 'eval_steps=2', '--save', save);
    expect(code, stderr).toBe(0);
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((l) => `${l.kind}@${l.step}`)).toEqual(['eval@0', 'train@1', 'train@2', 'eval@2']);
    for (const line of lines.filter((l) => l.kind === 'eval')) {
      expect(line['eval/accuracy']).toBeGreaterThanOrEqual(0);
      expect(line['eval/accuracy']).toBeLessThanOrEqual(1);
    }
    expect(lines[1].tensors).toBe(lines[2].tensors); // flat after the first step
    expect(lines[1]).toHaveProperty('reward');
    expect(fs.statSync(save).size).toBeGreaterThan(1000);
    // Training again from the saved file works.
    const again = train('sft', '--backend', 'wasm', '--steps', '1', '--init', save, '--set', 'eval_steps=0');
    expect(again.code, again.stderr).toBe(0);
  }, 120_000);

  it('runs PPO on its grid world from a fresh actor-critic, with eval/return lines', () => {
    const { code, stdout, stderr } = train('ppo', '--steps', '2', '--set', 'eval_steps=2');
    expect(code, stderr).toBe(0);
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((l) => `${l.kind}@${l.step}`)).toEqual(['eval@0', 'train@1', 'train@2', 'eval@2']);
    expect(lines[0]).toHaveProperty('eval/return');
    expect(lines[1]).toHaveProperty('loss/policy_avg');
  }, 120_000);

  it.each([
    [['ppo2'], /name a trainer/],
    [['grpo', '--preset', 'fast'], /unknown preset "fast" for grpo/],
    [['grpo', '--set', 'beta=lots'], /beta must be a number/],
    [['grpo', '--set', 'loss_type=ppo', '--steps', '1'], /loss_type must be one of grpo \| bnpo \| dr_grpo \| dapo/],
    [['grpo', '--backend', 'webgpu'], /--backend must be cpu or wasm/],
    [['dpo', '--init', 'no/such/file.arlw'], /cannot read no\/such\/file.arlw/],
    [['sft', '--init', 'package.json'], /could not start: .*(magic|not a)/i],
  ])('refuses %j with a clear message', (args, message) => {
    const { code, stderr } = train(...(args as string[]));
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  }, 60_000);
});
