/** `npm run assign`, `npm run train -- --assignment … --submit` and `npm run grade`, run as an instructor would. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { submissionDigest } from '@/lib/teach/submission';

function run(script: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], { encoding: 'utf8', timeout: 120_000, maxBuffer: 10_000_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-teach-'));
const at = (name: string) => path.join(tmp, name);

/** One line on stderr, exit code 2, nothing on stdout. */
function expectRefusal(result: { code: number | null; stdout: string; stderr: string }, prefix: string, message: RegExp, label: string) {
  expect(result.code, label).toBe(2);
  expect(result.stdout, label).toBe('');
  expect(result.stderr.trim().split('\n'), `${label}: one line`).toHaveLength(1);
  expect(result.stderr, label).toMatch(new RegExp(`^${prefix}: `));
  expect(result.stderr, label).toMatch(message);
  expect(result.stderr, `${label}: no stack trace`).not.toMatch(/\n\s+at /);
}

describe('assign, train --submit, grade', () => {
  it('turns a folder of submissions into a CSV of measured results; a bad file gets its row and stops nothing', async () => {
    const assign = await run('assign', 'grpo', '--preset', 'kl', '--lock', 'beta,max_steps', '--lock', 'seed', '--set', 'max_steps=2', '--set', 'eval_steps=2', '--set', 'eval_samples=20', '--goal', 'eval/accuracy >= 0.2', '--eval-seed', '99', '--eval-samples', '40', '--due', '2099-01-01', '--title', 'Week 3');
    expect(assign.code, assign.stderr).toBe(0);
    const assignment = JSON.parse(assign.stdout);
    expect(assignment).toMatchObject({ lab: 'grpo', trainer: 'grpo', preset: 'kl', locked: ['beta', 'max_steps', 'seed'], title: 'Week 3', grading: { eval_seed: 99, eval_samples: 40 } });
    expect(assignment.settings).toMatchObject({ beta: 0.04, max_steps: 2 });
    expect(assign.stderr).toMatch(/^assign: the students' link .*: \/labs\/grpo\/#assignment=[A-Za-z0-9_-]+\n$/);
    fs.writeFileSync(at('assignment.json'), assign.stdout);

    const train = await run('train', 'grpo', '--backend', 'wasm', '--assignment', at('assignment.json'), '--student', 'Ada', '--submit', at('ada.json'));
    expect(train.code, train.stderr).toBe(0);
    expect(train.stderr).toMatch(/train: submitted .*ada\.json for "Ada"/);
    const submission = JSON.parse(fs.readFileSync(at('ada.json'), 'utf8'));
    expect(submission).toMatchObject({ student: 'Ada', trainer: 'grpo', assignment: { id: assignment.id, hash: assignment.hash }, environment: { backend: 'wasm', tfjs: '4.22.0' } });
    expect(submission.config).toEqual(assignment.settings);
    expect(submission.history.map((l: { kind: string; step: number }) => `${l.kind}@${l.step}`)).toEqual(['eval@0', 'train@1', 'train@2', 'eval@2']);

    const edited = JSON.parse(JSON.stringify(submission));
    edited.history.at(-1).metrics['eval/accuracy'] = 0.99;
    edited.student = '=HYPERLINK("http://evil.example","x")';
    edited.digest = await submissionDigest(edited);
    fs.writeFileSync(at('edited.json'), JSON.stringify(edited));
    fs.writeFileSync(at('broken.json'), fs.readFileSync(at('ada.json'), 'utf8').slice(0, 1000));
    fs.writeFileSync(at('huge.json'), Buffer.alloc(20_000_000, 32));
    const grade = await run('grade', '--assignment', at('assignment.json'), at('ada.json'), at('edited.json'), at('broken.json'), at('huge.json'), at('missing.json'));
    expect(grade.code, grade.stderr).toBe(0);
    const lines = grade.stdout.trim().split('\n');
    expect(lines[0]).toBe('file,student,status,claimed,measured,goal_met,flags');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(/^ada\.json,Ada,ok,[\d.]+,[\d.]+,(yes|no),"same weights as =HYPERLINK\(""http:\/\/evil\.example"",""x""\) \(edited\.json\)"$/);
    expect(lines[1].split(',')[3]).toBe(String(submission.history.at(-1).metrics['eval/accuracy']));
    expect(lines[2]).toMatch(/^edited\.json,"'=HYPERLINK\(""http:\/\/evil\.example"",""x""\)",tampered: the weights do not reproduce the history \(eval\/accuracy 0\.99 at step 2; .*\),0\.99,[\d.]+,no,"?claimed far above measured/);
    expect(lines[3]).toBe('broken.json,,invalid: not valid JSON (a truncated or damaged file),,,,');
    expect(lines[4]).toBe('huge.json,,invalid: the file is 20.0 MB; a submission is at most 5 MB,,,,');
    expect(lines[5]).toBe('missing.json,,invalid: cannot read the file: ENOENT,,,,');
  }, 180_000);

  it('refuses every mistake before training, in one line with exit code 2', async () => {
    const made = await run('assign', 'grpo', '--lock', 'beta,max_steps', '--set', 'max_steps=2', '--goal', 'eval/accuracy >= 0.4', '--eval-seed', '1');
    expect(made.code, made.stderr).toBe(0);
    fs.writeFileSync(at('a.json'), made.stdout);
    const edited = JSON.parse(made.stdout);
    edited.locked = [];
    fs.writeFileSync(at('edited-assignment.json'), JSON.stringify(edited));
    const a = at('a.json');
    const cases: [string, string[], RegExp][] = [
      ['assign', [], /name a lab/],
      ['assign', ['grpo2', '--goal', 'eval/accuracy >= 1', '--eval-seed', '1'], /unknown lab "grpo2"/],
      ['assign', ['__proto__', '--goal', 'eval/accuracy >= 1', '--eval-seed', '1'], /unknown lab "__proto__"/],
      ['assign', ['grpo', '--eval-seed', '1'], /--goal is required/],
      ['assign', ['grpo', '--goal', 'eval/accuracy >= 1'], /--eval-seed is required/],
      ['assign', ['grpo', '--goal', 'eval/return >= 1', '--eval-seed', '1'], /grpo cannot be graded on "eval\/return"/],
      ['assign', ['grpo', '--goal', 'eval/accuracy >= lots', '--eval-seed', '1'], /threshold must be a decimal number/],
      ['assign', ['grpo', '--goal', 'eval/accuracy >= 1', '--eval-seed=-3'], /--eval-seed must be an integer ≥ 0, got "-3"/],
      ['assign', ['grpo', '--goal', 'eval/accuracy >= 1', '--eval-seed', '1', '--lock', 'beta,bogus'], /--lock: unknown field "bogus"/],
      ['assign', ['grpo', '--goal', 'eval/accuracy >= 1', '--eval-seed', '1', '--set', 'beta=99'], /beta must be in \[0, 10\]/],
      ['assign', ['grpo', '--goal', 'eval/accuracy >= 1', '--eval-seed', '1', '--preset', 'toString'], /unknown preset "toString"/],
      ['assign', ['lora', '--goal', 'eval/accuracy >= 1', '--eval-seed', '1', '--preset', 'default'], /unknown preset "default" for the lora lab \(offered: lora_r4/],
      ['assign', ['grpo', '--goal', 'eval/accuracy >= 1', '--eval-seed', '1', '--due', 'someday'], /due: not a date/],
      ['assign', ['lora', '--goal', 'eval/accuracy >= 1', '--eval-seed', '1', '--instructions', at('none.md')], /cannot read .*none\.md: ENOENT/],
      ['train', ['grpo', '--assignment', a, '--set', 'beta=0.1'], /beta is locked by the assignment at 0: --set beta=0.1 would change it to 0.1/],
      ['train', ['grpo', '--assignment', a, '--preset', 'kl'], /beta is locked by the assignment at 0: --preset kl would change it to 0.04/],
      ['train', ['grpo', '--assignment', a, '--steps', '5'], /max_steps is locked by the assignment at 2: --steps 5 would change it to 5/],
      ['train', ['dpo', '--assignment', a], /is for the grpo lab, which trains grpo, not dpo/],
      ['train', ['grpo', '--assignment', at('edited-assignment.json')], /the assignment was edited: its content does not match its hash/],
      ['train', ['grpo', '--assignment', at('none.json')], /cannot read .*none\.json: ENOENT/],
      ['train', ['grpo', '--assignment', a, '--submit', at('s.json')], /--student and --submit go together/],
      ['train', ['grpo', '--assignment', a, '--init', 'public/models/base.arlw'], /--init cannot be used with --assignment/],
      ['train', ['grpo', '--student', 'Ada', '--submit', at('s.json')], /--submit needs --assignment/],
      ['train', ['grpo', '--assignment', a, '--student', ' ', '--submit', at('s.json')], /--student must be 1 to 100 characters/],
      ['train', ['grpo', '--assignment', a, '--student', 'Ada', '--submit', tmp], /--submit .* is a directory/],
      ['train', ['grpo', '--assignment', a, '--student', 'Ada', '--submit', at('s.json'), '--set', 'eval_steps=0'], /--submit needs eval_steps above 0/],
      ['grade', [at('x.json')], /--assignment is required/],
      ['grade', ['--assignment', a], /name the submission files/],
      ['grade', ['--assignment', at('edited-assignment.json'), at('x.json')], /the assignment was edited/],
      ['grade', ['--assignment', a, '--backend', 'webgpu', at('x.json')], /--backend must be cpu or wasm/],
    ];
    const results = await Promise.all(cases.map(([script, args]) => run(script, ...args)));
    results.forEach((result, i) => {
      const [script, args, message] = cases[i];
      expectRefusal(result, script, message, `${script} ${args.join(' ')}`);
    });
  }, 180_000);
});
