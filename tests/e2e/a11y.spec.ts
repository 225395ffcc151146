import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { seriousViolations } from './axe';
import { goLive } from './boot';
import { budget } from './budget';

// Every page of the sitemap, booted (React live, as a reader who has moved the mouse sees it) with every <details>
// open, in both themes: no serious or critical axe violation. State-specific checks (an exercise's result, a graded
// class) stay beside the tests that make those states.
const PAGES = [...fs.readFileSync('out/sitemap.xml', 'utf8').matchAll(/<loc>[a-z]+:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((m) => m[1]);

test('the sitemap lists every kind of page', () => {
  expect(PAGES).toContain('/');
  expect(PAGES.filter((p) => p.startsWith('/chapters/')).length).toBeGreaterThanOrEqual(9);
  expect(PAGES.filter((p) => p.startsWith('/labs/')).length).toBeGreaterThanOrEqual(6);
  expect(PAGES).toEqual(expect.arrayContaining(['/path/', '/exercises/', '/search/', '/teach/', '/teach/grade/']));
});

// The dark theme changes colours only (the same page, its media query switched live): it is checked by the rules that
// read colours, the light theme by all of them.
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

for (const path of PAGES) {
  test(`axe finds no serious or critical violations on ${path}, booted, in both themes`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await goLive(page);
    await page.locator('details').evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    const found = (await seriousViolations(page)).map((v) => `light: ${v}`);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(17, 20, 24)');
    found.push(...(await seriousViolations(page, COLOUR_RULES)).map((v) => `dark: ${v}`));
    expect(found).toEqual([]);
  });
}

// Lighthouse's accessibility audit runs axe on the page as loaded, on a phone's screen, without laying out what the
// reader has not scrolled to (content-visibility: auto): it scored /chapters/grpo/ 0.97 on target-size, an exercise's
// buttons counted as covered by the Hint below them, their island spilling past its estimated height.
test('on a phone, every page passes axe target-size, contrast and scrollable regions as Lighthouse runs them, nothing laid out by hand', async ({ browser }) => {
  // axe over every page in turn: its time grows with the chapters (55 s of the default 60 s in CI once chapters 3-9
  // gained their review sections), so this one test gets the time of the pages it reads.
  test.setTimeout(PAGES.length * 12_000);
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const found: string[] = [];
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).withRules(['target-size', 'scrollable-region-focusable', 'color-contrast']).analyze();
    found.push(...violations.map((v) => `${path} ${v.id}: ${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target}`));
  }
  expect(found).toEqual([]);
  await context.close();
});

// States no page shows as loaded: search results with their highlights, and a lab after a run with a preset picked
// (the note on what Train does next) and the comparison's in-page prompt.
test('search results and the lab’s next-run note and comparison prompt pass axe in both themes', async ({ page }) => {
  const found: string[] = [];
  const check = async (where: string) => {
    await page.emulateMedia({ colorScheme: 'light' });
    found.push(...(await seriousViolations(page)).map((v) => `${where}, light: ${v}`));
    await page.emulateMedia({ colorScheme: 'dark' });
    found.push(...(await seriousViolations(page, COLOUR_RULES)).map((v) => `${where}, dark: ${v}`));
  };
  await page.goto('/search/?q=clipping num_generations');
  await goLive(page);
  await expect(page.locator('.search-results mark').first()).toBeVisible();
  await check('search');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/labs/grpo/?max_steps=2');
  await goLive(page);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(page.locator('.lab-status')).toContainText('finished', { timeout: budget(60_000) });
  await page.getByLabel('Preset').selectOption('lr_too_high');
  await page.getByRole('region', { name: 'Compare' }).getByRole('button', { name: /^Run / }).click();
  await expect(page.getByRole('group', { name: 'Start the comparison?' })).toBeVisible();
  await expect(page.locator('.lab-next-run')).toBeVisible();
  await check('lab');
  expect(found).toEqual([]);
});
