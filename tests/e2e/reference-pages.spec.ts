import { expect, test } from '@playwright/test';
import { watchErrors } from './watch';

// The notation, glossary and references pages: reachable from every chapter, their anchors land where chapters
// point, they pass axe in both themes, and they load no heavy library.

const PAGES = [
  { path: '/notation/', heading: 'Notation' },
  { path: '/glossary/', heading: 'Glossary' },
  { path: '/references/', heading: 'References' },
];

test('a chapter links to the notation, the glossary and the references', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/chapters/grpo/');
  const aids = page.locator('.chapter-aids');
  for (const { path, heading } of PAGES) {
    await aids.getByRole('link', { name: heading.toLowerCase() }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await page.goBack();
  }
  expect(errors).toEqual([]);
});

test('the notation page renders every symbol with KaTeX and anchors each one', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/notation/#rho');
  const row = page.locator('tr#rho');
  await expect(row).toBeInViewport();
  await expect(row.locator('.katex math').first()).toBeVisible();
  await expect(row).toContainText('importance ratio');
  // MathML only, as in the chapters: KaTeX's HTML copy would show every formula twice (no KaTeX CSS is loaded).
  expect(await page.locator('.katex-html').count()).toBe(0);
  await expect(page.locator('tr#objective')).toContainText('𝔼');
  await expect(page.locator('tr#z')).toContainText('delta_score');
  await expect(page.locator('tr#nu')).toContainText('label_smoothing');
  await expect(page.locator('main')).not.toContainText('$');
  expect(errors).toEqual([]);
});

test('a chapter reference opens its record, which links back to the chapters citing it', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/chapters/ppo/');
  await page.getByRole('link', { name: 'Proximal Policy Optimization Algorithms, in the course references' }).click();
  await expect(page).toHaveURL(/\/references\/#schulman2017proximal$/);
  const record = page.locator('li#schulman2017proximal');
  await expect(record).toBeInViewport();
  await expect(record.getByRole('link', { name: 'arXiv:1707.06347' })).toHaveAttribute('href', 'https://arxiv.org/abs/1707.06347');
  await expect(record.locator('.cited-by')).toContainText('chapter 4');
  await record.getByRole('link', { name: 'chapter 4' }).click();
  await expect(page).toHaveURL(/\/chapters\/ppo\/#references-title$/);
  expect(errors).toEqual([]);
});

test('a glossary term links to the section that teaches it', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/glossary/#k3-estimator');
  const entry = page.locator('#k3-estimator');
  await expect(entry).toBeInViewport();
  await entry.getByRole('link').click();
  await expect(page).toHaveURL(/\/chapters\/grpo\/#the-kl-term-and-the-k3-estimator$/);
  await expect(page.locator('#the-kl-term-and-the-k3-estimator')).toBeInViewport();
  expect(errors).toEqual([]);
});

for (const { path } of PAGES) {
  // axe on these pages, in both themes: a11y.spec.ts.
  test(`${path} loads no tfjs or charting code`, async ({ page }) => {
    const scripts: string[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script' || response.url().endsWith('.js')) scripts.push(await response.text());
    });
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    for (const source of scripts) expect(source).not.toMatch(/tfjsflags/);
  });
}

test('the chapter’s “On this page” list marks the section being read, with no framework code running', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/chapters/ppo/');
  const toc = page.getByRole('navigation', { name: 'On this page' });
  const links = toc.getByRole('link');
  const target = links.nth(3);
  const id = decodeURIComponent(((await target.getAttribute('href')) ?? '').slice(1));
  await page.locator(`[id="${id}"]`).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
  await expect(target).toHaveAttribute('aria-current', 'location');
  await expect(toc.locator('[aria-current]')).toHaveCount(1);
  // Back at the top, above every section, none is current; at the end, the last one is.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(toc.locator('[aria-current]')).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(links.last()).toHaveAttribute('aria-current', 'location');
  await expect(toc.locator('[aria-current]')).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { __arlBoot: { booted(): boolean } }).__arlBoot.booted())).toBe(false);
});
