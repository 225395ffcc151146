import { test } from '@playwright/test';
import { holdFrameworkCode } from './boot';
import { routeWhileOpen } from './routes';
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

test('a route handler that fails while its page stays open still fails the test', async ({ page }) => {
  test.fail(); // the control: routeWhileOpen must not swallow real errors
  await routeWhileOpen(page, '**/robots.txt', async () => {
    throw new Error('a broken handler');
  });
  await page.goto('/');
  await page.evaluate(() => fetch('/robots.txt').catch(() => null));
  await page.waitForTimeout(7_000); // longer than routeWhileOpen waits for a close
});
