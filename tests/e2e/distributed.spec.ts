import { expect, test, type Page } from '@playwright/test';
import { axeOn } from './axe';
import { holdChunks, TFJS_MARKER, watch } from './watch';
import { budget } from './budget';

const PAGE = '/chapters/distributed-training/';

/** Scripts the page's main thread fetched (a worker's fetches are in the worker's own timeline, not here). */
async function mainThreadScripts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'script' || e.name.split('?')[0].endsWith('.js'))
      .map((e) => e.name),
  );
}

test('the memory calculator shows its default layout in the HTML and recomputes for other models and layouts, without tfjs', async ({ page, request }) => {
  const html = await (await request.get(PAGE)).text();
  expect(html).toContain('data-testid="memory-verdict"');
  expect(html).toContain('Fits: 62.4 of 80 GB'); // Llama-3.1-8B, 8 GPUs, ZeRO-1, selective recomputation, 4096 tokens

  const seen = watch(page);
  await page.goto(PAGE);
  const calc = page.locator('.memory-calculator');
  await calc.scrollIntoViewIfNeeded();
  const verdict = calc.getByTestId('memory-verdict');
  await expect(verdict).toContainText('Fits: 62.4 of 80 GB');
  const row = (part: string) => calc.locator(`[data-testid="memory-table"] tr[data-part="${part}"] td`);
  await expect(row('weights')).toHaveText('16.1');
  await expect(row('optimizer')).toHaveText('12.0');
  await expect(row('activations')).toHaveText('18.3');

  // Plain DP: the 12Ψ of Adam state is no longer sharded, and the verdict names it.
  await calc.getByRole('radio', { name: 'none', exact: true }).check();
  await expect(verdict).toContainText('Does not fit: 147 GB per GPU, 66.7 GB more');
  await expect(verdict).toContainText('ZeRO-1 shards it');
  await expect(row('optimizer')).toHaveText('96.4');

  // Llama-3.1-70B on 64 GPUs: TP 8 × PP 4 × DP 2 with sequence parallelism and ZeRO-1 fits.
  await calc.getByRole('radio', { name: '1', exact: true }).check();
  await calc.getByLabel('Model', { exact: true }).selectOption('llama-3.1-70b');
  await expect(verdict).toContainText('Does not fit');
  await calc.getByLabel(/Data-parallel size/).selectOption('2');
  await calc.getByLabel(/Tensor-parallel size/).selectOption('8');
  await calc.getByLabel(/Pipeline-parallel size/).selectOption('4');
  await calc.getByLabel(/Micro-batches per step/).selectOption('16');
  await calc.getByLabel(/Sequence parallelism/).check();
  await expect(verdict).toContainText('Fits: 34.1 of 80 GB');
  await expect(calc).toContainText('64 GPUs');
  await expect(calc.getByTestId('memory-bar').locator('g[data-part]')).toHaveCount(4);
  // ZeRO-3 with pipeline stages works on paper; the calculator says which frameworks refuse it.
  await calc.getByRole('radio', { name: '3', exact: true }).check();
  await expect(calc).toContainText('accepts only ZeRO stage 0 or 1');

  await page.waitForLoadState('networkidle');
  expect(seen.scripts).toBeGreaterThan(0);
  expect(seen.tfjs).toEqual([]);
  expect(seen.errors).toEqual([]);
});

test('the pipeline timeline draws each schedule and its bubble shrinks as micro-batches grow', async ({ page }) => {
  const seen = watch(page);
  await page.goto(PAGE);
  const pp = page.locator('.pipeline-timeline');
  await pp.scrollIntoViewIfNeeded();
  const bubble = pp.getByTestId('pp-bubble');
  const blocks = pp.locator('[data-testid="pipeline-chart"] g.pp-op');
  // 1F1B, p = 4, m = 8: 3/11 idle, simulated and by formula; a forward and a backward per stage and micro-batch.
  await expect(bubble).toContainText('idle 27.3% of the time');
  await expect(pp.getByTestId('pp-formula')).toHaveText('27.3%');
  await expect(blocks).toHaveCount(2 * 4 * 8);
  await expect(pp.locator('[data-testid="pp-table"] tbody tr').first().locator('td').last()).toHaveText('4'); // stage 1 holds p = 4

  const slider = pp.getByRole('slider', { name: /Micro-batches m/ });
  await slider.focus();
  await page.keyboard.press('End');
  await expect(pp.getByTestId('pp-m-value')).toHaveText('32');
  await expect(bubble).toContainText('idle 8.6% of the time');
  await expect(blocks).toHaveCount(2 * 4 * 32);

  // GPipe: the same bubble, but every micro-batch's activations held at once.
  await pp.getByRole('radio', { name: 'GPipe' }).check();
  await expect(bubble).toContainText('idle 8.6% of the time');
  await expect(pp.locator('[data-testid="pp-table"] tbody tr').first().locator('td').last()).toHaveText('32');

  // Interleaved, v = 2, m = 8: (p − 1)/(v·m + p − 1) = 3/19.
  await pp.getByRole('radio', { name: 'Interleaved 1F1B' }).check();
  await slider.fill('8');
  await expect(pp.getByTestId('pp-m-value')).toHaveText('8');
  await expect(bubble).toContainText('idle 15.8% of the time');
  await expect(pp.getByTestId('pp-formula')).toHaveText('15.8%');
  await expect(blocks).toHaveCount(2 * 4 * 8 * 2);
  // The interleaved schedule needs m to be a multiple of p: with 3 stages the slider moves in steps of 3.
  await pp.getByLabel('Stages p').selectOption('3');
  await expect(pp.getByTestId('pp-m-value')).toHaveText('9');
  expect(seen.tfjs).toEqual([]);
  expect(seen.errors).toEqual([]);
});

