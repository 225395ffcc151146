/** The `npm run train` command line, run as a user would: JSON lines out, clear errors for bad input. */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function train(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/train.ts', ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same, without blocking: many refusals run side by side. */
function trainAsync(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/train.ts', ...args], { encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
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

  it('runs the agent from its tool-use checkpoint, with the tool metrics on every line', () => {
    const { code, stdout, stderr } = train('agent', '--backend', 'wasm', '--steps', '1', '--set', 'eval_steps=1', '--set', 'eval_samples=20');
    expect(code, stderr).toBe(0);
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((l) => `${l.kind}@${l.step}`)).toEqual(['eval@0', 'train@1', 'eval@1']);
    for (const name of ['eval/accuracy', 'eval/tool_call_rate', 'eval/mean_turns']) expect(lines[0]).toHaveProperty([name]);
    for (const name of ['tools/call_frequency', 'tools/failure_frequency', 'observations/mean_logprob', 'reward']) expect(lines[1]).toHaveProperty([name]);
  }, 120_000);

  it('runs PPO on its grid world from a fresh actor-critic, with eval/return lines', () => {
    const { code, stdout, stderr } = train('ppo', '--steps', '2', '--set', 'eval_steps=2');
    expect(code, stderr).toBe(0);
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((l) => `${l.kind}@${l.step}`)).toEqual(['eval@0', 'train@1', 'train@2', 'eval@2']);
    expect(lines[0]).toHaveProperty('eval/return');
    expect(lines[1]).toHaveProperty('loss/policy_avg');
  }, 120_000);

  it('refuses every bad flag, name, value or path with one line on stderr, exit code 2, and no training', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-'));
    fs.writeFileSync(path.join(tmp, 'a-file'), 'x');
    const cases: [string[], RegExp][] = [
      [[], /name a trainer/],
      [['ppo2'], /unknown trainer "ppo2"/],
      [['__proto__'], /unknown trainer "__proto__"/],
      [['constructor'], /unknown trainer "constructor"/],
      [['toString'], /unknown trainer "toString"/],
      [['grpo', 'sft'], /one trainer at a time/],
      [['--bogus', '1'], /Unknown option '--bogus'/],
      [['grpo', '-x'], /Unknown option '-x'/],
      [['grpo', '--steps'], /argument missing/],
      [['grpo', '--steps', '-1'], /ambiguous/],
      [['grpo', '--steps=-1'], /--steps must be an integer ≥ 1, got "-1"/],
      [['grpo', '--steps=0'], /--steps must be an integer ≥ 1/],
      [['grpo', '--seed=-5'], /--seed must be an integer ≥ 0, got "-5"/],
      [['grpo', '--seed', '1.5'], /--seed must be an integer/],
      [['grpo', '--preset', 'fast'], /unknown preset "fast" for grpo/],
      [['grpo', '--preset', 'constructor'], /unknown preset "constructor"/],
      [['grpo', '--preset', '__proto__'], /unknown preset "__proto__"/],
      [['grpo', '--set', '__proto__=1'], /unknown field "__proto__"/],
      [['grpo', '--set', 'toString=1'], /unknown field "toString"/],
      [['grpo', '--set', 'beta=lots'], /beta must be a decimal number/],
      [['grpo', '--set', 'beta=0x10'], /beta must be a decimal number/],
      [['grpo', '--set', 'beta=99'], /beta must be in \[0, 10\], got 99/],
      [['grpo', '--set', 'loss_type=ppo'], /loss_type must be one of grpo \| bnpo \| dr_grpo \| dapo/],
      [['grpo', '--set', 'nonsense'], /expected key=value/],
      [['grpo', '--backend', 'webgpu'], /--backend must be cpu or wasm/],
      [['dpo', '--init', 'no/such/file.arlw'], /cannot read no\/such\/file.arlw: ENOENT/],
      [['grpo', '--save', tmp], /is a directory/],
      [['grpo', '--save', path.join(tmp, 'a-file', 'x.arlw')], /cannot write there/],
    ];
    const results = await Promise.all(cases.map(async ([args]) => trainAsync(...args)));
    results.forEach(({ code, stdout, stderr }, i) => {
      const [args, message] = cases[i];
      const label = args.join(' ') || '(no arguments)';
      expect(code, label).toBe(2);
      expect(stdout, `${label}: no training output`).toBe('');
      expect(stderr.trim().split('\n'), `${label}: one line`).toHaveLength(1);
      expect(stderr, label).toMatch(/^train: /);
      expect(stderr, label).toMatch(message);
      expect(stderr, `${label}: no stack trace`).not.toMatch(/\n\s+at |Error:/);
    });
  }, 120_000);

  it('refuses a bad reward file, reward weight or dataset with one line and exit 2, before training', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-'));
    const file = (name: string, text: string) => (fs.writeFileSync(path.join(tmp, name), text), path.join(tmp, name));
    const ok = file('ok.js', 'export default (c) => c.map(() => 0);');
    const data = file('ok.jsonl', '{"prompt": "07+45=", "answer": "52"}\n{"prompt": "10+10=", "answer": "20", "split": "test"}\n');
    const cases: [string[], RegExp][] = [
      [['grpo', '--reward', file('imports.js', "import fs from 'node:fs';\nexport default () => [];")], /imports are not allowed here \("node:fs"\)/],
      [['grpo', '--reward', file('syntax.js', 'export default (c) => {\n  return c.map(x =>\n}')], /--reward .*syntax\.js: line 3: SyntaxError/],
      [['grpo', '--reward', file('none.js', 'export const reward = () => [];')], /must "export default" a function/],
      [['grpo', '--reward', file('top-loop.js', 'while (true) {}\nexport default () => [];')], /stopped after 2000 ms/],
      [['grpo', '--reward', path.join(tmp, 'missing.js')], /cannot read .*missing\.js: ENOENT/],
      [['grpo', '--reward', ok, '--reward-weight', 'heavy'], /--reward-weight must be a number from 0 to 10, got "heavy"/],
      [['grpo', '--reward', ok, '--reward-weight', '11'], /--reward-weight must be a number from 0 to 10/],
      [['grpo', '--reward-weight', '2'], /--reward-weight needs --reward/],
      [['sft', '--reward', ok], /sft takes no reward function \(grpo and agent do\)/],
      [['ppo', '--dataset', data], /ppo trains on its own task and takes no dataset file/],
      [['grpo', '--dataset', file('bad.jsonl', '{"prompt": "1+1=", "answer": "2"}\n{"prompt": "1+2=", "answr": "3"}\n')], /--dataset .*bad\.jsonl: line 2: unknown field "answr"/],
      [['grpo', '--dataset', file('words.jsonl', '{"prompt": "one plus one", "answer": "2"}\n')], /line 1: "prompt" has the character "o"/],
      [['grpo', '--dataset', file('long.jsonl', '{"prompt": "107+45=", "answer": "152"}\n{"prompt": "10+10=", "answer": "20", "split": "test"}\n'), '--set', 'max_completion_length=16'], /line 1: the prompt has 7 characters: with <bos> and max_completion_length 16 a row needs 23 positions/],
      [['dpo', '--dataset', data], /line 1: unknown field "answer" \(the fields are prompt, chosen, rejected, split\)/],
    ];
    const results = await Promise.all(cases.map(async ([args]) => trainAsync(...args)));
    results.forEach(({ code, stdout, stderr }, i) => {
      const [args, message] = cases[i];
      const label = args.join(' ');
      expect(code, label).toBe(2);
      expect(stdout, `${label}: no training output`).toBe('');
      expect(stderr.trim().split('\n'), `${label}: one line`).toHaveLength(1);
      expect(stderr, label).toMatch(message);
      expect(stderr, `${label}: no stack trace`).not.toMatch(/\n\s+at /);
    });
  }, 240_000);

  it('stops a run whose reward function fails mid-training: the lines so far on stdout, one line on stderr, exit 2', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-'));
    fs.writeFileSync(path.join(tmp, 'late.js'), 'let calls = 0;\nexport default function (c) {\n  calls += 1;\n  if (calls > 1) throw new RangeError("second batch");\n  return c.map(() => 1);\n}\n');
    const { code, stdout, stderr } = train('grpo', '--backend', 'wasm', '--steps', '3', '--set', 'eval_steps=0', '--reward', path.join(tmp, 'late.js'), '--reward-weight', '0.5');
    expect(code).toBe(2);
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((l) => `${l.kind}@${l.step}`)).toEqual(['train@1']);
    expect(lines[0]['rewards/custom/mean']).toBe(1);
    expect(stderr.trim()).toBe('train: Training failed at step 2: the reward function failed: line 4: RangeError: second batch');
  }, 120_000);

  it('refuses a checkpoint that is not one, after checking it and before training', () => {
    const { code, stdout, stderr } = train('sft', '--init', 'package.json');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/could not start: .*(magic|not a)/i);
  }, 60_000);
});
