/**
 * An assignment that asks a prediction, end to end in Chromium: the instructor ticks it on /teach/ (offered only
 * where the preset has one), one student predicts and trains, another trains without predicting and picks an answer
 * only after the run, and the grader shows "made" for the first and "not made" for the second, never right or
 * wrong. /teach/ with the option stays within a 390 px phone and has no serious axe violation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { goLive, labSettled } from './boot';
import { budget } from './budget';
import { trainToTheEnd } from './status';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-teach-predict-e2e-'));
const at = (name: string) => path.join(dir, name);

async function setField(page: Page, name: string, value: string) {
  const input = page.getByRole('textbox', { name, exact: true });
  await input.fill(value);
  await input.press('Enter');
}

const ASK = 'Ask students to predict before their run';
const question = (page: Page) => page.getByRole('group', { name: 'Predict first (optional)' });

/** Opens the link as a fresh student, types the id, optionally predicts, trains to the end and hands in. */
async function studentHandsIn(page: Page, link: string, id: string, choice: string | null, file: string): Promise<Record<string, any>> {
  await page.goto(link);
  await labSettled(page);
  const banner = page.getByRole('region', { name: 'Assignment' });
  await expect(banner).toContainText('asked below, before you train: optional, but a run started without one is handed in as not made');
  await expect(question(page)).toContainText('Your assignment asks for this prediction.');
  await banner.getByLabel('Your student id').fill(id);
  if (choice) await question(page).getByRole('radio', { name: choice }).check();
  await trainToTheEnd(page, 3);
  if (!choice) {
    // An answer picked after the run is the next run's: this hand-in still records none.
    await question(page).getByRole('radio').first().check();
    await expect(banner).toContainText('asked, and not made before this run started: your hand-in records it as not made');
  } else {
    await expect(banner).toContainText('made before this run started: your hand-in records it (made, never graded right or wrong)');
    await expect(banner).not.toContainText('not made before this run');
  }
  const download = page.waitForEvent('download');
  await banner.getByRole('button', { name: 'Submit' }).click();
  await (await download).saveAs(file);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

test('the instructor asks a prediction; the grader shows made for a student who predicted and not made for one who did not', async ({ page, context }) => {
  test.setTimeout(budget(300_000));
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  // The instructor: offered where the preset has a prediction, said so where it has none.
  await page.goto('/teach/');
  await goLive(page);
  await expect(page.getByRole('combobox', { name: 'Lab', exact: true })).toHaveValue('grpo');
  await expect(page.getByRole('checkbox', { name: ASK })).toBeVisible();
  await page.getByRole('combobox', { name: 'Preset' }).selectOption('kl');
  await expect(page.getByText('The kl preset asks no prediction before a run, so this assignment cannot ask one')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: ASK })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Preset' }).selectOption('default');
  await page.getByRole('checkbox', { name: ASK }).check();
  await page.getByLabel('Title').fill('Predict week');
  await setField(page, 'max_steps', '3');
  await setField(page, 'eval_steps', '3');
  await setField(page, 'eval_samples', '20');
  await page.getByRole('checkbox', { name: 'lock max_steps' }).check();
  await page.getByLabel('Threshold').fill('0.1');
  await page.getByLabel('Evaluation seed').fill('77');
  await page.getByRole('button', { name: 'Make the assignment' }).click();
  const link = await page.getByLabel('Students’ link').inputValue();
  await expect(page.getByRole('region', { name: 'Your assignment' })).toContainText('Students are asked to predict before their run');
  const saved = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the assignment file' }).click();
  await (await saved).saveAs(at('assignment.json'));
  const assignment = JSON.parse(fs.readFileSync(at('assignment.json'), 'utf8'));
  expect(assignment.prediction).toEqual(expect.any(String));

  // Two students, each on a page of their own.
  const ada = await studentHandsIn(page, link, 'ada', 'stay within 10 points of it', at('ada.json'));
  expect(ada.prediction).toEqual({ claim: assignment.prediction, choice: 'stay' });
  const boPage = await context.newPage();
  boPage.on('pageerror', (error) => errors.push(error.message));
  const bo = await studentHandsIn(boPage, link, 'bo', null, at('bo.json'));
  expect(bo.prediction).toEqual({ claim: assignment.prediction, choice: null });
  await boPage.close();

  // The grader.
  await page.goto('/teach/grade/');
  await page.getByLabel('Assignment file').setInputFiles(at('assignment.json'));
  await expect(page.getByText(/It asks a prediction before the run/)).toBeVisible();
  await page.getByLabel('Submission files').setInputFiles([at('ada.json'), at('bo.json')]);
  await expect(page.getByRole('status')).toHaveText('Graded 2 of 2.', { timeout: budget(120_000) });
  const grades = page.getByRole('table', { name: 'Grades' });
  const columns = await grades.getByRole('columnheader').allTextContents();
  const cell = (file: string, column: string) => grades.getByRole('row').filter({ has: page.getByRole('cell', { name: file, exact: true }) }).getByRole('cell').nth(columns.indexOf(column));
  expect(columns.slice(-2)).toEqual(['prediction', 'prediction choice']);
  await expect(cell('ada.json', 'prediction')).toHaveText('made');
  await expect(cell('ada.json', 'prediction choice')).toHaveText('stay: stay within 10 points of it');
  await expect(cell('bo.json', 'prediction')).toHaveText('not made');
  await expect(cell('bo.json', 'prediction choice')).toHaveText('');
  // Both hand-ins grade on their measurement alone.
  for (const file of ['ada.json', 'bo.json']) await expect(cell(file, 'status')).toHaveText('ok');
  const book = page.getByRole('table', { name: 'Gradebook' });
  await expect(book.getByRole('row').filter({ hasText: /^ada/ })).toContainText('Prediction: made before your run');
  await expect(book.getByRole('row').filter({ hasText: /^bo/ })).toContainText('Prediction: not made before your run.');
  await expect(page.locator('.grader')).not.toContainText(/\b(wrong|missed|matched)\b/);
  expect(await seriousViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test('at 390 px /teach/ with the prediction option: nothing wider than the screen, no serious axe violation', async ({ page }) => {
  test.setTimeout(budget(90_000));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/teach/');
  await goLive(page);
  await page.getByRole('checkbox', { name: ASK }).check();
  await expect(page.getByText(/the grader shows each run’s prediction as made or not made/)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await seriousViolations(page)).toEqual([]);
  // And where the preset has none, the sentence that says so fits too.
  await page.getByRole('combobox', { name: 'Preset' }).selectOption('kl');
  await expect(page.getByText('The kl preset asks no prediction before a run')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
