import { expect, test } from '@playwright/test';
import { axeOn } from './axe';
import { BROKEN_EXAMPLES, pretty, TWO_CALL_TRAJECTORY } from '../../lib/agentdata/examples';
import { approach, holdChunks, watch } from './watch';
import { budget } from './budget';

const URL = '/chapters/agent-data/';

test('the default trajectory shows its lab tokens and loss mask, from the static HTML on, without tfjs', async ({ page, request }) => {
  // Computed at build time: the token view is in the HTML before any script runs.
  const html = await (await request.get(URL)).text();
  expect(html).toContain('data-testid="lab-tokens"');
  expect(html).toContain('Valid: 1 trajectory, no errors.');

  const seen = watch(page);
  const validatorChunks: string[] = [];
  page.on('response', async (response) => {
    if (!response.url().endsWith('.js')) return;
    const body = await response.text().catch(() => '');
    if (body.includes('missing_tool_result')) validatorChunks.push(response.url());
  });
  await page.goto(URL);
  const widget = page.locator('.trajectory-validator');
  await widget.scrollIntoViewIfNeeded();
  const tokens = widget.locator('.tv-tokens > li');
  await expect(tokens).toHaveCount(49);
  await expect(tokens.first()).toHaveAttribute('data-role', 'prompt');
  await expect(tokens.first()).toContainText('<bos>');
  await expect(widget.locator('.tv-tokens > li[data-mask="1"]')).toHaveCount(28);
  // Tool results: mask 0 and struck through (not colour alone), and said in words by the legend.
  const observations = widget.locator('.tv-tokens > li[data-role="observation"]');
  await expect(observations).toHaveCount(10);
  await expect(observations.locator('s')).toHaveCount(10);
  await expect(observations.locator('.tok-mask').first()).toHaveText('0');
  await expect(widget.locator('.tv-legend')).toContainText('not trained on (mask 0): a tool result, struck through');
  await expect(widget.getByTestId('trained-text')).toHaveText('[23*47][1081+512] #### 1593<eos>');
  await expect(widget.getByTestId('observation-text')).toHaveText('=1081=1593');
  await page.waitForLoadState('networkidle');
  expect(seen.scripts).toBeGreaterThan(0);
  expect(seen.tfjs).toEqual([]);
  // The validator itself arrives only when the reader asks for it.
  expect(validatorChunks).toEqual([]);
  await approach(widget);
  await page.locator('.trajectory-validator[data-ready]').getByRole('button', { name: 'Validate' }).click();
  await expect(widget.getByTestId('tv-status')).toHaveText('Valid: 1 trajectory, no errors.');
  await expect.poll(() => validatorChunks.length).toBeGreaterThan(0);
  await expect(tokens).toHaveCount(49);
  expect(seen.errors).toEqual([]);
});

test('each malformed case, pasted and validated, shows its error code', async ({ page }) => {
  const seen = watch(page);
  await page.goto(URL);
  await approach(page.locator('.trajectory-validator'));
  const widget = page.locator('.trajectory-validator[data-ready]'); // hydrated: Validate responds
  const area = widget.getByRole('textbox', { name: /Trajectory/ });
  const validate = widget.getByRole('button', { name: 'Validate' });
  for (const example of BROKEN_EXAMPLES) {
    await area.fill(example.text);
    await expect(widget.locator('.tv-edited')).toBeVisible();
    await validate.click();
    await expect(widget.getByTestId('tv-status')).toHaveText(/^\d+ errors?( in 1 trajectory|; nothing was checked)\.$/);
    await expect(widget.locator(`.tv-errors li[data-code="${example.code}"]`).first()).toBeVisible();
    await expect(widget.getByTestId('lab-tokens')).toHaveCount(0);
  }
  // JSONL: a bad second line is reported with its line number.
  await area.fill(`${JSON.stringify(TWO_CALL_TRAJECTORY)}\n{"messages": [`);
  await validate.click();
  await expect(widget.locator('.tv-errors li[data-code="invalid_json"]')).toContainText('line 2');
  // The example menu loads and validates in one step.
  await widget.getByLabel('Load an example').selectOption({ label: 'Valid: two calculator calls' });
  await expect(widget.getByTestId('tv-status')).toHaveText('Valid: 1 trajectory, no errors.');
  await expect(area).toHaveValue(pretty(TWO_CALL_TRAJECTORY));
  expect(seen.errors).toEqual([]);
});

