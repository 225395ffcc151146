/**
 * /teach/ offers every lab, and each one can be assigned: the builder reads the goal metrics from the lab's trainer
 * spec, so no lab is refused for its kind (the vision and team labs were, before their specs said how to grade them);
 * and the grader page grades a team submission in its worker, through the team spec.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { labs } from '@/content/labs';
import { goLive } from './boot';
import { budget } from './budget';

/** A CLI script run as an instructor or a student would, its exit code checked. */
function cli(script: string, ...args: string[]): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], { encoding: 'utf8', timeout: budget(240_000), maxBuffer: 20_000_000 });
  if (result.status !== 0) throw new Error(`${script} ${args.join(' ')}: exit ${result.status}\n${result.stderr}`);
  return result.stdout;
}

test('every lab is offered and makes an assignment with a link to its own page', async ({ page }) => {
  test.setTimeout(budget(120_000));
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/teach/');
  await goLive(page);
  const lab = page.getByRole('combobox', { name: 'Lab', exact: true });
  expect(await lab.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(labs.map((l) => l.slug));
  for (const { slug } of labs) {
    await lab.selectOption(slug);
    await page.getByLabel('Evaluation seed').fill('5');
    // A threshold inside every lab's first goal metric's range (a share, a return or a count).
    await page.getByLabel('Threshold').fill('0.2');
    await page.getByRole('button', { name: 'Make the assignment' }).click();
    await expect(page.getByLabel('Students’ link'), slug).toHaveValue(new RegExp(`/labs/${slug}/#assignment=[A-Za-z0-9_-]+$`));
    await expect(page.locator('.lab-error'), slug).toHaveCount(0);
  }
  expect(errors).toEqual([]);
});

test('the grader page grades a team submission (two policies in one weights file) in its worker, and catches an edited claim', async ({ page }) => {
  test.setTimeout(budget(300_000));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-teach-team-'));
  const at = (name: string) => path.join(dir, name);
  fs.writeFileSync(at('assignment.json'), cli('assign', 'team', '--set', 'max_steps=2', '--set', 'eval_steps=2', '--set', 'eval_samples=20', '--goal', 'eval/accuracy >= 0.2', '--eval-seed', '9', '--eval-samples', '20', '--title', 'Team week'));
  cli('train', 'team', '--backend', 'wasm', '--assignment', at('assignment.json'), '--student', 'Ada', '--submit', at('ada.json'));
  const edited = JSON.parse(fs.readFileSync(at('ada.json'), 'utf8'));
  edited.history.at(-1).metrics['eval/accuracy'] = 0.99; // a careless edit: the file's digest gives it away as well
  fs.writeFileSync(at('edited.json'), JSON.stringify(edited));

  await page.goto('/teach/grade/');
  await page.getByLabel('Assignment file').setInputFiles(at('assignment.json'));
  await expect(page.getByText(/Team week \(team lab, id [0-9a-f]{12}\)/)).toBeVisible();
  await expect(page.getByText(/20 held-out games/)).toBeVisible();
  await page.getByLabel('Submission files').setInputFiles([at('ada.json'), at('edited.json')]);
  await expect(page.getByRole('status')).toHaveText(/^Graded (\d+) of \1\.$/, { timeout: budget(120_000) });
  const rowOf = (file: string) => page.getByRole('table', { name: 'Grades' }).getByRole('row').filter({ has: page.getByRole('cell', { name: file, exact: true }) });
  await expect(rowOf('ada.json').getByRole('cell').nth(2)).toHaveText('ok');
  await expect(rowOf('edited.json').getByRole('cell').nth(2)).toHaveText(/^tampered: /);
  fs.rmSync(dir, { recursive: true, force: true });
});
