/**
 * What keeps chapter pages light (README, "How a chapter page stays light"), checked on the built site: HTML within
 * budget with the prose in it once, formulas as MathML, and no widget or quiz code until the reader comes to one.
 */
import { expect, test } from '@playwright/test';
import { goLive } from './boot';
import { holdChunks } from './watch';

const HTML_BUDGET_BYTES = 300 * 1024;

async function chapterPaths(request: import('@playwright/test').APIRequestContext): Promise<string[]> {
  const xml = await (await request.get('/sitemap.xml')).text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname).filter((p) => p.startsWith('/chapters/'));
}

test('every chapter page is at most 300 KB of HTML, and its prose is in it once, not again in the RSC payload', async ({ request }) => {
  const paths = await chapterPaths(request);
  expect(paths.length).toBeGreaterThanOrEqual(9);
  for (const path of paths) {
    const html = await (await request.get(path)).text();
    expect(Buffer.byteLength(html), path).toBeLessThanOrEqual(HTML_BUDGET_BYTES);
    // The first paragraph of the prose: printed once (the payload only names the block that holds it).
    const paragraph = /<div class="static-html">[\s\S]*?<p>([^<]{40,}?)</.exec(html)?.[1];
    expect(paragraph, `${path}: a static block starting with a paragraph`).toBeTruthy();
    expect(html.split(paragraph!.slice(0, 40)).length - 1, path).toBe(1);
  }
});

test('formulas are MathML, with no second visual copy, and display formulas scroll by keyboard', async ({ page }) => {
  await page.goto('/chapters/grpo/');
  expect(await page.locator('.katex math').count()).toBeGreaterThan(50);
  await expect(page.locator('.katex-html')).toHaveCount(0);
  const display = page.locator('.katex-display').first();
  await expect(display).toHaveAttribute('tabindex', '0');
  await expect(display.locator('math')).toHaveAttribute('display', 'block');
  // \mathbb{E} is drawn as its Unicode letter: MathML Core ignores mathvariant="double-struck".
  expect(await page.locator('math mi[mathvariant="double-struck"]').count()).toBe(0);
  expect(await page.locator('math mi', { hasText: '𝔼' }).count()).toBeGreaterThan(0);
});

test('a widget and a quiz load no code until the reader comes to them, then work', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (response.url().endsWith('.js')) scripts.push(await response.text().catch(() => ''));
  });
  await page.goto('/chapters/grpo/');
  await page.mouse.wheel(0, 20000); // scrolled past everything, pointer on the header
  await page.waitForLoadState('networkidle');
  // The class names below occur only in the islands' own code (and in the HTML, which is not a script).
  expect(scripts.filter((s) => s.includes('advantage-table') || s.includes('quiz-feedback'))).toEqual([]);

  const calc = page.locator('.advantage-calculator');
  await calc.scrollIntoViewIfNeeded();
  await calc.hover();
  await expect.poll(() => scripts.some((s) => s.includes('advantage-table'))).toBe(true);
  await calc.getByRole('textbox').fill('1, 0, 0, 1');
  await expect(calc.locator('tbody td[data-scale="group"]').first()).toHaveText('+0.866');

  const quiz = page.locator('form.quiz').first();
  await quiz.scrollIntoViewIfNeeded();
  await quiz.locator('.quiz-choice').first().click(); // before its code has arrived: the choice is kept
  await expect(quiz.getByRole('button', { name: 'Check answer' })).toBeEnabled();
  await expect.poll(() => scripts.some((s) => s.includes('quiz-feedback'))).toBe(true);
  await quiz.getByRole('button', { name: 'Check answer' }).click();
  await expect(quiz.locator('.quiz-feedback')).toBeVisible();
});

test('a button pressed before its widget\'s code arrived is pressed again once the widget is live', async ({ page }) => {
  const { release } = await holdChunks(page, 'ring-phase');
  await page.goto('/chapters/distributed-training/');
  const ring = page.locator('.ring-allreduce');
  await ring.scrollIntoViewIfNeeded();
  await ring.getByRole('button', { name: 'Next step' }).click(); // server HTML: nothing happens yet
  await expect(ring.getByTestId('ring-phase')).toContainText('Start');
  await release();
  await expect(ring.getByTestId('ring-phase')).toContainText('Reduce-scatter, step 1 of 3');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('a button pressed while its widget hydrates counts once', async ({ page }) => {
  // Between hydrateRoot and the island's first commit, the page's React sees the island as not yet hydrated: a click
  // then was dropped (and once, in a full run on a loaded machine, counted twice).
  await page.goto('/chapters/distributed-training/');
  await goLive(page);
  const ring = page.locator('.ring-allreduce');
  await ring.scrollIntoViewIfNeeded();
  // The press lands while the island says it is hydrating (its own data-island attribute: no framework field is read).
  const pressedWhile = await page.evaluate(
    () =>
      new Promise<string | undefined>((resolve) => {
        const island = document.querySelector('.ring-allreduce')!.closest<HTMLElement>('.island')!;
        const button = [...island.querySelectorAll('button')].find((b) => b.textContent === 'Next step')!;
        // Called right after hydrateRoot, in the same task: the press lands before React renders anything.
        new MutationObserver(() => {
          if (island.dataset.island !== 'hydrating') return;
          const state = island.dataset.island;
          button.click();
          resolve(state);
        }).observe(island, { attributes: true, attributeFilter: ['data-island'] });
        island.dispatchEvent(new Event('focusin', { bubbles: true })); // wakes the island
      }),
  );
  expect(pressedWhile, 'pressed inside the window: the island is hydrating').toBe('hydrating');
  // The replay runs in the same microtask that marks the island live, so by then any second press has happened.
  await expect(page.locator('.island[data-island="live"]', { has: ring })).toHaveCount(1);
  await expect(ring.getByTestId('ring-phase')).toContainText('Reduce-scatter, step 1 of 3');
});
