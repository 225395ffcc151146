/**
 * The vision lab in Chromium: a few tiny steps train; the viewer shows the pictures (SVG named by the question and
 * its answer, described cell by cell) with the policy's answers marked right and wrong, and where answer 1 looked;
 * axe is clean in both themes; text_only shows no picture; a hostile link gets one notice per bad field and still trains.
 */
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { labSettled } from './boot';
import { budget } from './budget';

const status = (page: Page) => page.getByRole('status');
const viewer = (page: Page) => page.getByRole('region', { name: 'Pictures, answers and where the model looks' });
// A run of a few seconds: few SFT and GRPO steps, small groups (the lab's own settings, as a link sets them).
const TINY = { max_steps: '3', sft_steps: '2', sft_batch_size: '8', num_generations: '2', per_device_train_batch_size: '4', eval_steps: '3', eval_samples: '10' };
/** The lab's link with the tiny settings, `over` replacing or adding fields (each field once: a repeated one is itself a notice). */
const link = (over: Record<string, string> = {}) => `/labs/vision/?${new URLSearchParams({ ...TINY, ...over })}`;

test('the vision lab trains, shows each picture with the answers marked right and wrong, and where answer 1 looked', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(link());
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('A policy that sees: counting shapes in pictures');
  await labSettled(page);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 3 .*finished/, { timeout: budget(60_000) });

  const v = viewer(page);
  await expect(v).toContainText(/Step 3, GRPO phase: \d+ of \d+ sampled answers right/);
  // Each picture: its name says the question and the verified answer; its description names the cells.
  const picture = v.locator('.vision-group').first().getByRole('img');
  await expect(picture).toHaveAccessibleName(/^Picture for “.+” \(the answer is .+\)$/);
  await expect(picture).toHaveAccessibleDescription(/^A \d+ by \d+ grid with \d+ shapes?\./);
  // Answers are marked in words for a screen reader, and by ✓ / ✗ on screen.
  const answers = v.locator('.vision-group').first().getByRole('list');
  await expect(answers.getByRole('listitem').first()).toContainText(/[✓✗] .+ (right|wrong), reward/);
  // The attention view: the chosen picture with one overlay patch per image patch, in words and as numbers.
  await expect(v.getByRole('heading', { name: 'Where the model looks', exact: true })).toBeVisible();
  await expect(v.locator('.vision-attention .vision-overlay rect').first()).toBeAttached();
  await expect(v.locator('.vision-attention-words')).toContainText(/% of it went to the picture, the rest to the question/);
  await expect(v.getByRole('table', { name: 'Answer 1’s attention per patch' }).locator('td').first()).toHaveText(/^\d+%$/);
  await v.getByRole('radio', { name: 'spotlight' }).check();
  await expect(v.locator('.vision-attention .vision-overlay-spotlight')).toBeAttached();
  await expect(page.getByRole('figure', { name: /Held-out accuracy/ }).locator('.plot-line').first()).toBeVisible();

  const found = (await seriousViolations(page)).map((x) => `light: ${x}`);
  await page.emulateMedia({ colorScheme: 'dark' });
  found.push(...(await seriousViolations(page, ['color-contrast'])).map((x) => `dark: ${x}`));
  expect(found).toEqual([]);
  expect(errors).toEqual([]);
});

test('under text_only the lab shows no picture and says there is nothing to attend to', async ({ page }) => {
  await page.goto(link({ preset: 'text_only', max_steps: '1' }));
  await labSettled(page);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 1 .*finished/, { timeout: budget(60_000) });
  await expect(viewer(page).locator('.vision-no-picture').first()).toContainText('No picture');
  await expect(viewer(page).getByRole('img')).toHaveCount(0);
  await expect(viewer(page)).toContainText('no attention over one to show');
});

test('a hostile link gets one notice per bad field, and the lab still trains', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(link({ max_steps: '1', questions: '<script>', grid_size: '99' }));
  await labSettled(page);
  const texts = await page.locator('.lab-notice').allTextContents();
  expect(texts).toHaveLength(2);
  expect(texts.filter((t) => /questions/.test(t))).toHaveLength(1);
  expect(texts.filter((t) => /grid_size/.test(t))).toHaveLength(1);
  // The bad fields keep the preset's values; the good ones are the link's.
  await expect(page.getByRole('combobox', { name: 'questions', exact: true })).toHaveValue('mixed');
  await expect(page.getByRole('textbox', { name: 'grid_size', exact: true })).toHaveValue('4');
  await expect(page.getByRole('textbox', { name: 'num_generations', exact: true })).toHaveValue('2');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step 1 .*finished/, { timeout: budget(60_000) });
  await expect(viewer(page).locator('.vision-group')).not.toHaveCount(0);
  expect(errors).toEqual([]);
});
