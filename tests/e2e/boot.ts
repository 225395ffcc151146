import type { Page } from '@playwright/test';
import { routeWhileOpen } from './routes';

/**
 * Makes a freshly opened page live: the site's framework starts on the reader's first interaction
 * (app/_components/boot/deferred-boot.ts), so a test that checks client state (stored progress, a lab's restored
 * settings) moves the mouse first, as a reader would, and waits for React to have hydrated.
 */
export async function goLive(page: Page): Promise<void> {
  await page.mouse.move(5, 5);
  await page.mouse.move(12, 9);
  await page.waitForFunction(() => (window as { __arlBoot?: { live(): boolean } }).__arlBoot?.live() === true);
}

/** Waits until a lab has read the settings in its address (it is rendered with the preset's until then). */
export async function labSettled(page: Page): Promise<void> {
  await page.locator('.lab').first().waitFor();
  await page.waitForFunction(() => document.querySelector('.lab[data-boot-pending]') === null);
}

/**
 * Holds back the framework's code, as a slow line would, so that what a test does next happens before hydration.
 * Returns the release. Open the page with waitUntil 'domcontentloaded': 'load' waits for the held scripts' preloads.
 */
export async function holdFrameworkCode(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await routeWhileOpen(page, '**/_next/static/chunks/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
