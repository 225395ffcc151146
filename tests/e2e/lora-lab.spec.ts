/** The LoRA lab in Chromium: a rank-4 run trains, its update's spectrum shows, the merge check and the export work. */
import { expect, test } from '@playwright/test';
import { budget } from './budget';

test('LoRA at rank 4: train, see the update’s rank, merge and compare, export the adapter', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/labs/lora/?max_steps=40&eval_steps=20');
  await expect(page.getByLabel('Preset')).toHaveValue('lora_r4');
  await expect(page.getByRole('textbox', { name: 'r', exact: true })).toHaveValue('4');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(page.getByRole('status').first()).toContainText(/step 40 .*finished/, { timeout: budget(90_000) });
  // The spectrum: every adapted layer's ΔW has at most 4 nonzero singular values, so effective rank ≤ 4.
  const panel = page.getByRole('region', { name: 'What the update looks like' });
  await expect(panel.getByRole('figure')).toHaveCount(8);
  for (const text of await panel.locator('figcaption strong').allTextContents()) expect(Number(text)).toBeLessThanOrEqual(4);
  await expect(page.getByRole('figure', { name: 'Trainable parameters' })).toBeVisible();
  // Merge and compare.
  await page.getByRole('button', { name: 'Merge and compare' }).click();
  const merged = page.getByRole('status', { name: 'Merge and compare: result' });
  await expect(merged).toContainText(/merged and unmerged logits \(32 × \d+ × 22 of them\) is (0|\d\.\de-\d)/);
  const drift = Number(/back to within (\d\.\de[+-]\d+)/.exec((await merged.textContent()) ?? '')?.[1]);
  expect(drift).toBeLessThan(1e-4);
  // Export the adapter: a download link, far smaller than the checkpoint.
  await page.getByRole('button', { name: 'Export the adapter' }).click();
  const exported = page.getByRole('status', { name: 'Export the adapter: result' });
  await expect(exported).toContainText(/The adapter holds 4,096 parameters/);
  const download = page.waitForEvent('download');
  await exported.getByRole('link', { name: /Download lora-r4-adapter\.arlw/ }).click();
  expect((await download).suggestedFilename()).toBe('lora-r4-adapter.arlw');
  expect(errors).toEqual([]);
});

test('actions wait for the run to pause or finish', async ({ page }) => {
  await page.goto('/labs/lora/?preset=full_ft&max_steps=300');
  await expect(page.getByRole('button', { name: 'Merge and compare' })).toBeDisabled();
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(page.getByRole('status').first()).toContainText(/step [1-9]/, { timeout: budget(60_000) });
  await expect(page.getByRole('button', { name: 'Merge and compare' })).toBeDisabled();
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByRole('button', { name: 'Merge and compare' }).click();
  await expect(page.getByRole('status', { name: 'Merge and compare: result' })).toContainText('no adapter to merge');
});
