/**
 * The comparisons chapter 10 asks for, one click each: the panel says before the click what will run, how long and
 * on which seed; the click runs both presets and the summary names both runs. Tiny lengths from the link keep it short.
 */
import { expect, test } from '@playwright/test';
import { labSettled } from './boot';
import { budget } from './budget';

test('team: default against no_message is one click, and the summary names both runs', async ({ page }) => {
  await page.goto('/labs/team/?max_steps=2&seed=1');
  await labSettled(page);
  const compare = page.getByRole('region', { name: 'Compare' });
  await expect(compare).toContainText('The default team against no_message');
  await expect(compare).toContainText('Runs default, then no_message, 2 steps each on seed 1.');
  await compare.getByRole('button', { name: 'Run default, no_message' }).click();
  await expect(compare.getByRole('status')).toContainText('Running default (1 of 2)');
  const rows = compare.locator('.runs-summary tbody tr');
  await expect(rows).toHaveCount(2, { timeout: budget(90_000) });
  await expect(compare.getByRole('status')).toHaveCount(0, { timeout: budget(60_000) });
  await expect(rows.nth(0).locator('th')).toHaveText('run 1 (default)');
  await expect(rows.nth(1).locator('th')).toHaveText('run 2 (no_message)');
  await expect(compare.locator('.runs-summary thead')).toContainText('channel blanked at evaluation');
  // Three columns of metrics, then the steps each run trained: the length the link set, for both.
  for (const row of [rows.nth(0), rows.nth(1)]) await expect(row.locator('td').nth(3)).toHaveText('2');
  await expect(page.getByLabel('seed', { exact: true })).toHaveValue('1');
});

test('agent: memory against memory_no_tool runs from any preset, at the length the reader set', async ({ page }) => {
  await page.goto('/labs/agent/?max_steps=2&seed=2');
  await labSettled(page);
  const compare = page.getByRole('region', { name: 'Compare' });
  await expect(compare).toContainText('Runs memory, then memory_no_tool, 2 steps each on seed 2.');
  await compare.getByRole('button', { name: 'Run memory, memory_no_tool' }).click();
  const rows = compare.locator('.runs-summary tbody tr');
  await expect(rows).toHaveCount(2, { timeout: budget(120_000) });
  await expect(compare.getByRole('status')).toHaveCount(0, { timeout: budget(60_000) });
  await expect(rows.nth(0).locator('th')).toHaveText('run 1 (memory)');
  await expect(rows.nth(1).locator('th')).toHaveText('run 2 (memory_no_tool)');
  await expect(compare.locator('.runs-summary thead')).toContainText('memory use');
});

test('self-improvement: each comparison says before the click how many rounds each run takes', async ({ page }) => {
  await page.goto('/labs/self-improve/?seed=3');
  await labSettled(page);
  const compare = page.getByRole('region', { name: 'Compare' });
  await expect(compare.getByRole('button', { name: 'Run default, sft_only' })).toBeVisible();
  await expect(compare.getByRole('button', { name: 'Run default, majority' })).toBeVisible();
  await expect(compare).toContainText(/Runs default, then sft_only, \d+ rounds each on seed 3\./);
  await expect(compare).toContainText(/Runs default, then majority, \d+ rounds each on seed 3\./);
});
