/**
 * The self-improvement lab with tiny rounds: the link's settings restored, rounds counted in the status line, the
 * accuracy heat map and the round's samples in the inspector, pause between rounds, a hostile link answered with one
 * notice, Reset.
 */
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { labSettled } from './boot';

const status = (page: Page) => page.getByRole('status');
const roundOf = async (page: Page) => Number(/round (\d+)/.exec((await status(page).textContent()) ?? '')?.[1] ?? -1);
const TINY = 'demo_steps=40&steps_per_round=10&num_prompts=16&eval_samples=20&seed=2';

test('self-improve lab: rounds, accuracy by difficulty, kept samples, pause between rounds, Reset', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`/labs/self-improve/?${TINY}&max_steps=30&filter=majority`);
  await labSettled(page);
  await expect(page.getByRole('combobox', { name: 'filter', exact: true })).toHaveValue('majority');
  await expect(page.getByRole('textbox', { name: 'num_prompts', exact: true })).toHaveValue('16');
  await page.getByRole('button', { name: 'Train' }).click();
  // While it runs, the status line says which part of which round is under way.
  await expect(status(page)).toContainText(/now: round \d+: (sampling|fine-tuning|evaluating)/, { timeout: 60_000 });
  await expect.poll(() => roundOf(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  const inspector = page.getByRole('region', { name: 'Rounds and kept samples' });
  await expect(inspector.getByRole('table', { name: 'Held-out accuracy by round and difficulty' })).toContainText('3 digits');
  await expect(inspector.getByRole('table', { name: 'Samples of the round' })).toBeVisible();
  await expect(inspector).toContainText(/kept them by majority vote/);

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(status(page)).toContainText('paused');
  const paused = await roundOf(page);
  await page.waitForTimeout(2000);
  expect(await roundOf(page)).toBe(paused);
  await expect(status(page)).not.toContainText('now:'); // paused between rounds: no part of a round is running
  // The heat map's shaded cells and the flagged rows keep their text readable, in both themes.
  const found = (await seriousViolations(page, ['color-contrast'])).map((v) => `light: ${v}`);
  await page.emulateMedia({ colorScheme: 'dark' });
  found.push(...(await seriousViolations(page, ['color-contrast'])).map((v) => `dark: ${v}`));
  expect(found).toEqual([]);

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(status(page)).toContainText('round 0');
  expect(errors).toEqual([]);
});

test('self-improve lab: a hostile link gets one notice naming the field, and the lab still trains', async ({ page }) => {
  await page.goto(`/labs/self-improve/?${TINY}&filter=%3Cscript%3E&num_prompts=1e9&max_steps=1`);
  await labSettled(page);
  const notices = await page.locator('.lab-notice').allTextContents();
  expect(notices.join(' ')).toMatch(/filter/);
  expect(notices.join(' ')).toMatch(/num_prompts/);
  for (const text of notices) expect(text.length).toBeLessThan(300);
  await page.getByRole('button', { name: 'Train' }).click();
  await expect(status(page)).toContainText(/round 1 .*finished/, { timeout: 60_000 });
});
