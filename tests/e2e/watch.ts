import type { Page } from '@playwright/test';

// A string literal of tfjs-core that survives minification (site.spec.ts checks it really occurs there).
export const TFJS_MARKER = 'tfjsflags';

/** Records which script responses hold tfjs, and any page error. */
export function watch(page: Page) {
  const seen = { tfjs: [] as string[], scripts: 0, errors: [] as string[] };
  page.on('pageerror', (error) => seen.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') seen.errors.push(message.text());
  });
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script' && !response.url().split('?')[0].endsWith('.js')) return;
    seen.scripts++;
    const body = await response.text().catch(() => '');
    if (body.includes(TFJS_MARKER)) seen.tfjs.push(response.url());
  });
  return seen;
}
