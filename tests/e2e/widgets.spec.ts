import { expect, test, type Page } from '@playwright/test';
import { axeOn } from './axe';
import { expectTfjsInWorkersOnly, holdChunks, watch } from './watch';
import { budget } from './budget';

const cells = (scope: ReturnType<Page['locator']>, scale: string) => scope.locator(`tbody td[data-scale="${scale}"]`);

test('the advantage calculator shows its build-time table without tfjs, then computes live in a worker and explains bad input', async ({ page, request }) => {
  // The default table is in the static HTML itself: computed at build time, not in the browser.
  const html = await (await request.get('/chapters/grpo/')).text();
  expect(html).toContain('data-testid="advantage-table"');
  expect(html).toContain('+1.500');

  const seen = watch(page);
  await page.goto('/chapters/grpo/');
  const calc = page.locator('.advantage-calculator');
  await calc.scrollIntoViewIfNeeded();
  const table = calc.getByTestId('advantage-table');
  await expect(table).toBeVisible();
  // Default "1, 0, 0, 0; 1, 1, 0, 1": group 1 has mean 0.25 and std 0.5, so its first answer gets +1.500.
  await expect(cells(table, 'group').first()).toHaveText('+1.500');
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  expect(seen.scripts).toBeGreaterThan(0);
  expect(seen.tfjs).toEqual([]);

  const input = calc.getByRole('textbox', { name: /Rewards of one group/ });
  await input.fill('1, 0, 0, 1');
  // mean 0.5, unbiased std 0.577: ±0.5 / (0.577 + 1e-4) = ±0.866.
  await expect(cells(table, 'group')).toHaveText(['+0.866', '−0.866', '−0.866', '+0.866']);
  await expect(cells(table, 'batch')).toHaveText(['+0.866', '−0.866', '−0.866', '+0.866']);
  await expect(cells(table, 'none')).toHaveText(['+0.500', '−0.500', '−0.500', '+0.500']);
  await expect(calc.getByText('computing…')).toHaveCount(0);
  await expect(calc).toContainText("With one group the batch is that group");
  await expect(cells(table, 'group').first()).toHaveClass(/\bpos\b/);
  await expect(cells(table, 'group').nth(1)).toHaveClass(/\bneg\b/);
  await expectTfjsInWorkersOnly(page, seen); // loaded on demand, after the edit, off the main thread

  // Two groups: 'batch' divides by the std of all four rewards (0.5), 'group' by each group's own.
  await input.fill('1, 0; 1, 1');
  await expect(cells(table, 'group')).toHaveText(['+0.707', '−0.707', '0.000', '0.000']);
  await expect(cells(table, 'batch')).toHaveText(['+1.000', '−1.000', '0.000', '0.000']);
  await expect(calc).toContainText('every advantage is 0');

  const error = calc.locator('.widget-error');
  for (const [bad, message] of [
    ['1, x', /"x" is not a number/],
    ['', /Enter the rewards/],
    ['3', /at least two rewards/],
    ['1, 0; 1, 0, 1', /same number of rewards/],
    [Array(17).fill('1').join(', '), /At most 16 rewards/],
  ] as const) {
    await input.fill(bad);
    await expect(error).toHaveText(message);
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    // The last valid table stays, marked as such.
    await expect(cells(table, 'batch').first()).toHaveText('+1.000');
    await expect(table.locator('caption')).toContainText('last valid input');
  }
  await input.fill('0.2, 0.9, 0.5');
  await expect(error).toHaveCount(0);
  await expect(input).toHaveAttribute('aria-invalid', 'false');
  expect(seen.errors).toEqual([]);
});

test('the clip visualiser moves its clip boundary and flat region with the epsilon slider', async ({ page }) => {
  const seen = watch(page);
  await page.goto('/chapters/grpo/');
  const clip = page.locator('.clip-visualizer');
  await clip.scrollIntoViewIfNeeded();
  const negative = clip.locator('[data-advantage="negative"]');
  const low = negative.locator('line[data-boundary="low"]');
  await expect(low).toBeAttached();
  await expect(negative.locator('svg title')).toHaveText(/A = −1/);
  // Default ε = 0.2: for A = −1 the gradient is zero left of 1 − ε = 0.80.
  await expect(negative.locator('figcaption')).toContainText('gradient is zero for r < 0.80');
  await expect(clip.locator('[data-advantage="positive"] figcaption')).toContainText('gradient is zero for r > 1.20');
  // The readout at r = 1.40: A = +1 is past 1 + ε_high, so clipped; A = −1 is not (∂loss/∂log r = −r·A = +1.400).
  const readout = clip.locator('.clip-readout tbody tr');
  await expect(readout.first()).toContainText('clipped: no gradient');
  await expect(readout.nth(1)).toContainText('+1.400');
  const before = await low.getAttribute('x1');
  await page.waitForLoadState('networkidle');
  expect(seen.tfjs).toEqual([]);

  const slider = clip.getByRole('slider', { name: /^ε \(epsilon\)/ });
  await slider.focus();
  await page.keyboard.press('End');
  await expect(slider).toHaveValue('0.5');
  await expect(clip.getByTestId('clip-epsilon-value')).toHaveText('0.50');
  await expect(low).not.toHaveAttribute('x1', before!);
  await expect(negative.locator('text.clip-boundary-label').first()).toHaveText('1−ε = 0.50');
  await expect(negative.locator('figcaption')).toContainText('gradient is zero for r < 0.50');
  await expect(negative.locator('.clip-flat')).toHaveAttribute('data-flat', '0.00-0.50');
  await expect(clip.getByText('computing…')).toHaveCount(0);
  await expectTfjsInWorkersOnly(page, seen);

  // ε_high moves only the upper boundary; the readout at r = 1.40 then shows A = +1 unclipped.
  const high = clip.locator('[data-advantage="positive"] line[data-boundary="high"]');
  const highBefore = await high.getAttribute('x1');
  const sliderHigh = clip.getByRole('slider', { name: /^εhigh/ });
  await sliderHigh.focus();
  await page.keyboard.press('End');
  await expect(high).not.toHaveAttribute('x1', highBefore!);
  await expect(clip.locator('[data-advantage="positive"] figcaption')).toContainText('gradient is zero for r > 1.50');
  await expect(readout.first()).toContainText('−1.400'); // now unclipped: ∂loss/∂log r = −r·A
  await expect(readout.first()).not.toContainText('clipped');
  expect(seen.errors).toEqual([]);
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violations in the widgets (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/chapters/grpo/');
    await expect(page.locator('.advantage-calculator')).toBeVisible();
    await page.locator('.advantage-calculator input').fill('1, x'); // include the error state
    await expect(page.locator('.widget-error')).toBeVisible();
    const { violations } = await (await axeOn(page)).include('.widget').analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target})`)).toEqual([]);
  });
}

test('the advantage calculator keeps what the reader typed before its own chunk arrived', async ({ page }) => {
  const { release } = await holdChunks(page, 'advantage-calculator');
  await page.goto('/chapters/grpo/');
  const input = page.locator('.advantage-calculator input[data-field="rewards"]');
  await input.fill('1, 0, 0, 1');
  await release();
  await expect(page.locator('.advantage-calculator')).toContainText('+0.866', { timeout: budget(30_000) });
  await expect(input).toHaveValue('1, 0, 0, 1');
});