test('the ring all-reduce steps through reduce-scatter and all-gather to the sum on every worker', async ({ page }) => {
  const seen = watch(page);
  await page.goto(PAGE);
  const ring = page.locator('.ring-allreduce');
  await ring.scrollIntoViewIfNeeded();
  const table = ring.getByTestId('ring-table');
  const next = ring.getByRole('button', { name: 'Next step' });
  // Worker i starts with (i + 1)(c + 1) in chunk c.
  await expect(table.locator('tbody tr').nth(2).locator('td')).toHaveText(['3', '6', '9', '12']);
  await next.click();
  await expect(ring.getByTestId('ring-phase')).toContainText('Reduce-scatter, step 1 of 3');
  await expect(ring.locator('[data-testid="ring-diagram"] g.ring-transfer')).toHaveCount(4);
  // Worker 1 sent its chunk 1 (value 1) to worker 2, which now holds 2 + 1 = 3 there.
  await expect(table.locator('tbody tr').nth(1).locator('td').first()).toHaveText(/^3/);
  await expect(ring.getByTestId('ring-bytes')).toContainText('1 chunk = 4.0 GB');
  for (let i = 0; i < 5; i++) await next.click();
  await expect(ring.getByTestId('ring-phase')).toContainText('All-gather, step 3 of 3');
  await expect(next).toBeDisabled();
  for (let w = 0; w < 4; w++) await expect(table.locator('tbody tr').nth(w).locator('td')).toHaveText([/^10/, /^20/, /^30/, /^40/]);
  // 2(N − 1)/N of Llama-3.1-8B's 16.06 GB of bf16 gradients.
  await expect(ring.getByTestId('ring-bytes')).toContainText('6 chunks = 24.1 GB');
  await expect(ring.getByTestId('ring-bytes')).toContainText('= 24.1 GB');

  await ring.getByLabel('Workers N').selectOption('2');
  await expect(ring.getByTestId('ring-phase')).toContainText('Start');
  await next.click();
  await next.click();
  await expect(next).toBeDisabled();
  await expect(table.locator('tbody tr').first().locator('td')).toHaveText([/^3/, /^6/]);
  expect(seen.tfjs).toEqual([]);
  expect(seen.errors).toEqual([]);
});

test('the demonstration runs in a worker on the button, and sharded equals unsharded to float32 precision', async ({ page, request }) => {
  test.setTimeout(budget(180_000));
  const seen = watch(page);
  await page.goto(PAGE);
  const demo = page.locator('.dist-demo');
  await demo.scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  // Nothing of tfjs before the reader asks.
  expect(seen.tfjs).toEqual([]);
  expect(page.workers()).toHaveLength(0);
  await expect(demo.locator('tr[data-pending="true"]')).toHaveCount(3);

  await demo.getByRole('button', { name: 'Run the three demonstrations' }).click();
  await expect(demo.getByTestId('demo-status')).toContainText('Done on tfjs', { timeout: budget(150_000) });
  await expect(demo.getByTestId('demo-status')).toContainText('tensors left behind: 0');
  expect(page.workers().length).toBeGreaterThan(0);

  const max = async (row: string) => Number(await demo.locator(`tr[data-row="${row}"]`).getAttribute('data-max'));
  for (const row of ['dp', 'tp', 'zero']) {
    const value = await max(row);
    expect(value, row).toBeGreaterThanOrEqual(0);
    expect(value, row).toBeLessThan(1e-5);
    await expect(demo.locator(`tr[data-row="${row}"] td.adv`)).toHaveText('equal (< 1.0e−5)');
  }
  // The contrasts differ by far more than rounding.
  expect(await max('dp-pitfall')).toBeGreaterThan(1e-4);
  expect(await max('tp-contrast')).toBeGreaterThan(1e-2);
  await expect(demo.locator('tr[data-row="zero-clipped"]')).toBeAttached();

  // tfjs arrived, but in the worker: no script the main thread fetched contains it.
  await expect.poll(() => seen.tfjs.length).toBeGreaterThan(0);
  const scripts = await mainThreadScripts(page);
  expect(scripts.length).toBeGreaterThan(0);
  for (const url of scripts) expect((await (await request.get(url)).text()).includes(TFJS_MARKER), url).toBe(false);
  // The results table is accessible too.
  const { violations } = await (await axeOn(page)).include('.dist-demo').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  expect(seen.errors).toEqual([]);
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violations in chapter 3's widgets (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(PAGE);
    await expect(page.locator('.memory-calculator')).toBeVisible();
    await page.locator('.ring-allreduce').getByRole('button', { name: 'Next step' }).click();
    const { violations } = await (await axeOn(page)).include('.memory-calculator').include('.pipeline-timeline').include('.ring-allreduce').include('.dist-demo').analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target})`)).toEqual([]);
  });
}

test('the memory calculator keeps a choice made before its own chunk arrived', async ({ page }) => {
  const { release } = await holdChunks(page, 'memory-calculator');
  await page.goto(PAGE);
  const calc = page.locator('.memory-calculator');
  await calc.locator('select[data-field="model"]').selectOption('qwen3-0.6b');
  await calc.locator('input[data-field="zero"][value="0"]').check();
  await release();
  // Qwen3-0.6B, plain DP: 16Ψ = 9.54 GB of model states plus 4.0 GB of activations.
  await expect(calc.getByTestId('memory-verdict')).toContainText('Fits: 13.5 of 80 GB', { timeout: budget(30_000) });
  await expect(calc.locator('select[data-field="model"]')).toHaveValue('qwen3-0.6b');
});

test('chapter 3 fits a phone screen and has no serious accessibility violations', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(PAGE);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const { violations } = await (await axeOn(page)).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes[0]?.target})`)).toEqual([]);
  await context.close();
});
