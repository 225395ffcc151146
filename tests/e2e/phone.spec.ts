/**
 * At 390 px (a phone held upright) no page scrolls sideways: the header fits, and what is wider than the screen (a long
 * equation, a table, an inspector) scrolls inside its own box. Every page of the built sitemap (out/sitemap.xml, which
 * app/sitemap.ts writes) is its own test, loaded once and booted, so a failure names its page and the elements past the
 * edge; and the GRPO lab after a run, whose inspector tables are the widest thing a reader meets.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { goLive, labSettled } from './boot';
import { budget } from './budget';

const WIDTH = 390;
const PAGES = [...fs.readFileSync('out/sitemap.xml', 'utf8').matchAll(/<loc>[a-z]+:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((m) => m[1]);

/**
 * How far the page reaches past the right edge, and the elements that take it there: the outermost element past the
 * edge in each branch (its parent still fits), skipping what sits inside a box that scrolls or clips sideways, since
 * that box is what the reader scrolls. Each is named by tag, id or first class, its right edge, and its first words.
 */
const overflow = (page: Page) =>
  page.evaluate((width) => {
    const clipsSideways = (el: Element) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX);
    const insideScroller = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) if (clipsSideways(a)) return true;
      return false;
    };
    const past = (el: Element) => el.getBoundingClientRect().right > width + 1;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => past(el) && !insideScroller(el) && !(el.parentElement && el.parentElement !== document.body && past(el.parentElement)))
      .slice(0, 5)
      .map((el) => {
        const cls = (el.getAttribute('class') ?? '').split(' ')[0];
        const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls ? `.${cls}` : ''}`;
        const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 50);
        return `${name} to ${Math.round(el.getBoundingClientRect().right)}px ("${text}")`;
      });
    return { by: document.documentElement.scrollWidth - width, culprits };
  }, WIDTH);

test.use({ viewport: { width: WIDTH, height: 844 }, isMobile: true, hasTouch: true });

test.describe(`at ${WIDTH} px no page of the sitemap scrolls sideways`, () => {
  test('the sitemap lists the pages', () => {
    expect(PAGES).toContain('/');
    expect(PAGES).toContain('/teach/');
    expect(PAGES.filter((p) => p.startsWith('/chapters/')).length).toBeGreaterThan(5);
  });

  for (const path of PAGES) {
    test(path, async ({ page }) => {
      // One page load, booted: generous, since a busy machine can take many seconds to start the framework.
      test.setTimeout(budget(90_000));
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: budget(30_000) });
      await goLive(page);
      const { by, culprits } = await overflow(page);
      expect(by, `${path} is ${by}px too wide: ${culprits.join('; ') || 'no single element named'}`).toBeLessThanOrEqual(0);
    });
  }
});

test(`at ${WIDTH} px the header shows all of its links and the theme toggle`, async ({ page }) => {
  await page.goto('/');
  await goLive(page);
  const toggle = await page.locator('.theme-toggle').boundingBox();
  expect(toggle!.x + toggle!.width).toBeLessThanOrEqual(WIDTH);
  for (const name of ['Chapters', 'Path', 'Labs', 'Search']) {
    const box = await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name }).boundingBox();
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(WIDTH);
  }
});

test(`at ${WIDTH} px the GRPO lab after a run does not scroll sideways: its inspector scrolls in place`, async ({ page }) => {
  test.setTimeout(budget(120_000));
  await page.goto('/labs/grpo/?max_steps=2');
  await labSettled(page);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(page.locator('.lab-status')).toContainText('finished', { timeout: budget(90_000) });
  await expect(page.locator('.inspector-table').first()).toBeVisible();
  const { by, culprits } = await overflow(page);
  expect(by, culprits.join('; ')).toBeLessThanOrEqual(0);
});
