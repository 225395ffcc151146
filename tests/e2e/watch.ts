import { expect, type Locator, type Page, type Worker } from '@playwright/test';
import { routeWhileOpen } from './routes';

// A string literal of tfjs-core that survives minification (site.spec.ts checks it really occurs there).
export const TFJS_MARKER = 'tfjsflags';

/** Records which script responses hold tfjs (the page's and its workers'), and any page error. */
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

/** What this thread fetched, from its own resource timing: a worker's fetches are in its timeline, not the page's. */
function timeline() {
  const entries = performance.getEntriesByType('resource');
  return { names: entries.map((e) => e.name), full: entries.length >= 250 }; // 250: the default buffer size
}

/**
 * Each worker's resource timeline as last read while it was alive. A worker may close between being listed and being
 * asked (the backend probe's does when its timing is done, which a fast lab's run can outlast), and its scripts still
 * count as a worker's.
 */
const lastTimelines = new WeakMap<Page, Map<Worker, string[]>>();

/** The tfjs scripts seen so far, split by the thread that loaded them: the page's main thread, or a worker. */
export async function tfjsByThread(page: Page, seen: ReturnType<typeof watch>) {
  const main = await page.evaluate(timeline);
  const known = lastTimelines.get(page) ?? new Map<Worker, string[]>();
  lastTimelines.set(page, known);
  const live = await Promise.all(
    page.workers().map(async (worker) => {
      try {
        const t = await worker.evaluate(timeline);
        known.set(worker, t.names);
        return t;
      } catch (error) {
        if (/has been closed/.test(String(error))) return null; // closed since it was listed: its last reading stands
        throw error;
      }
    }),
  );
  if ([main, ...live].some((t) => t?.full)) throw new Error('a resource timing buffer is full: its list of scripts may be incomplete');
  const inWorkers = [...known.values()].flat();
  return { main: seen.tfjs.filter((url) => main.names.includes(url)), workers: seen.tfjs.filter((url) => inWorkers.includes(url)) };
}

/** After an edit: tfjs was loaded, and only by a worker, never on the page's main thread. */
export async function expectTfjsInWorkersOnly(page: Page, seen: ReturnType<typeof watch>) {
  // The positive control first: the scripts that computed were seen, with tfjs in them, in a worker's timeline.
  await expect.poll(async () => (await tfjsByThread(page, seen)).workers.length, { message: 'tfjs in a worker' }).toBeGreaterThan(0);
  const split = await tfjsByThread(page, seen);
  expect(split.main, `tfjs on the main thread of ${page.url()}`).toEqual([]);
  expect(split.workers).toEqual(seen.tfjs); // every tfjs script seen belongs to a worker
}

/**
 * Come to a chapter widget as a reader does: its code loads and hydrates only then (app/_components/islands), so a
 * test that needs it live (not just its server HTML) points at it first.
 */
export async function approach(widget: Locator) {
  await widget.scrollIntoViewIfNeeded();
  await widget.hover();
}

/** Collect uncaught errors, console errors and failed requests: a page that "looks fine" but threw is broken. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // Failed loads are reported below with their URL.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
  });
  return errors;
}

/**
 * Holds back every script chunk whose code contains `marker` (a widget's own code, split per island), so that a test
 * can act on the server-rendered widget before its code arrives. release() waits until such a chunk was really
 * requested and held (a marker that stopped matching would otherwise test nothing), then lets it through.
 */
export async function holdChunks(page: Page, marker: string): Promise<{ release: () => Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let held = 0;
  await routeWhileOpen(page, '**/_next/static/chunks/*.js', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes(marker)) {
      held++;
      await gate;
    }
    await route.fulfill({ response, body });
  });
  return {
    release: async () => {
      await expect.poll(() => held, { message: `a chunk containing "${marker}" was held back` }).toBeGreaterThan(0);
      open();
    },
  };
}
