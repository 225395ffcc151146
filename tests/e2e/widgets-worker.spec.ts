import { expect, test, type Page } from '@playwright/test';
import { routeWhileOpen } from './routes';
import { expectTfjsInWorkersOnly, watch } from './watch';

// Query strings that decodeURIComponent rejects: a bad escape, a truncated UTF-8 sequence, a lone surrogate.
// tfjs decodes every query parameter of its global's location when it loads, so on the main thread these broke the widgets.
const MALFORMED = ['?%ZZ=1', '?%E0%A4%A=1', '?x=%ED%A0%80'];

/** Each chapter with numeric widgets, and an edit of each widget with the value it must recompute. */
const CHAPTERS: { path: string; widgets: string[]; edit: (page: Page) => Promise<void> }[] = [
  {
    path: '/chapters/grpo/',
    widgets: ['.advantage-calculator', '.clip-visualizer'],
    async edit(page) {
      const calc = page.locator('.advantage-calculator');
      // Key by key, so that the worker gets several edits in a row: the newest must win.
      await calc.getByRole('textbox').clear();
      await calc.getByRole('textbox').pressSequentially('1, 0, 0, 1');
      // mean 0.5, unbiased std 0.577: ±0.5 / (0.577 + 1e-4) = ±0.866.
      await expect(calc.locator('tbody td[data-scale="group"]')).toHaveText(['+0.866', '−0.866', '−0.866', '+0.866']);
      const clip = page.locator('.clip-visualizer');
      await clip.getByRole('slider', { name: /^ε \(epsilon\)/ }).focus();
      await page.keyboard.press('End');
      await expect(clip.locator('[data-advantage="negative"] figcaption')).toContainText('gradient is zero for r < 0.50');
    },
  },
  {
    path: '/chapters/ppo/',
    widgets: ['.gae-calculator'],
    async edit(page) {
      const calc = page.locator('.gae-calculator');
      await calc.getByRole('slider', { name: /^γ/ }).focus();
      await page.keyboard.press('Home');
      // γ = 0: A_t = δ_t = r_t − V(s_t) for rewards 0, 0, 1, 0, 1 and values .5, .6, .8, .4, .7.
      await expect(calc.locator('tbody td[data-col="advantage"]')).toHaveText(['−0.500', '−0.600', '+0.200', '−0.400', '+0.300']);
    },
  },
  {
    path: '/chapters/dpo/',
    widgets: ['.dpo-explorer'],
    async edit(page) {
      const dpo = page.locator('.dpo-explorer');
      await dpo.getByRole('slider', { name: /^β/ }).focus();
      await page.keyboard.press('End');
      // β = 1 at z = 2: −log σ(2) = 0.1269.
      await expect(dpo.locator('tr[data-loss-type="sigmoid"] td[data-col="loss"]')).toHaveText('0.1269');
      await expect(dpo.getByTestId('dpo-margin')).toHaveText('2.0000');
    },
  },
];

for (const query of MALFORMED) {
  test(`with ${query} in the URL every numeric widget recomputes, with tfjs in a worker only`, async ({ page }) => {
    const seen = watch(page);
    for (const chapter of CHAPTERS) {
      await page.goto(chapter.path + query);
      await chapter.edit(page);
      for (const widget of chapter.widgets) {
        await expect(page.locator(widget).getByText('computing…')).toHaveCount(0);
        await expect(page.locator(widget).locator('.widget-error')).toHaveCount(0);
      }
      await expectTfjsInWorkersOnly(page, seen);
      expect(page.workers()).toHaveLength(1); // one worker per page, however many widgets
      seen.tfjs.length = 0; // the next page loads its own
    }
    expect(seen.errors).toEqual([]);
  });
}

test('a widget whose worker cannot start says so, keeps its last good result, and retries on the next edit', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  let block = true;
  await routeWhileOpen(
    page,
    (url) => url.pathname.includes('/turbopack-worker-'),
    (route) => (block ? route.fulfill({ status: 404, body: 'gone' }) : route.fallback()),
  );
  await page.goto('/chapters/grpo/');
  const calc = page.locator('.advantage-calculator');
  const group = calc.locator('tbody td[data-scale="group"]');
  await expect(group.first()).toHaveText('+1.500'); // the build-time table
  await calc.getByRole('textbox').fill('1, 0, 0, 1');
  await expect(calc.locator('.widget-error')).toHaveText(/^Could not load the calculator \(.+\)\.$/);
  await expect(group.first()).toHaveText('+1.500');
  await expect(calc.getByText('computing…')).toHaveCount(0);

  block = false;
  await calc.getByRole('textbox').fill('1, 1, 0, 0');
  await expect(group).toHaveText(['+0.866', '+0.866', '−0.866', '−0.866']);
  await expect(calc.locator('.widget-error')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
