/**
 * The token view (issue 53) in the GRPO, agent and vision labs: after a step, opening it shows a completion token by
 * token under the names chapter 6 and TRL use; at 1280 and 390 px the page does not scroll sideways (the table
 * scrolls in its own box) and axe finds nothing serious. On-policy every ratio is exactly 1, and the view says why.
 */
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { labSettled } from './boot';
import { budget } from './budget';

const status = (page: Page) => page.locator('.lab-status');

async function trainThenOpen(page: Page, link: string, steps: number) {
  await page.goto(link);
  await labSettled(page);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(new RegExp(`step ${steps} .*finished`), { timeout: budget(90_000) });
  const summary = page.getByText('Token view: ratio, clipping, advantage, weight and KL per token');
  await summary.scrollIntoViewIfNeeded();
  await summary.click();
  const table = page.getByRole('table', { name: /The chosen completion’s tokens|The chosen completion's tokens/ });
  await expect(table).toBeVisible();
  return table;
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
const columnHeaders = (table: ReturnType<Page['getByRole']>) => table.getByRole('columnheader').allTextContents();

for (const width of [1280, 390]) {
  test(`GRPO lab, dapo_clip_higher at ${width} px: update 2 of 4 shows ratios off 1, ε_low / ε_high clips, Â, the dapo weight; no sideways scroll; axe clean`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const table = await trainThenOpen(page, '/labs/grpo/?preset=dapo_clip_higher&max_steps=2', 2);
    const view = page.locator('.token-view');
    await expect(view).toContainText('update 2 of 4 on its generation batch');
    await expect(view).toContainText("loss_type 'dapo', importance_sampling_level 'token', ε = 0.2, ε_high = 0.28, β = 0");
    expect(await columnHeaders(table)).toEqual(['t', 'token', 'ratio ρi,t', 'clipped (ε_low / ε_high)', 'advantage Âi', 'weight (dapo)', 'ℓi,t']);
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(1);
    // One recorded row's cells: a ratio of 4 decimals, a clip verdict, a signed advantage, a dapo weight 1/n (n = tokens in the slice).
    const first = rows.first().locator('td');
    await expect(first.nth(1)).toHaveText(/^\d\.\d{4}$/);
    await expect(first.nth(2)).toHaveText(/^(—|low \(ρ < 1 − ε = 0\.8000\)|high \(ρ > 1 \+ ε_high = 1\.2800\))$/);
    await expect(first.nth(3)).toHaveText(/^[+-]?\d\.\d{3}$/);
    await expect(first.nth(4)).toHaveText(/^1\/\d+$/);
    // The policy moved once since it sampled: some shown ratio has left 1.
    const ratios = await table.locator('tbody tr:not(.tok-excluded-row) td:nth-of-type(2)').allTextContents();
    const allCompletions = page.getByLabel('Completion');
    const options = await allCompletions.locator('option').count();
    let moved = ratios.some((r) => r !== '1.0000');
    for (let i = 1; !moved && i < options; i++) {
      await allCompletions.selectOption({ index: i });
      moved = (await table.locator('tbody tr:not(.tok-excluded-row) td:nth-of-type(2)').allTextContents()).some((r) => r !== '1.0000');
    }
    expect(moved).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(width);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('GRPO lab, TRL defaults with β = 0.04: update 1 of 1, every ratio exactly 1, nothing clipped, a KL k3 column; the note says why', async ({ page }) => {
  const table = await trainThenOpen(page, '/labs/grpo/?max_steps=2&beta=0.04', 2);
  await expect(page.locator('.token-view')).toContainText('update 1 of 1 on its generation batch');
  await expect(page.getByRole('link', { name: 'chapter 6: the ratio is exactly 1' })).toHaveAttribute('href', '/chapters/grpo/#one-update-per-batch-the-ratio-is-exactly-1');
  expect(await columnHeaders(table)).toContain('KL k3');
  const counted = table.locator('tbody tr:not(.tok-excluded-row)');
  const ratios = await counted.locator('td:nth-of-type(2)').allTextContents();
  expect(ratios.length).toBeGreaterThan(0);
  expect(new Set(ratios)).toEqual(new Set(['1.0000']));
  expect(new Set(await counted.locator('td:nth-of-type(3)').allTextContents())).toEqual(new Set(['—']));
});

test('GRPO lab, gspo: one sequence ratio per completion, no per-token ratio column', async ({ page }) => {
  const table = await trainThenOpen(page, '/labs/grpo/?preset=gspo&max_steps=2', 2);
  await expect(page.locator('.token-view')).toContainText(/Sequence ratio s_i \(GSPO, one per completion\): \d\.\d{4}, clipped: (—|low|high)/);
  expect(await columnHeaders(table)).toEqual(['t', 'token', 'advantage Âi', 'weight (grpo)', 'ℓi,t']);
});

for (const width of [1280, 390]) {
  test(`agent and vision labs at ${width} px: the same token view after a step; no sideways scroll; axe clean`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    let table = await trainThenOpen(page, '/labs/agent/?max_steps=1', 1);
    expect(await columnHeaders(table)).toContain('ratio ρi,t');
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(1);
    expect(await pageWidth(page)).toBeLessThanOrEqual(width);
    expect(await seriousViolations(page)).toEqual([]);

    const tiny = { max_steps: '2', sft_steps: '1', sft_batch_size: '8', num_generations: '2', per_device_train_batch_size: '4', eval_steps: '2', eval_samples: '10' };
    table = await trainThenOpen(page, `/labs/vision/?${new URLSearchParams(tiny)}`, 2);
    expect(await columnHeaders(table)).toContain('weight (dapo)');
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await pageWidth(page)).toBeLessThanOrEqual(width);
    expect(await seriousViolations(page)).toEqual([]);
  });
}
