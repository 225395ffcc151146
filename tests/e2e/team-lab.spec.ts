/** The team lab in Chromium: it trains, the viewer shows both roles side by side with the message, and a bad link is named once. */
import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe';
import { labSettled } from './boot';
import { budget } from './budget';

const status = (page: import('@playwright/test').Page) => page.getByRole('status');

test('the team lab trains both roles and shows their turns, the message and what each message means', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/labs/team/?max_steps=3&eval_steps=3');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('A team of two agents learns to talk');
  await labSettled(page);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 3 .*finished/, { timeout: budget(90_000) });
  const viewer = page.getByRole('region', { name: 'Team rollouts and what messages mean' });
  await expect(viewer.locator('tbody tr').first()).toContainText(/position \d/);
  await expect(viewer.locator('td mark.team-message').first()).toHaveText(/^(?:[0-9|.]|<bos>){2}$/);
  await expect(viewer.getByRole('table').last()).toContainText('sent for position 3');
  await expect(page.getByRole('figure', { name: /Held-out team accuracy/ }).locator('.plot-line').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test('a link with a channel longer than the lab allows gets one notice naming it, and the lab still trains', async ({ page }) => {
  await page.goto('/labs/team/?max_message_length=99&max_steps=1');
  await labSettled(page);
  const texts = await page.locator('.lab-notice').allTextContents();
  expect(texts.join(' ')).toMatch(/max_message_length/);
  expect(texts.length).toBeLessThanOrEqual(1);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 1 .*finished/, { timeout: budget(60_000) });
});
