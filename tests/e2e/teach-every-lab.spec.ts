/**
 * /teach/ offers every lab, and each one can be assigned: the builder reads the goal metrics from the lab's trainer
 * spec, so no lab is refused for its kind (the vision and team labs were, before their specs said how to grade them).
 */
import { expect, test } from '@playwright/test';
import { labs } from '@/content/labs';
import { goLive } from './boot';

test('every lab is offered and makes an assignment with a link to its own page', async ({ page }) => {
  test.setTimeout(120_000);
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
