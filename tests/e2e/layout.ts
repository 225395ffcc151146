import type { Locator, Page } from '@playwright/test';

/*
 * Chapter prose is `content-visibility: auto` (app/globals.css): after a jump, the blocks on screen are drawn at an
 * estimate of a few lines for some frames, then at their real height, pushing what follows down the screen.
 * Playwright's "stable" check (two frames) can pass in between, and a press then starts on one element and ends on
 * another (in CI a press on "Mark chapter as completed" at a chapter's end went to the article: the button had moved
 * 1,264 px between pointerdown and pointerup). Each block reports whether its content is laid out
 * (contentvisibilityautostatechange, fired for every block at load and at every change), so a test can wait for
 * the blocks on screen instead of guessing a delay.
 */

type Tracked = Window & { __skippedBlocks?: Set<Element> };

/** Call before opening the page: follows which blocks of prose are not laid out yet. */
export async function trackProseLayout(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const skipped = new Set<Element>();
    (window as Tracked).__skippedBlocks = skipped;
    document.addEventListener(
      'contentvisibilityautostatechange',
      (e) => ((e as Event & { skipped: boolean }).skipped ? skipped.add(e.target as Element) : skipped.delete(e.target as Element)),
      true,
    );
  });
}

/** Scrolls `target` to the middle of the screen and waits until every block of prose on screen is laid out. */
export async function scrollIntoViewSettled(target: Locator): Promise<void> {
  await target.evaluate((el) => {
    if (!(window as Tracked).__skippedBlocks) throw new Error('call trackProseLayout(page) before opening the page');
    el.scrollIntoView({ block: 'center' });
  });
  await target.page().waitForFunction(() =>
    [...(window as Tracked).__skippedBlocks!].every((block) => {
      const { top, bottom } = block.getBoundingClientRect();
      return bottom <= 0 || top >= innerHeight;
    }),
  );
}
