import { expect, test, type Route } from '@playwright/test';
import { holdFrameworkCode } from './boot';
import { whileOpen } from './routes';
import { holdChunks } from './watch';

// Tests of the test helpers that hold or replay network traffic. Their route handlers outlive the test that made them
// when it ends mid-fetch; an error thrown then was reported against the next test (deferred-boot.spec failed so).

test('a context closed while holdChunks fetches the page chunks ends no test in error', async ({ browser, baseURL }) => {
  // Before routeWhileOpen this failed every time: "apiResponse.text: Response has been disposed".
  for (let i = 0; i < 6; i++) {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const { release } = await holdChunks(page, 'First field to sweep');
    await page.goto('/labs/grpo/?max_steps=2', { waitUntil: 'domcontentloaded' });
    await page.waitForTimeout(40 * i); // close at different points of the fetches
    if (i % 2) await release().catch(() => {}); // held chunks are let through on odd rounds, never on even ones
    await context.close();
  }
});

test('a context closed while holdFrameworkCode holds the chunks, then released, ends no test in error', async ({ browser, baseURL }) => {
  for (let i = 0; i < 3; i++) {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const release = await holdFrameworkCode(page);
    await page.goto('/labs/grpo/', { waitUntil: 'domcontentloaded' });
    const closed = context.close();
    release(); // route.continue() on a closing page
    await closed;
  }
});

test('a handler error counts as the page going away only if the page closes', async ({ context }) => {
  const route = {} as Route; // the handlers below never touch it
  const broken = async () => {
    throw new Error('a broken handler');
  };
  const open = await context.newPage();
  await expect(whileOpen(open, broken, 300)(route), 'a page that stays open: the error fails the test').rejects.toThrow('a broken handler');
  const closing = await context.newPage();
  const handled = whileOpen(closing, broken, 5_000)(route);
  await closing.close();
  await expect(handled, 'a page that closes: nothing to report').resolves.toBeUndefined();
});
