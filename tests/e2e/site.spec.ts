import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { goLive } from './boot';
import { watchErrors } from './watch';

const PROGRESS_KEY = 'agentic-rl-lab:progress';

test('a reader goes from the home page through a chapter, answers a quiz, and keeps progress after reload', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Agentic RL Lab' })).toBeVisible();
  await expect(page.locator('.chapter-card')).toHaveCount(10);
  await expect(page.getByRole('link', { name: /Start: 1\./ })).toBeVisible();

  await page.locator('.chapter-card a').first().click();
  await expect(page).toHaveURL(/\/chapters\/agentic-rl\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // Math was rendered at build time: KaTeX markup is in the page and visible, no raw $...$ left.
  const display = page.locator('.katex-display').first();
  await display.scrollIntoViewIfNeeded();
  await expect(display).toBeVisible();
  expect(await page.locator('.katex').count()).toBeGreaterThan(5);
  await expect(page.locator('.prose')).not.toContainText('$$');

  // The on-page table of contents jumps to its heading.
  const tocLink = page.locator('.toc a').nth(1);
  const anchor = (await tocLink.getAttribute('href'))!;
  await tocLink.click();
  await expect(page).toHaveURL(new RegExp(`${anchor}$`));
  await expect(page.locator(anchor)).toBeInViewport();

  // Next, then previous.
  await page.getByRole('link', { name: /Next →/ }).click();
  await expect(page).toHaveURL(/\/chapters\/sft-lora\/$/);
  await page.getByRole('link', { name: /← Previous/ }).click();
  await expect(page).toHaveURL(/\/chapters\/agentic-rl\/$/);
  await goLive(page); // the quiz and the completion toggle below act on the live page

  // Answer the first quiz: a wrong answer first, then the right one.
  const quiz = page.locator('form.quiz').first();
  await quiz.scrollIntoViewIfNeeded();
  const quizId = await quiz.getAttribute('data-quiz-id');
  const choices = quiz.locator('.quiz-choice');
  const count = await choices.count();
  let correctIndex = -1;
  for (let i = 0; i < count; i++) {
    await choices.nth(i).click();
    await quiz.getByRole('button', { name: 'Check answer' }).click();
    const feedback = quiz.locator('.quiz-feedback');
    await expect(feedback).toBeVisible();
    if ((await feedback.textContent())?.startsWith('Correct')) {
      correctIndex = i;
      break;
    }
    await expect(feedback).toContainText('Not quite');
  }
  expect(correctIndex).toBeGreaterThanOrEqual(0);

  await page.getByRole('button', { name: 'Mark chapter as completed' }).click();
  await expect(page.getByRole('button', { name: /Chapter completed/ })).toBeVisible();

  await page.reload();
  await goLive(page); // stored progress shows once the page is live
  const quizAfter = page.locator(`form.quiz[data-quiz-id="${quizId}"]`);
  await expect(quizAfter.locator('.quiz-feedback')).toContainText('Correct');
  await expect(quizAfter.locator('input[type=radio]').nth(correctIndex)).toBeChecked();
  await expect(page.getByRole('button', { name: /Chapter completed/ })).toBeVisible();

  await page.goto('/');
  // A returning reader: the new reader's Start link is hidden until the page has read the stored progress.
  await expect(page.getByRole('link', { name: /Start: 1\./ })).toBeHidden();
  await goLive(page);
  await expect(page.getByText('You have completed 1 of 10 chapters.')).toBeVisible();
  await expect(page.locator('.chapter-card').first().locator('.chapter-mark.done')).toBeVisible();
  await expect(page.getByRole('link', { name: /Continue: 2\./ })).toBeVisible();

  // Reset forgets everything.
  page.once('dialog', (dialog) => dialog.accept());
  await page.getByRole('button', { name: 'Reset progress' }).click();
  await expect(page.getByRole('link', { name: /Start: 1\./ })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a stored quiz answer marked "correct" by hand is still judged against the chapter’s answer', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/chapters/ppo/');
  const quiz = page.locator('form.quiz').first();
  const id = (await quiz.getAttribute('data-quiz-id'))!;
  // A wrong choice, from the chapter's own answer; then store it flagged as correct.
  const answer = Number(new RegExp(`<Quiz id="${id}"[^\\n]*? answer=\\{(\\d+)\\}`).exec(fs.readFileSync('content/chapters/04-ppo.mdx', 'utf8'))![1]);
  const wrong = answer === 0 ? 1 : 0;
  await quiz.locator('.quiz-choice').nth(wrong).click();
  await quiz.getByRole('button', { name: 'Check answer' }).click();
  await expect(quiz.locator('.quiz-feedback.wrong')).toBeVisible();
  await page.evaluate(
    ({ key, id, wrong }) => {
      const stored = JSON.parse(localStorage.getItem(key)!);
      stored.state.quizzes[id] = { choice: wrong, correct: true, at: Date.now() };
      localStorage.setItem(key, JSON.stringify(stored));
    },
    { key: PROGRESS_KEY, id, wrong },
  );
  await page.reload();
  await goLive(page);
  const again = page.locator(`form.quiz[data-quiz-id="${id}"]`);
  await expect(again.locator('input[type=radio]').nth(wrong)).toBeChecked();
  await expect(again.locator('.quiz-feedback')).toContainText('Not quite');
  expect(errors).toEqual([]);
});

