/**
 * The agent lab in Chromium: it trains, its charts fill, and the trajectory viewer shows which tokens are trained on,
 * the memory task's writes and reads, and reflection's "wrong" reply; under the memory and reflect presets the page
 * speaks of their task (title, summary, chapter 10's section) and charts their metrics, not the products'.
 */
import { expect, test } from '@playwright/test';
import { labSettled } from './boot';
import { budget } from './budget';

const status = (page: import('@playwright/test').Page) => page.getByRole('status');

test('the agent learns to call the calculator, and the viewer marks the calculator’s tokens as not trained on', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/labs/agent/?max_steps=10&eval_steps=10');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('An agent learns to use a calculator');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 10 .*finished/, { timeout: budget(90_000) });
  // Held-out accuracy from the SFT checkpoint (46%) to above 90% in ten steps.
  const accuracy = Number(/held-out accuracy ([\d.]+)%/.exec((await status(page).textContent()) ?? '')?.[1]);
  expect(accuracy).toBeGreaterThan(90);
  const viewer = page.getByRole('region', { name: 'Trajectory viewer' });
  const calculatorTurn = viewer.locator('.turn-observation').first();
  await expect(calculatorTurn).toBeVisible();
  await expect(calculatorTurn).toContainText(/=\d+/);
  await expect(calculatorTurn.locator('.tok').first()).toHaveAttribute('title', /from the calculator, reply to call 1 \(context only: masked out of the loss\)/);
  await expect(viewer).toContainText('masked out of the loss');
  await expect(page.getByRole('figure', { name: /Held-out tool use/ }).locator('.plot-line').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('the train_on_observations preset says in the viewer that the calculator’s tokens are trained on', async ({ page }) => {
  await page.goto('/labs/agent/?preset=train_on_observations&max_steps=1');
  await expect(page.getByLabel('train_on_tool_results')).toBeChecked();
  await expect(page.locator('.lab-preset-note')).toContainText('masking bug');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 1 .*finished/, { timeout: budget(60_000) });
  await expect(page.getByRole('region', { name: 'Trajectory viewer' })).toContainText('trained on: the masking bug is on');
});

test('in chapter 1 the agent lab waits to be opened', async ({ page }) => {
  await page.goto('/chapters/agentic-rl/');
  await expect(page.getByRole('region', { name: 'Lab: An agent learns to use a calculator' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Open the lab here/ })).toBeVisible();
});

/** Picks the viewer's prompts in turn until one of its episodes holds `selector`; returns that episode's row. */
async function findEpisode(page: import('@playwright/test').Page, viewer: import('@playwright/test').Locator, selector: string) {
  const prompt = viewer.getByLabel('Prompt');
  const values = await prompt.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  for (const value of values) {
    await prompt.selectOption(value);
    const rows = viewer.locator('tbody tr').filter({ has: page.locator(selector) });
    if ((await rows.count()) > 0) return rows.first();
  }
  throw new Error(`no episode with ${selector} in any group`);
}

test('multi_step: the agent plans two calls, the chart counts calls per episode, and the viewer shows every call and reply', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/labs/agent/');
  await page.getByLabel('Preset').selectOption('multi_step');
  await expect(page.locator('.lab-preset-note')).toContainText('Planning');
  for (const field of ['max_steps', 'eval_steps']) {
    await page.getByLabel(field).fill('3');
    await page.getByLabel(field).press('Enter');
  }
  await expect(page).toHaveURL(/preset=multi_step/);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 3 .*finished/, { timeout: budget(90_000) });
  await expect(page.getByRole('figure', { name: 'Calls per episode (held-out)' }).locator('.plot-line').first()).toBeVisible();
  const viewer = page.getByRole('region', { name: 'Trajectory viewer' });
  const episode = await findEpisode(page, viewer, '.turn-observation[data-call="2"]');
  const replies = episode.locator('.turn-observation');
  await expect(replies).toHaveCount(2);
  await expect(replies.nth(0)).toContainText(/=\d{4}/);
  await expect(replies.nth(1)).toContainText(/=\d{4}/);
  // The second call is built on the first reply: "[628*2]" → "=1256", then "[1256+47]".
  const firstResult = (await replies.nth(0).locator('.tok').allTextContents()).join('').slice(1);
  await expect(episode.locator('.turn-policy').nth(1)).toContainText(new RegExp(`\\[${firstResult}[+-]\\d{2}\\]`));
  expect(errors).toEqual([]);
});

test('retry: the viewer marks the calculator’s failed replies', async ({ page }) => {
  await page.goto('/labs/agent/?preset=retry&max_steps=1');
  await expect(page.getByLabel('tool_failure_rate')).toHaveValue('0.3');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 1 .*finished/, { timeout: budget(60_000) });
  const viewer = page.getByRole('region', { name: 'Trajectory viewer' });
  const episode = await findEpisode(page, viewer, '.turn-failed');
  await expect(episode.locator('.turn-failed').first()).toHaveText(/=\?/);
  await expect(episode.locator('.turn-failed .tok').first()).toHaveAttribute('title', /the call failed/);
  await expect(episode).toContainText(/failed/);
});

test('memory: the viewer shows memory writes, the environment’s question and the memory’s reply, and the memory-use chart fills', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/labs/agent/?preset=memory&max_steps=2&eval_steps=2');
  await expect(page.getByLabel('task')).toHaveValue('memory');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 2 .*finished/, { timeout: budget(60_000) });
  await expect(page.getByRole('figure', { name: /^Memory \(held-out\)/ }).locator('.plot-line').first()).toBeVisible();
  const viewer = page.getByRole('region', { name: 'Trajectory viewer' });
  // Sampled at temperature 1 from a checkpoint that wrote in 40% of its demonstrations: some episode writes and reads.
  const episode = await findEpisode(page, viewer, '.turn-observation[data-source="memory"]');
  await expect(episode.locator('.tok-memory-write').first()).toBeVisible();
  await expect(episode.locator('.turn-observation[data-source="question"]')).toContainText(/[ab]\?/);
  await expect(episode.locator('.turn-observation[data-source="memory"] .tok').first()).toHaveAttribute('title', /the memory’s reply \(context only: masked out of the loss\)/);
  expect(errors).toEqual([]);
});

