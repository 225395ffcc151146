/**
 * The labs that joined the class workflow through their specs (vision: a picture model; team: two policies in one
 * weights file), run as an instructor would: assign, two students train and submit, grade. A student's honest file
 * is ok; an edited claim, weights swapped in from a classmate's run and a locked setting changed are each caught,
 * and the score is measured again on the instructor's own seed.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { submissionDigest } from '@/lib/teach/submission';
import { studentSeed } from '@/lib/teach/seeds';
import { runScript, scratchDir } from './run-script';

const run = (script: string, ...args: string[]) => runScript(script, args, { timeoutMs: 240_000, maxBuffer: 20_000_000 });

const at = scratchDir('arl-every-lab-');
const read = (name: string) => JSON.parse(fs.readFileSync(at(name), 'utf8'));

/** A small run of each lab: a few steps, a small evaluation, so that two students train in seconds. */
const LABS = [
  { lab: 'vision', goal: 'eval/accuracy >= 0.1', set: ['sft_steps=3', 'max_steps=4', 'eval_steps=4', 'eval_samples=20', 'per_device_train_batch_size=16', 'num_generations=4'], lock: 'max_steps,sft_steps', locked: 'sft_steps', unit: 'pictures' },
  { lab: 'team', goal: 'eval/accuracy >= 0.3', set: ['max_steps=2', 'eval_steps=2', 'eval_samples=20'], lock: 'max_steps,beta', locked: 'beta', unit: 'games' },
] as const;

describe.each(LABS)('the $lab lab in the class workflow', ({ lab, goal, set, lock, locked, unit }) => {
  it('is assigned, trained, submitted and graded; tampered files are caught', async () => {
    const assign = await run('assign', lab, '--lock', lock, ...set.flatMap((s) => ['--set', s]), '--goal', goal, '--eval-seed', '31', '--eval-samples', '30');
    expect(assign.code, assign.stderr).toBe(0);
    const assignment = JSON.parse(assign.stdout);
    expect(assignment).toMatchObject({ lab, trainer: lab, seeding: 'per_student', grading: { eval_seed: 31, eval_samples: 30 } });
    fs.writeFileSync(at(`${lab}-assignment.json`), assign.stdout);

    for (const student of ['Ada', 'Bo']) {
      const train = await run('train', lab, '--backend', 'wasm', '--assignment', at(`${lab}-assignment.json`), '--student', student, '--submit', at(`${lab}-${student}.json`));
      expect(train.code, train.stderr).toBe(0);
    }
    const ada = read(`${lab}-Ada.json`);
    expect(ada.config.seed).toBe(studentSeed(assignment.id, 'Ada'));

    // An edited claim, every hash recomputed: the weights do not reproduce it.
    const claimed = JSON.parse(JSON.stringify(ada));
    claimed.history.at(-1).metrics['eval/accuracy'] = 0.99;
    claimed.digest = await submissionDigest(claimed);
    fs.writeFileSync(at(`${lab}-claimed.json`), JSON.stringify(claimed));
    // Bo's weights in Ada's file, hashes recomputed: they score Bo's run, not Ada's history.
    const swapped = JSON.parse(JSON.stringify(ada));
    swapped.weights = read(`${lab}-Bo.json`).weights;
    swapped.digest = await submissionDigest(swapped);
    fs.writeFileSync(at(`${lab}-swapped.json`), JSON.stringify(swapped));
    // A locked setting changed after the fact.
    const unlocked = JSON.parse(JSON.stringify(ada));
    unlocked.config[locked] = Number(unlocked.config[locked]) + 1;
    unlocked.digest = await submissionDigest(unlocked);
    fs.writeFileSync(at(`${lab}-unlocked.json`), JSON.stringify(unlocked));

    const grade = await run('grade', '--assignment', at(`${lab}-assignment.json`), '--gradebook', at(`${lab}-book.csv`), ...['Ada', 'Bo', 'claimed', 'swapped', 'unlocked'].map((f) => at(`${lab}-${f}.json`)));
    expect(grade.code, grade.stderr).toBe(0);
    const rows = grade.stdout.trim().split('\n').slice(1).map((line) => line.split(','));
    const line = (file: string) => grade.stdout.split('\n').find((l) => l.startsWith(`${lab}-${file}.json,`)) ?? '';
    expect(line('Ada')).toMatch(/^[^,]+,Ada,ok,/);
    expect(line('Bo')).toMatch(/^[^,]+,Bo,ok,/);
    // The measured figure is a share of the instructor's 30 held-out items (written to 3 decimals), never the file's claim.
    const measured = Number(line('Ada').split(',')[4]) * 30;
    expect(Math.abs(measured - Math.round(measured))).toBeLessThanOrEqual(0.015);
    expect(line('claimed')).toMatch(/,Ada,"?tampered: [^"]*the weights do not reproduce the history \(eval\/accuracy 0\.99/);
    // Two barely trained runs can score alike, so the reproduction check may pass; identical weights never go unflagged.
    expect(line('swapped')).toMatch(/same weights \(group \d\) as Bo/);
    expect(line('unlocked')).toMatch(new RegExp(`,Ada,"?tampered: [^"]*locked setting ${locked} changed`));
    const book = fs.readFileSync(at(`${lab}-book.csv`), 'utf8');
    expect(book).toContain(`held-out ${unit} the instructor drew`);
  }, 600_000);
});
