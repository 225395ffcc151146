/** `npm run assign`, `npm run train -- --assignment … --submit` and `npm run grade`, run as an instructor would. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { submissionDigest } from '@/lib/teach/submission';
import { studentSeed } from '@/lib/teach/seeds';
import { runScript, scratchDir } from './run-script';

const run = (script: string, ...args: string[]) => runScript(script, args);

const at = scratchDir('arl-teach-');

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
  it('turns a folder of submissions into a CSV of measured results and a gradebook; a bad file gets its row and stops nothing', async () => {
    fs.writeFileSync(at('instructions.md'), 'Train **twice**.');
    const assign = await run('assign', 'grpo', '--preset', 'kl', '--lock', 'beta,max_steps', '--set', 'max_steps=2', '--set', 'eval_steps=2', '--set', 'eval_samples=20', '--goal', 'eval/accuracy >= 0.2', '--eval-seed', '99', '--eval-samples', '40', '--due', '2099-01-01T12:00+01:00', '--title', 'Week 3', '--instructions', at('instructions.md'));
    expect(assign.code, assign.stderr).toBe(0);
    const assignment = JSON.parse(assign.stdout);
    expect(assignment).toMatchObject({ lab: 'grpo', trainer: 'grpo', preset: 'kl', locked: ['beta', 'max_steps'], seeding: 'per_student', title: 'Week 3', due: '2099-01-01T12:00:00+01:00', instructions: 'Train **twice**.', grading: { eval_seed: 99, eval_samples: 40 } });
    expect(assignment.settings).toMatchObject({ beta: 0.04, max_steps: 2 });
    expect(assign.stderr).toMatch(/^assign: each student trains on their own seed, .*\nassign: due 2099-01-01 12:00 \(UTC\+01:00\)\nassign: the students' link .*: \/labs\/grpo\/#assignment=[A-Za-z0-9_-]+\n$/);
    fs.writeFileSync(at('assignment.json'), assign.stdout);

    const train = await run('train', 'grpo', '--backend', 'wasm', '--assignment', at('assignment.json'), '--student', 'Ada', '--submit', at('ada.json'));
    expect(train.code, train.stderr).toBe(0);
    expect(train.stderr).toMatch(/train: submitted .*ada\.json for "Ada"/);
    const submission = JSON.parse(fs.readFileSync(at('ada.json'), 'utf8'));
    expect(submission).toMatchObject({ student: 'Ada', trainer: 'grpo', assignment: { id: assignment.id, hash: assignment.hash }, environment: { backend: 'wasm', tfjs: '4.22.0' } });
    expect(submission.config).toEqual({ ...assignment.settings, seed: studentSeed(assignment.id, 'Ada') }); // Ada's own seed
    expect(submission.history.map((l: { kind: string; step: number }) => `${l.kind}@${l.step}`)).toEqual(['eval@0', 'train@1', 'train@2', 'eval@2']);

    const edited = JSON.parse(JSON.stringify(submission));
    edited.history.at(-1).metrics['eval/accuracy'] = 0.99;
    edited.student = '=HYPERLINK("http://evil.example","x")';
    edited.digest = await submissionDigest(edited);
    fs.writeFileSync(at('edited.json'), JSON.stringify(edited));
    fs.writeFileSync(at('broken.json'), fs.readFileSync(at('ada.json'), 'utf8').slice(0, 1000));
    fs.writeFileSync(at('huge.json'), Buffer.alloc(20_000_000, 32));
    // Ada hands in again after the due date (the LMS's upload time says so, whatever her file says).
    fs.copyFileSync(at('ada.json'), at('ada-again.json'));
    fs.writeFileSync(at('received.csv'), 'file,received\nada.json,2099-01-01T10:00:00Z\nada-again.json,2099-01-01T11:30:00Z\n');
    fs.writeFileSync(at('roster.csv'), 'id,name\nada,Ada Lovelace\nS0002,Grace Hopper\n');
    const adaSeed = studentSeed(assignment.id, 'Ada');
    const grade = await run(
      'grade', '--assignment', at('assignment.json'), '--received', at('received.csv'), '--gradebook', at('gradebook.csv'), '--roster', at('roster.csv'),
      at('ada.json'), at('ada-again.json'), at('edited.json'), at('broken.json'), at('huge.json'), at('missing.json'),
    );
    expect(grade.code, grade.stderr).toBe(0);
    const lines = grade.stdout.trim().split('\n');
    expect(lines[0]).toBe('file,student,status,claimed,measured,goal_met,flags,seed,submitted_self_reported,received');
    expect(lines).toHaveLength(7);
    const submitted = submission.submitted;
    expect(lines[1]).toMatch(new RegExp(`^ada\\.json,Ada,ok,[\\d.]+,[\\d.]+,(yes|no),"same weights \\(group 1\\) as =HYPERLINK\\(""http://evil\\.example"",""x""\\); trained on Ada’s seed",${adaSeed},${submitted},2099-01-01T10:00:00\\.000Z$`));
    expect(lines[1].split(',')[3]).toBe(String(submission.history.at(-1).metrics['eval/accuracy']));
    expect(lines[2]).toMatch(/^ada-again\.json,Ada,late,.*,(yes|no),"late by 30 min \(upload time\); same weights \(group 1\) as .*",\d+,/);
    // Ada's file under another name: caught by its seed (Ada's), by its claim, and grouped with Ada's weights.
    expect(lines[3]).toMatch(new RegExp(`^edited\\.json,"'=HYPERLINK\\(""http://evil\\.example"",""x""\\)","tampered: seed ${adaSeed} is not this student’s seed \\(\\d+\\): .*; the weights do not reproduce the history \\(eval/accuracy 0\\.99 at step 2; .*\\)",0\\.99,[\\d.]+,no,claimed far above measured .*; same weights \\(group 1\\) as Ada; trained on Ada’s seed,${adaSeed},`));
    expect(grade.stderr).toContain('grade: edited.json: no upload time in --received');
    expect(lines[4]).toBe('broken.json,,invalid: not valid JSON (a truncated or damaged file),,,,,,,');
    expect(lines[5]).toBe('huge.json,,invalid: the file is 20.0 MB; a submission is at most 5 MB,,,,,,,');
    expect(lines[6]).toBe('missing.json,,invalid: cannot read the file: ENOENT,,,,,,,');

    // One row per student: the roster's order, Ada's latest file counting, Grace with nothing, the =HYPERLINK student off the roster.
    const book = fs.readFileSync(at('gradebook.csv'), 'utf8').trim().split('\n');
    expect(book[0]).toBe('id,name,score,lab_status,measured,goal_met,exercises_passed,late,files,on_roster,feedback');
    expect(book).toHaveLength(4);
    expect(book[1]).toMatch(/^ada,Ada Lovelace,(100|0),late,[\d.]+,(yes|no),,yes,ada\.json; ada-again\.json,yes,"?Lab: eval\/accuracy [\d.]+ on 40 held-out problems the instructor drew \(your page showed [\d.]+ on the lab’s own test set\); goal eval\/accuracy >= 0\.2: (met|not met)\. Late \(due 2099-01-01 12:00 \(UTC\+01:00\)\): late by 30 min \(upload time\)\."?$/);
    expect(book[2]).toBe('S0002,Grace Hopper,,not handed in,,,,no,,yes,Nothing handed in.');
    expect(book[3]).toMatch(/^"'=HYPERLINK.*",,0,"tampered: seed/);
    expect(grade.stderr).toMatch(/grade: wrote .*gradebook\.csv \(moodle CSV\): 3 students, 1 on the roster handed nothing in\. Rule: one row per student id; /);
  }, 180_000);

  it('refuses every mistake before training, in one line with exit code 2', async () => {
    const made = await run('assign', 'grpo', '--lock', 'beta,max_steps', '--set', 'max_steps=2', '--goal', 'eval/accuracy >= 0.4', '--eval-seed', '1');
    fs.writeFileSync(at('received-bad.csv'), 'file,received\nx.json,2099-01-01T10:00\n');
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
      ['assign', ['grpo', '--goal', 'eval/accuracy >= 1', '--eval-seed', '1', '--due', '2026-12-10T17:00'], /due: "2026-12-10T17:00" has no time zone/],
      ['assign', ['grpo', '--goal', 'eval/accuracy >= 1.5', '--eval-seed', '1'], /eval\/accuracy >= 1\.5 can never be met: eval\/accuracy lies in \[0, 1\]/],
      ['assign', ['lora', '--goal', 'eval/accuracy >= 1', '--eval-seed', '1', '--instructions', at('none.md')], /cannot read .*none\.md: ENOENT/],
      ['train', ['grpo', '--assignment', a, '--student', 'Ada', '--set', 'beta=0.1'], /beta is locked by the assignment at 0: --set beta=0.1 would change it to 0.1/],
      ['train', ['grpo', '--assignment', a, '--student', 'Ada', '--preset', 'kl'], /beta is locked by the assignment at 0: --preset kl would change it to 0.04/],
      ['train', ['grpo', '--assignment', a, '--student', 'Ada', '--steps', '5'], /max_steps is locked by the assignment at 2: --steps 5 would change it to 5/],
      ['train', ['grpo', '--assignment', a], /this assignment gives each student their own seed: name the student with --student/],
      ['train', ['grpo', '--assignment', a, '--student', 'Ada', '--seed', '3'], /the assignment trains "Ada" on seed \d+ \(from the assignment and the student id\): --seed 3 would change it/],
      ['train', ['dpo', '--assignment', a], /is for the grpo lab, which trains grpo, not dpo/],
      ['train', ['grpo', '--assignment', at('edited-assignment.json')], /the assignment was edited: its content does not match its hash/],
      ['train', ['grpo', '--assignment', at('none.json')], /cannot read .*none\.json: ENOENT/],
      ['train', ['grpo', '--assignment', a, '--submit', at('s.json')], /name the student with --student/],
      ['train', ['grpo', '--assignment', a, '--student', 'Ada', '--init', 'public/models/base.arlw'], /--init cannot be used with --assignment/],
      ['train', ['grpo', '--student', 'Ada', '--submit', at('s.json')], /--submit needs --assignment/],
      ['train', ['grpo', '--assignment', a, '--student', ' ', '--submit', at('s.json')], /--student must be 1 to 100 characters/],
      ['train', ['grpo', '--assignment', a, '--student', 'Ada', '--submit', at('.')], /--submit .* is a directory/],
      ['train', ['grpo', '--assignment', a, '--student', 'Ada', '--submit', at('s.json'), '--set', 'eval_steps=0'], /--submit needs eval_steps above 0/],
      ['grade', [at('x.json')], /--assignment is required/],
      ['grade', ['--assignment', a], /name the submission files/],
      ['grade', ['--assignment', at('edited-assignment.json'), at('x.json')], /the assignment was edited/],
      ['grade', ['--assignment', a, '--backend', 'webgpu', at('x.json')], /--backend must be cpu or wasm/],
      ['grade', ['--assignment', a, '--gradebook', at('g.csv'), '--gradebook-format', 'blackboard', at('x.json')], /--gradebook-format must be moodle or canvas/],
      ['grade', ['--assignment', a, '--received', at('received-bad.csv'), at('x.json')], /--received .*: upload times: line 2: "2099-01-01T10:00" is not an ISO 8601 time with a zone/],
    ];
    const results = await Promise.all(cases.map(([script, args]) => run(script, ...args)));
    results.forEach((result, i) => {
      const [script, args, message] = cases[i];
      expectRefusal(result, script, message, `${script} ${args.join(' ')}`);
    });
  }, 180_000);
});