test('reflect: a wrong answer gets the environment’s "?" and a second try, and the reflection chart fills', async ({ page }) => {
  await page.goto('/labs/agent/?preset=reflect&max_steps=1&eval_steps=1');
  await expect(page.getByLabel('answer_attempts')).toHaveValue('2');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 1 .*finished/, { timeout: budget(60_000) });
  await expect(page.getByRole('figure', { name: /Reflection \(held-out\)/ }).locator('.plot-line').first()).toBeVisible();
  const viewer = page.getByRole('region', { name: 'Trajectory viewer' });
  const episode = await findEpisode(page, viewer, '.turn-observation[data-source="wrong"]');
  await expect(episode.locator('.turn-observation[data-source="wrong"]')).toHaveText(/\?/);
  await expect(episode.locator('.tok-wrong').first()).toHaveAttribute('title', /wrong, one more try/);
  await expect(episode).toContainText('2 tries (first wrong)');
});

/** The titles of the charts the lab shows. */
const chartTitles = (page: import('@playwright/test').Page) => page.locator('.lab-charts figure').evaluateAll((figures) => figures.map((f) => f.getAttribute('aria-label') ?? ''));

test('memory: the page follows the preset, to chapter 10 and its own charts, and back to the calculator with the menu', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/labs/agent/?preset=memory&max_steps=2&eval_steps=2');
  await labSettled(page);
  const heading = page.getByRole('heading', { level: 1 });
  const chapterLink = page.locator('.lab-chapter a');
  await expect(heading).toHaveText('An agent learns to keep facts in a memory tool');
  await expect(page.locator('.lede')).toContainText('memory tool');
  await expect(chapterLink).toHaveText(/^chapter 10: /);
  await expect(chapterLink).toHaveAttribute('href', '/chapters/beyond-the-calculator/#memory-what-the-window-drops');
  await expect(page.locator('.lab-chapter')).toContainText('Memory: what the window drops');
  // Its own charts, and none about products or the calculator.
  expect(await chartTitles(page)).toEqual(expect.arrayContaining([expect.stringMatching(/^Memory \(held-out\)/), 'Memory use in the sampled training episodes']));
  expect((await chartTitles(page)).filter((t) => /product|times-table|calculator/i.test(t))).toEqual([]);

  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 2 .*finished/, { timeout: budget(60_000) });
  const memoryChart = page.getByRole('figure', { name: /^Memory \(held-out\)/ });
  await expect(memoryChart.locator('.plot-line').first()).toBeVisible();
  await expect(memoryChart.getByRole('list', { name: 'Legend' })).toContainText('writes, reads, uses memory');
  await expect(page.locator('.lab-charts')).not.toContainText('hard products');

  // The menu back to the default preset: the calculator's title, chapter 1 and the product charts return. The memory
  // run stays on the charts, in its own chart only.
  await page.getByLabel('Preset').selectOption('default');
  await expect(heading).toHaveText('An agent learns to use a calculator');
  await expect(chapterLink).toHaveAttribute('href', '/chapters/agentic-rl/');
  await expect(page).not.toHaveURL(/preset=/);
  const productChart = page.getByRole('figure', { name: 'Held-out accuracy (all, hard products, times-table facts)' });
  await expect(productChart).toBeVisible();
  await expect(productChart.locator('.plot-line')).toHaveCount(0);
  await expect(memoryChart.locator('.plot-line').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('reflect: the page names the second try and chapter 10’s section on reflection, and charts no product-only metric', async ({ page }) => {
  await page.goto('/labs/agent/?preset=reflect');
  await labSettled(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('An agent gets a second try after “wrong”');
  await expect(page.locator('.lab-chapter a')).toHaveAttribute('href', '/chapters/beyond-the-calculator/#reflection-trying-again-after-wrong');
  const titles = await chartTitles(page);
  expect(titles).toEqual(expect.arrayContaining([expect.stringMatching(/^Reflection \(held-out\)/), 'Fixed by the second try, in the sampled training episodes']));
  expect(titles.filter((t) => /hard products, times-table|calculator’s tokens|no calculator answers|memory/i.test(t))).toEqual([]);
});

test('reflect_feedback: the viewer labels the first try, the verdict and the second try, and says the calculator waits for the verdict', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/labs/agent/?preset=reflect_feedback&max_steps=1&eval_steps=1');
  await labSettled(page);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 1 .*finished/, { timeout: budget(60_000) });
  const viewer = page.getByRole('region', { name: 'Trajectory viewer' });
  await expect(viewer).toContainText('the calculator answers only after the verdict');
  // The checkpoint answers most hard products wrong from memory: some episode is told "?" and tries again.
  const episode = await findEpisode(page, viewer, '.turn-observation[data-source="wrong"]');
  await expect(episode.locator('.try-label')).toHaveText(['1st try:', 'verdict:', '2nd try:'].map((t) => new RegExp(`^\\s*${t}\\s*$`)));
  await expect(episode).toContainText(/2 tries \(first wrong\) → (fixed|wrong again)/);
  // Before the verdict no calculator reply: the first observation of the episode is the verdict itself.
  await expect(episode.locator('.turn-observation').first()).toHaveAttribute('data-source', 'wrong');
  expect(errors).toEqual([]);
});
