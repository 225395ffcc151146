import { test } from '@playwright/test';
import { holdChunks } from './watch';

test('context closed while holdChunks fetches', async ({ browser }) => {
  for (let i = 0; i < 8; i++) {
    const context = await browser.newContext({ baseURL: 'http://127.0.0.1:4173' });
    const page = await context.newPage();
    const { release } = await holdChunks(page, 'First field to sweep');
    await page.goto('/labs/grpo/?max_steps=2', { waitUntil: 'domcontentloaded' });
    await page.waitForTimeout(30 * i);
    if (i % 2) await release().catch(() => {});
    await context.close();
  }
  await new Promise((resolve) => setTimeout(resolve, 1500));
});