test('a 2 MB paste gets a size error at once and the page stays responsive', async ({ page }) => {
  await page.goto(URL);
  await approach(page.locator('.trajectory-validator'));
  const widget = page.locator('.trajectory-validator[data-ready]');
  const area = widget.getByRole('textbox', { name: /Trajectory/ });
  const big = `{"messages": "${'x'.repeat(2 * 1024 * 1024)}"}`;
  // Set the value as a paste would, in one input event, rather than typing two million keys.
  await area.evaluate((el, text) => {
    (el as HTMLTextAreaElement).value = text;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, big);
  const started = Date.now();
  await widget.getByRole('button', { name: 'Validate' }).click();
  const error = widget.locator('.tv-errors li[data-code="too_large"]');
  await expect(error).toContainText('2,097,168 characters; the limit is 1,000,000 (about 1 MB)');
  expect(Date.now() - started).toBeLessThan(budget(5_000));
  await expect(widget.getByTestId('tv-status')).toHaveText('1 error; nothing was checked.');
  // Still responsive: the main thread answers, and the widget keeps working.
  const t0 = Date.now();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  expect(Date.now() - t0).toBeLessThan(budget(1_000));
  await widget.getByLabel('Load an example').selectOption({ label: 'Valid: two calculator calls' });
  await expect(widget.getByTestId('tv-status')).toHaveText('Valid: 1 trajectory, no errors.');
});

test('HTML and script in a trajectory are shown as text, never run', async ({ page }) => {
  await page.goto(URL);
  await approach(page.locator('.trajectory-validator'));
  const widget = page.locator('.trajectory-validator[data-ready]');
  const hostileName = '<img src=x onerror=window.__xss=1>';
  const t = JSON.parse(JSON.stringify(TWO_CALL_TRAJECTORY));
  t.messages[1].tool_calls[0].function.name = hostileName;
  t.messages[5].content = '<script>window.__xss=2</script><b>x</b>';
  await widget.getByRole('textbox', { name: /Trajectory/ }).fill(JSON.stringify(t));
  await widget.getByRole('button', { name: 'Validate' }).click();
  await expect(widget.locator('.tv-errors li[data-code="unknown_tool"]')).toContainText(hostileName);
  // Valid apart from the tool name? Fix it and see the unconvertible answer quoted as text.
  t.messages[1].tool_calls[0].function.name = 'calculator';
  await widget.getByRole('textbox', { name: /Trajectory/ }).fill(JSON.stringify(t));
  await widget.getByRole('button', { name: 'Validate' }).click();
  await expect(widget.getByTestId('tv-unconvertible')).toContainText('"<script>window.__xss=2</script><b>x</b>"');
  await expect(widget.locator('img, script, b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});

test('text typed before the widget hydrates stays, and is flagged as not yet checked', async ({ page }) => {
  const { release } = await holdChunks(page, 'tv-validate');
  await page.goto(URL);
  const area = page.locator('.trajectory-validator textarea');
  await area.fill('{"messages": []}');
  await release();
  const widget = page.locator('.trajectory-validator[data-ready]');
  await expect(widget.locator('.tv-edited')).toBeVisible({ timeout: budget(30_000) });
  await expect(area).toHaveValue('{"messages": []}');
  await widget.getByRole('button', { name: 'Validate' }).click();
  await expect(widget.locator('.tv-errors li[data-code="invalid_shape"]')).toContainText('"messages" is empty');
  await page.unrouteAll({ behavior: 'ignoreErrors' }); // prefetches may still be in flight as the page closes
});

test('axe finds no serious or critical violations in the validator, with errors and with tokens', async ({ page }) => {
  await page.goto(URL);
  await approach(page.locator('.trajectory-validator'));
  const widget = page.locator('.trajectory-validator[data-ready]');
  await expect(widget.getByTestId('lab-tokens')).toBeVisible();
  const check = async () => {
    const { violations } = await (await axeOn(page)).include('.trajectory-validator').analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target})`)).toEqual([]);
  };
  await check();
  await widget.getByLabel('Load an example').selectOption({ index: 3 });
  await expect(widget.locator('.tv-errors li').first()).toBeVisible();
  await check();
});

test('on a phone the chapter and its validator fit the screen', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(URL);
  await page.locator('.trajectory-validator').scrollIntoViewIfNeeded();
  await expect(page.locator('.trajectory-validator .tv-tokens > li')).toHaveCount(49);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await context.close();
});
