import type { Page, Route } from '@playwright/test';

type Url = Parameters<Page['route']>[0];

/**
 * page.route for handlers that fetch, hold or continue requests: when the page's test ends (its context closes) while
 * a handler is still working, Playwright disposes the fetched response ("Response has been disposed") and the
 * handler's error is reported against whichever test runs next. The page is not yet marked closed when that error
 * arrives, so an error is taken as the page going away only if the page does close within a few seconds; any other
 * error fails the test as before.
 */
export async function routeWhileOpen(page: Page, url: Url, handler: (route: Route) => Promise<unknown>): Promise<void> {
  await page.route(url, whileOpen(page, handler));
}

/** The handler routeWhileOpen installs: `handler`, with an error taken as the page going away if it closes in `withinMs`. */
export function whileOpen(page: Page, handler: (route: Route) => Promise<unknown>, withinMs = 5_000): (route: Route) => Promise<void> {
  return async (route) => {
    try {
      await handler(route);
    } catch (error) {
      if (await closesSoon(page, withinMs)) return;
      throw error;
    }
  };
}

function closesSoon(page: Page, withinMs: number): Promise<boolean> {
  if (page.isClosed()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), withinMs);
    page.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
