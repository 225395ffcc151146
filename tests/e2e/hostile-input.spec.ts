/**
 * Links, files and stored values from outside, as a careless or hostile user sends them: no page breaks, every
 * problem gets a short notice, the lab still trains, and tfjs never loads on the page's main thread.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { labSettled } from './boot';
import { expectTfjsInWorkersOnly, watch } from './watch';
import { budget } from './budget';

const status = (page: Page) => page.getByRole('status');

function pageErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Each link, and the field its notices must name (null: nothing to report, e.g. unreadable keys are dropped). */
const HOSTILE_LINKS: [string, RegExp | null][] = [
  ['?%ZZ=1', null],
  ['?%E0%A4%A=1', null],
  ['?loss_type=%ED%A0%80', /loss_type/],
  ['?preset=__proto__&constructor=x&toString=1', /preset/],
  ['?beta=0x10&num_generations=0b11&seed=%2B5&max_steps=007', /beta/],
  [`?beta=${'9'.repeat(12_000)}`, /beta/],
  [`?${Array.from({ length: 400 }, (_, i) => `beta=bad${i}&temperature=x${i}`).join('&')}`, /beta/],
];

test.describe('hostile lab links', () => {
  for (const [query, named] of HOSTILE_LINKS) {
    test(`${query.length > 50 ? `${query.slice(0, 50)}… (${query.length} chars)` : query}: the lab loads, says what it ignored, and trains`, async ({ page }) => {
      const errors = pageErrors(page);
      await page.goto(`/labs/grpo/${query}`);
      await labSettled(page); // the link's settings read, and its notices out
      await expect(page.getByRole('button', { name: 'Train', exact: true })).toBeEnabled();
      const notices = page.locator('.lab-notice');
      expect(await notices.count()).toBeLessThanOrEqual(5);
      const texts = await notices.allTextContents();
      for (const text of texts) expect(text.length).toBeLessThan(300);
      if (named) expect(texts.join(' '), 'a notice names what was ignored').toMatch(named);
      else expect(texts, 'an unreadable key is dropped without a notice').toEqual([]);
      await page.getByLabel('max_steps').fill('1');
      await page.getByLabel('max_steps').blur();
      await page.getByRole('button', { name: 'Train', exact: true }).click();
      await expect(status(page)).toContainText(/step 1 .*finished/, { timeout: budget(60_000) });
      expect(errors).toEqual([]);
    });
  }

  test('a lab trains with no tfjs on the page’s main thread (it lives in the worker)', async ({ page }) => {
    const seen = watch(page);
    await page.goto('/labs/ppo/?max_steps=2');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect(status(page)).toContainText(/step 2 .*finished/, { timeout: budget(60_000) });
    await expectTfjsInWorkersOnly(page, seen);
  });
});

/** A legal run export of `steps` GRPO steps, as the lab writes it. */
function longRun(steps: number): string {
  const history = [];
  for (let step = 1; step <= steps; step++) history.push({ step, kind: 'train', metrics: { reward: (step % 97) / 97, loss: 0.1, entropy: 0.3 } });
  return JSON.stringify({ format: 'agentic-rl-lab/run', version: 1, trainer: 'grpo', settings: { seed: 3 }, history });
}

test.describe('run imports', () => {
  test('a file over the size limit is refused by its size, before it is read', async ({ page }, testInfo) => {
    const errors = pageErrors(page);
    await page.goto('/labs/grpo/');
    // Count reads of the file's contents: there must be none.
    await page.evaluate(() => {
      const w = window as unknown as { fileReads: number };
      w.fileReads = 0;
      const text = Blob.prototype.text;
      Blob.prototype.text = function (this: Blob) {
        w.fileReads += 1;
        return text.call(this);
      };
    });
    // A file on disk, not a buffer: Playwright sends a buffer's bytes to the browser (half a minute for 50 MB), a path
    // it only names, as a reader's file picker does.
    const huge = testInfo.outputPath('huge.json');
    fs.writeFileSync(huge, Buffer.alloc(50_000_000, 32));
    await page.getByLabel('Import run').setInputFiles(huge);
    await expect(page.getByText(/Could not import huge.json: it is 50.0 MB, and a run export is at most 5 MB\. Nothing was changed\./)).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { fileReads: number }).fileReads)).toBe(0);
    expect(errors).toEqual([]);
  });

  test('a legal 40,000-step run imports and the page stays responsive', async ({ page }) => {
    const errors = pageErrors(page);
    await page.goto('/labs/grpo/');
    const text = longRun(40_000);
    expect(text.length).toBeLessThan(5_000_000);
    await page.getByLabel('Import run').setInputFiles({ name: 'long.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await expect(page.getByText(/Imported long.json: 40000 steps/)).toBeVisible({ timeout: budget(15_000) });
    // The charts draw a thinned line and say so; the page answers a click at once.
    const reward = page.getByRole('figure', { name: 'Reward (mean and std)' });
    await expect(reward).toContainText(/every (\d+(st|nd|rd|th)|[a-z]+) step drawn/);
    const clickedAt = Date.now();
    await reward.getByText('Data table').click();
    await expect(reward.locator('.metric-table-pager')).toContainText('rows 1–100 of 40000');
    expect(Date.now() - clickedAt).toBeLessThan(budget(2_000));
    await expect(reward.locator('tbody tr')).toHaveCount(100);
    await reward.getByRole('button', { name: 'Next' }).click();
    await expect(reward.locator('tbody tr').first().locator('th')).toHaveText('101');
    expect(await page.evaluate(() => document.querySelectorAll('*').length)).toBeLessThan(10_000);
    expect(errors).toEqual([]);
  });

  test('settings named after Object’s own properties are refused by name', async ({ page }) => {
    await page.goto('/labs/grpo/');
    const file = JSON.stringify({ format: 'agentic-rl-lab/run', version: 1, trainer: 'grpo', settings: { toString: 1 }, history: [] });
    await page.getByLabel('Import run').setInputFiles({ name: 'proto.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await expect(page.getByText(/Could not import proto.json: its settings name an unknown field "toString"\. Nothing was changed\./)).toBeVisible();
  });
});
