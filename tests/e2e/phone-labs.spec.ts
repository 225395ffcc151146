/**
 * At 390 px no lab scrolls sideways in any state a run reaches: before Train, while it trains and once it has
 * finished, with every collapsible panel open each time (a panel's table or picker drawn only after some steps is
 * where a page grew too wide: the team lab's table of what each message means, the vision lab's picture menu). Each
 * lab trains briefly with settings from its link, as its own spec does, so that every viewer has something to show.
 */
import { expect, test, type Page } from '@playwright/test';
import { labs } from '@/content/labs';
import { labSettled } from './boot';
import { budget } from './budget';

const WIDTH = 390;

/**
 * Each lab's short run (the link settings its own spec uses), and the presets whose viewers differ from the default's.
 * Every lab of content/labs.ts must have one: a new lab without a short run here fails the first test.
 */
const RUNS: { slug: string; query: string }[] = [
  { slug: 'agent', query: 'max_steps=2&eval_steps=2' },
  { slug: 'agent', query: 'preset=memory&max_steps=2&eval_steps=2' },
  { slug: 'agent', query: 'preset=reflect&max_steps=1&eval_steps=1' },
  { slug: 'agent', query: 'preset=retry&max_steps=1&eval_steps=1' },
  { slug: 'lora', query: 'max_steps=4&eval_steps=2&eval_samples=20' },
  { slug: 'grpo', query: 'max_steps=2&eval_steps=2&eval_samples=20' },
  { slug: 'ppo', query: 'max_steps=2' },
  { slug: 'dpo', query: 'max_steps=2&eval_steps=2&eval_samples=20&per_device_train_batch_size=8' },
  // max_steps counts rounds here: round 0 (loaded from its checkpoint) and two rounds of 10 fine-tuning steps.
  { slug: 'self-improve', query: 'steps_per_round=10&num_prompts=16&eval_samples=20&seed=2&max_steps=3' },
  { slug: 'team', query: 'max_steps=3&eval_steps=3' },
  { slug: 'team', query: 'preset=no_message&max_steps=2&eval_steps=2' },
  {
    slug: 'vision',
    query: 'max_steps=3&sft_steps=2&sft_batch_size=8&num_generations=2&per_device_train_batch_size=4&eval_steps=3&eval_samples=10',
  },
  {
    slug: 'vision',
    query: 'preset=text_only&max_steps=1&sft_steps=2&sft_batch_size=8&num_generations=2&per_device_train_batch_size=4&eval_steps=1&eval_samples=10',
  },
];

/**
 * How wide the page is, and the innermost elements that reach past the screen's right edge (their box, or text that
 * spills out of it), widest first, each named by a short selector path. An element inside a box that clips or
 * scrolls sideways is left out: it does not widen the page.
 */
const overflow = (page: Page) =>
  page.evaluate((width) => {
    const name = (el: Element) => {
      const classes = [...el.classList].slice(0, 2).map((c) => `.${c}`).join('');
      return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${classes}`;
    };
    const path = (el: Element) => {
      const parts: string[] = [];
      for (let at: Element | null = el; at && at !== document.body && parts.length < 4; at = at.parentElement) parts.unshift(name(at));
      return parts.join(' > ');
    };
    // A box that scrolls or clips holds in only what it contains as a layout box: an absolutely placed element (a
    // screen-reader label) escapes every box up to its nearest positioned ancestor, a fixed one escapes them all.
    const inClippingBox = (el: Element) => {
      let position = getComputedStyle(el).position;
      for (let at = el.parentElement; at && at !== document.body; at = at.parentElement) {
        const style = getComputedStyle(at);
        const contains = position === 'fixed' ? false : position === 'absolute' ? style.position !== 'static' : true;
        if (!contains) continue;
        if (style.overflowX !== 'visible') return true;
        position = style.position;
      }
      return false;
    };
    // What spills out of a box that lets it (a long word in a paragraph) is in its scrollWidth, not in its rectangle.
    const spills = (el: Element) => el instanceof HTMLElement && getComputedStyle(el).overflowX === 'visible';
    const reach = (el: Element) => {
      const box = el.getBoundingClientRect();
      return window.scrollX + box.left + Math.max(box.width, spills(el) ? el.scrollWidth : 0);
    };
    const past = [...document.querySelectorAll('body *')].filter((el) => reach(el) > width + 0.5 && !inClippingBox(el));
    const culprits = past
      .filter((el) => !past.some((other) => other !== el && el.contains(other)))
      .sort((a, b) => reach(b) - reach(a))
      .slice(0, 5)
      .map((el) => `${path(el)} (reaches ${Math.round(reach(el))} px)`);
    return { scrollWidth: document.documentElement.scrollWidth, culprits };
  }, WIDTH);

/** Opens every collapsible panel on the page (panels drawn after a step appear later: call again at each stage). */
async function openEveryPanel(page: Page): Promise<void> {
  await page.evaluate(() => document.querySelectorAll('details:not([open])').forEach((d) => ((d as HTMLDetailsElement).open = true)));
  // Let the panels' toggle handlers render what they hold, then the layout settle.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function expectNoSidewaysScroll(page: Page, stage: string): Promise<void> {
  // A run draws panels as it goes (the vision lab's token view appears when GRPO starts): open again until none is closed.
  await expect
    .poll(async () => {
      await openEveryPanel(page);
      return page.locator('details:not([open])').count();
    }, { message: `${stage}: a panel stayed closed` })
    .toBe(0);
  const { scrollWidth, culprits } = await overflow(page);
  expect(scrollWidth, `${stage}: the page is ${scrollWidth} px wide; past the right edge: ${culprits.join('; ') || '(none named)'}`).toBeLessThanOrEqual(WIDTH);
}

test.use({ viewport: { width: WIDTH, height: 844 }, isMobile: true, hasTouch: true });

test('every lab of the registry has a short run here', () => {
  expect(labs.filter((lab) => !RUNS.some((run) => run.slug === lab.slug)).map((lab) => lab.slug)).toEqual([]);
});

for (const { slug, query } of RUNS) {
  test(`at 390 px the ${slug} lab (${query}) does not scroll sideways before, during or after a run, every panel open`, async ({ page }) => {
    test.setTimeout(budget(150_000));
    const status = page.locator('.lab-status');
    await page.goto(`/labs/${slug}/?${query}`);
    await labSettled(page);
    await expectNoSidewaysScroll(page, 'before Train');

    await page.getByRole('button', { name: 'Train', exact: true }).click();
    // A first step (or round) is done: its samples are in the viewers.
    await expect(status).toContainText(/\bstep [1-9]|\b[1-9]\d* of \d+ rounds done/, { timeout: budget(90_000) });
    await expectNoSidewaysScroll(page, 'during the run');

    await expect(status).toContainText('finished', { timeout: budget(90_000) });
    await expectNoSidewaysScroll(page, 'after the run');
  });
}
