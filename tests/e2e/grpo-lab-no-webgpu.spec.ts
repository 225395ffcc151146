import { expect, test } from '@playwright/test';
import { findChromium } from '../../scripts/chromium.mjs';

// Without --enable-unsafe-webgpu, Chromium offers no WebGPU adapter: the real "no WebGPU" case.
test.use({ launchOptions: { executablePath: findChromium(), args: ['--disable-quic'] } });

test('with WebGPU unavailable the GRPO lab falls back and says why', async ({ page }) => {
  await page.goto('/labs/grpo/?max_steps=2');
  expect(await page.evaluate(async () => (await (navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu?.requestAdapter()) ?? null)).toBeNull();
  await page.getByRole('button', { name: 'Train' }).click();
  await expect(page.locator('.lab-status')).toContainText('wasm', { timeout: 60_000 });
  await expect(page.getByRole('list', { name: 'Backends not used' })).toContainText(
    /webgpu not used: (navigator\.gpu is not available|navigator\.gpu\.requestAdapter\(\) returned no adapter)/,
  );
});
