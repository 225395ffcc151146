/**
 * The command line's side of an assignment that asks a prediction: `npm run assign -- --predict` (refused with one
 * line where the preset asks none), `npm run train -- --predict CHOICE` (checked before training) and `npm run grade`
 * writing made / not made beside the same goal result.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '@/lib/teach/csv';
import { presetPrediction } from '@/lib/teach/prediction';
import { runScript, scratchDir } from './run-script';

const run = (script: string, ...args: string[]) => runScript(script, args, { timeoutMs: 180_000 });

const at = scratchDir('arl-teach-predict-');
const asked = (await presetPrediction('grpo', 'default'))!;
const SHORT = ['--set', 'max_steps=2', '--set', 'eval_steps=2', '--set', 'eval_samples=20', '--eval-seed', '5', '--eval-samples', '20'];
const GOAL = 0.01;

describe('assign --predict, train --predict, grade', () => {
  it('refuses --predict for a preset that asks no prediction, in one line naming the presets that do', async () => {
    const refused = await run('assign', 'grpo', '--preset', 'kl', '--predict', ...SHORT, '--goal', 'eval/accuracy >= 0.45');
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^assign: --predict: the grpo lab asks no prediction before a run of the preset "kl" \(presets that ask one: .*default/)]);
  });

  it('an assignment that asks one: a student who predicts is "made" with the choice, one who does not is "not made", the goal read from the measurement alike', async () => {
    const assign = await run('assign', 'grpo', '--preset', 'default', '--predict', '--lock', 'max_steps', ...SHORT, '--goal', `eval/accuracy >= ${GOAL}`);
    expect(assign.code, assign.stderr).toBe(0);
    const assignment = JSON.parse(assign.stdout);
    expect(assignment.prediction).toBe(asked.id);
    expect(assign.stderr).toContain(`assign: students are asked to predict, before their run: ${asked.prediction.question}…`);
    fs.writeFileSync(at('assignment.json'), assign.stdout);

    const badChoice = await run('train', 'grpo', '--assignment', at('assignment.json'), '--student', 'Ada', '--submit', at('ada.json'), '--predict', 'soar');
    expect(badChoice.code).toBe(2);
    expect(badChoice.stderr).toMatch(/^train: --predict: "soar" is not a choice of /);
    expect(fs.existsSync(at('ada.json'))).toBe(false); // refused before training

    const choice = asked.prediction.choices.find((c) => c.id !== asked.prediction.claimed)!;
    const ada = await run('train', 'grpo', '--backend', 'wasm', '--assignment', at('assignment.json'), '--student', 'Ada', '--submit', at('ada.json'), '--predict', choice.id);
    expect(ada.code, ada.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(at('ada.json'), 'utf8')).prediction).toEqual({ claim: asked.id, choice: choice.id });
    const bo = await run('train', 'grpo', '--backend', 'wasm', '--assignment', at('assignment.json'), '--student', 'Bo', '--submit', at('bo.json'));
    expect(bo.code, bo.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(at('bo.json'), 'utf8')).prediction).toEqual({ claim: asked.id, choice: null });

    const graded = await run('grade', '--assignment', at('assignment.json'), '--gradebook', at('book.csv'), at('ada.json'), at('bo.json'));
    expect(graded.code, graded.stderr).toBe(0);
    const [header, ...rows] = parseCsv(graded.stdout);
    const cell = (row: string[], name: string) => row[header.indexOf(name)];
    expect(rows.map((r) => [cell(r, 'student'), cell(r, 'status'), cell(r, 'prediction'), cell(r, 'prediction_choice')])).toEqual([
      ['Ada', 'ok', 'made', `${choice.id}: ${choice.label}`],
      ['Bo', 'ok', 'not made', ''],
    ]);
    // The goal is the measurement's alone, and so is the score.
    const met = rows.map((r) => (Number(cell(r, 'measured')) >= GOAL ? 'yes' : 'no'));
    expect(rows.map((r) => cell(r, 'goal_met'))).toEqual(met);
    const [bookHeader, ...book] = parseCsv(fs.readFileSync(at('book.csv'), 'utf8'));
    expect(book.map((r) => [r[bookHeader.indexOf('score')], r[bookHeader.indexOf('prediction')]])).toEqual([
      [met[0] === 'yes' ? '100' : '0', 'made'],
      [met[1] === 'yes' ? '100' : '0', 'not made'],
    ]);
  }, 300_000);

  it('train --predict without an assignment that asks one is refused', async () => {
    const none = await run('train', 'grpo', '--predict', asked.prediction.claimed);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^train: --predict needs --assignment/);
  });
});