test('a corrupt stored progress value is discarded and the page still works', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await page.evaluate((key) => localStorage.setItem(key, '{"state": {"chapters": 5'), PROGRESS_KEY);
  await page.goto('/chapters/ppo/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await goLive(page);
  await page.getByRole('button', { name: 'Mark chapter as completed' }).click();
  await expect(page.getByRole('button', { name: /Chapter completed/ })).toBeVisible();
  const stored = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!), PROGRESS_KEY);
  expect(stored.state.chapters.ppo.completedAt).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});

// axe on every page of the sitemap, in both themes: a11y.spec.ts.

test('the theme toggle switches themes and remembers the choice', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/chapters/agentic-rl/');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await background()).toBe('rgb(255, 255, 255)');
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  expect(await background()).toBe('rgb(17, 20, 24)');
  await page.reload();
  expect(await background()).toBe('rgb(17, 20, 24)');
  await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
});

test('on a phone the chapter fits the screen and the chapter list is still reachable', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto('/chapters/agentic-rl/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: /9\./ })).toBeAttached();
  await context.close();
});

test('unknown addresses get the 404 page with a 404 status', async ({ page }) => {
  const response = await page.goto('/chapters/no-such-chapter/');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the course map' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the server answers /404 with a 404, and an over-long address with a clear 431', async ({ request }) => {
  for (const path of ['/404', '/404/', '/404.html']) expect((await request.get(path)).status(), path).toBe(404);
  const long = await request.get(`/labs/grpo/?beta=${'9'.repeat(20_000)}`);
  expect(long.status()).toBe(431);
  expect(await long.text()).toMatch(/too long/);
});

test('the sitemap lists every chapter and lab page, and each of them serves', async ({ page, request }) => {
  const xml = await (await request.get('/sitemap.xml')).text();
  const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  const chapterUrls = urls.filter((u) => u.startsWith('/chapters/'));
  expect(chapterUrls).toHaveLength(10);
  expect(urls).toContain('/labs/');
  for (const url of urls) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }), url).toBeVisible();
  }
});

test('search finds chapter sections and links to them', async ({ page }) => {
  await page.goto('/search/?q=reward');
  await expect(page.getByLabel('Search the course')).toHaveValue('reward');
  const results = page.locator('.search-results li');
  await expect(results.first()).toBeVisible();
  await page.getByLabel('Search the course').fill('zzzz-no-such-term');
  await expect(page.getByRole('status')).toHaveText('0 results');
  // TRL's names as written, labs among the results, the terms highlighted.
  await page.getByLabel('Search the course').fill('num_generations');
  await expect(results.filter({ hasText: 'Lab: GRPO with a verifiable reward' })).toHaveCount(1);
  await expect(results.first().locator('mark').first()).toHaveText('num_generations');
  await page.getByLabel('Search the course').fill('clipping');
  await expect(results.locator('mark').filter({ hasText: /^clip$/i }).first()).toBeVisible();
  await page.getByLabel('Search the course').fill('advantage');
  await results.first().getByRole('link').click();
  await expect(page).toHaveURL(/\/chapters\/[a-z0-9-]+\/(#[a-z0-9-]+)?$/);
});

// A string literal that survives minification: tfjs-core's URL flag prefix. (The charts are our own SVG: no charting
// library is installed to leak into a page.)
const HEAVY_LIBRARY_MARKERS = /tfjsflags/;

test('the heavy-library marker really occurs in tfjs', () => {
  expect(fs.readFileSync('node_modules/@tensorflow/tfjs-core/dist/environment.js', 'utf8')).toMatch(HEAVY_LIBRARY_MARKERS);
});

test('a chapter page loads no tfjs or charting code, prefetches included', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script' || response.url().endsWith('.js')) scripts.push(await response.text());
  });
  await page.goto('/chapters/grpo/');
  await page.mouse.wheel(0, 20000);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);
  expect(scripts.length).toBeGreaterThan(0);
  for (const source of scripts) {
    expect(source).not.toMatch(HEAVY_LIBRARY_MARKERS);
  }
});
