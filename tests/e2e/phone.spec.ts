/**
 * At 390 px (a phone held upright) no page scrolls sideways: the header fits, and what is wider than the screen (a long
 * equation, a table, an inspector) scrolls inside its own box. Every page of the sitemap, booted, and the GRPO lab after
 * a run, whose inspector tables are the widest thing a reader meets.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { goLive } from './boot';

const PAGES = [...fs.readFileSync('out/sitemap.xml', 'utf8').matchAll(/<loc>[a-z]+:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((m) => m[1]);

/** How far the page reaches past the right edge, and the widest elements that do (for the message). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const width = window.innerWidth;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !el.closest('[class*="scroll"], .katex-display, pre, table, .table-scroll'))
      .slice(0, 3)
      .map((el) => `${el.tagName.toLowerCase()}.${(el.className || '').toString().split(' ')[0]}`);
    return { by: document.documentElement.scrollWidth - width, culprits };
  });

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('at 390 px no page of the sitemap scrolls sideways, and the header shows all of its links and the theme toggle', async ({ page }) => {
  const found: string[] = [];
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await goLive(page);
    const { by, culprits } = await overflow(page);
    if (by > 0) found.push(`${path}: ${by}px too wide (${culprits.join(', ')})`);
  }
  expect(found).toEqual([]);
  const toggle = await page.locator('.theme-toggle').boundingBox();
  expect(toggle!.x + toggle!.width).toBeLessThanOrEqual(390);
  for (const name of ['Chapters', 'Path', 'Labs', 'Search']) {
    const box = await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name }).boundingBox();
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(390);
  }
});

test('at 390 px the GRPO lab after a run does not scroll sideways: its inspector scrolls in place', async ({ page }) => {
  await page.goto('/labs/grpo/?max_steps=2');
  await goLive(page);
  await page.getByRole('button', { name: 'Train' }).click();
  await expect(page.locator('.lab-status')).toContainText('finished', { timeout: 60_000 });
  await expect(page.locator('.inspector-table').first()).toBeVisible();
  const { by, culprits } = await overflow(page);
  expect(by, culprits.join(', ')).toBeLessThanOrEqual(0);
});
