/**
 * The self-improvement lab with tiny rounds: the link's settings restored, rounds counted in the status line, the
 * charts and the inspector numbering rounds from 0 (the trainer's step n is round n − 1), only the target's
 * difficulties in the accuracy legend, the heat map at chapter 10's one decimal, the round's samples, a pause that
 * takes effect inside a round, a hostile link answered with one notice, Reset.
 */
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { labSettled } from './boot';
import { stepIn } from './status';
import { budget } from './budget';

const status = (page: Page) => page.getByRole('status');
// Rounds done, as the status counts them ("2 of 6 rounds done"): the charts number the same rounds 0 and 1.
const roundOf = async (page: Page) => stepIn(await status(page).textContent(), 'round');
const TINY = 'steps_per_round=10&num_prompts=16&eval_samples=20&seed=2';

test('self-improve lab: rounds, accuracy by difficulty, kept samples, Reset', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`/labs/self-improve/?${TINY}&max_steps=30&filter=majority`);
  await labSettled(page);
  await expect(page.getByRole('combobox', { name: 'filter', exact: true })).toHaveValue('majority');
  await expect(page.getByRole('textbox', { name: 'num_prompts', exact: true })).toHaveValue('16');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  // While it runs, the status line says which part of which round is under way.
  await expect(status(page)).toContainText(/now: round \d+: (sampling|fine-tuning|evaluating)/, { timeout: budget(60_000) });
  await expect.poll(() => roundOf(page), { timeout: budget(60_000) }).toBeGreaterThanOrEqual(2);
  const inspector = page.getByRole('region', { name: 'Rounds and kept samples' });
  await expect(inspector.getByRole('table', { name: 'Held-out accuracy by round and difficulty' })).toContainText('3 digits');
  await expect(inspector.getByRole('table', { name: 'Samples of the round' })).toBeVisible();
  await expect(inspector).toContainText(/kept them by majority vote/);

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(status(page)).toContainText('paused');
  const paused = await roundOf(page);
  await page.waitForTimeout(2000);
  expect(await roundOf(page)).toBe(paused);
  // Rounds, counted as the trainer does: with `paused` rounds logged, the newest is round paused − 1, and the
  // inspector's picker, the heat map's rows and the charts' x-axis all say so.
  const picker = inspector.getByRole('combobox', { name: 'Round', exact: true });
  await expect(picker.locator('option:checked')).toHaveText(String(paused - 1));
  const heatMap = inspector.getByRole('table', { name: 'Held-out accuracy by round and difficulty' });
  await expect(heatMap.locator('tbody th').first()).toHaveText('0');
  for (const cell of await heatMap.locator('tbody td').allTextContents()) expect(cell).toMatch(/^\d{1,3}\.\d%$/);
  // The default's round 0 is the shipped checkpoint: the inspector says it was loaded, not trained here.
  await picker.selectOption('1');
  await expect(inspector).toContainText('Round 0 was loaded, not trained in this run: 1,000 steps of SFT');
  const accuracy = page.getByRole('figure', { name: /Held-out accuracy by difficulty/ });
  await expect(accuracy.locator('.plot-axis-title').last()).toHaveText('round');
  await expect(accuracy.getByRole('list', { name: 'Legend' }).getByRole('listitem')).toHaveText(['1 digit', '2 digits', '3 digits']);
  await expect(accuracy.locator('thead th').first()).toHaveText('round');
  // The heat map's shaded cells and the flagged rows keep their text readable, in both themes.
  const found = (await seriousViolations(page, ['color-contrast'])).map((v) => `light: ${v}`);
  await page.emulateMedia({ colorScheme: 'dark' });
  found.push(...(await seriousViolations(page, ['color-contrast'])).map((v) => `dark: ${v}`));
  expect(found).toEqual([]);

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(status(page)).toContainText('0 of 30 rounds done');
  expect(errors).toEqual([]);
});

test('self-improve lab: Pause takes effect inside round 0, and Train resumes it', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Round 0 trained in the run (init_from base) at its default length (1,000 fine-tuning steps): long enough that a
  // pause between rounds would be tens of seconds away.
  await page.goto('/labs/self-improve/?init_from=base&num_prompts=16&eval_samples=20&seed=2&max_steps=2');
  await labSettled(page);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText('now: round 0: fine-tuning', { timeout: budget(60_000) });
  await page.waitForTimeout(1000); // well inside the round's fine-tuning
  await page.getByRole('button', { name: 'Pause' }).click();
  const clicked = Date.now();
  await expect(status(page)).toContainText('paused', { timeout: budget(2000) });
  expect(Date.now() - clicked).toBeLessThan(budget(2000));
  await expect(status(page)).not.toContainText('training');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeDisabled();
  const resume = page.getByRole('button', { name: /^(Train|Resume)$/ });
  await expect(resume).toBeEnabled();
  // Round 0 stays unfinished while paused: nothing is logged, the inspector still waits for its first round.
  await page.waitForTimeout(2000);
  expect(await roundOf(page)).toBe(0);
  await expect(page.getByRole('region', { name: 'Rounds and kept samples' })).toContainText('Train for a round');
  await resume.click();
  await expect(status(page)).toContainText('training', { timeout: budget(2000) });
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(status(page)).toContainText('0 of 2 rounds done');
  expect(errors).toEqual([]);
});

test('self-improve lab: a hostile link gets one notice naming the field, and the lab still trains', async ({ page }) => {
  await page.goto(`/labs/self-improve/?${TINY}&filter=%3Cscript%3E&num_prompts=1e9&max_steps=1`);
  await labSettled(page);
  const notices = await page.locator('.lab-notice').allTextContents();
  expect(notices.join(' ')).toMatch(/filter/);
  expect(notices.join(' ')).toMatch(/num_prompts/);
  for (const text of notices) expect(text.length).toBeLessThan(300);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/1 of 1 round done .*finished/, { timeout: budget(60_000) });
});
