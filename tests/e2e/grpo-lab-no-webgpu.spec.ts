import { expect, test } from '@playwright/test';
import { findChromium } from '../../scripts/chromium.mjs';
import { budget } from './budget';

// Without --enable-unsafe-webgpu, Chromium offers no WebGPU adapter: the real "no WebGPU" case.
test.use({ launchOptions: { executablePath: findChromium(), args: ['--disable-quic'] } });

test('with WebGPU unavailable the GRPO lab trains on wasm and says why WebGPU was not timed', async ({ page }) => {
  await page.goto('/labs/grpo/?max_steps=100');
  expect(await page.evaluate(async () => (await (navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu?.requestAdapter()) ?? null)).toBeNull();
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(page.locator('.lab-status')).toContainText('wasm', { timeout: budget(60_000) });
  await expect(page.getByLabel('Backend timing')).toContainText(
    /webgpu: not timed: (navigator\.gpu is not available|navigator\.gpu\.requestAdapter\(\) returned no adapter)/,
    { timeout: budget(60_000) },
  );
});
