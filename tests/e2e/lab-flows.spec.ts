/**
 * The labs' controls in the orders a reader presses them, not only the order the code expects (labs/shell/useLabRuns.ts
 * states the rules): a preset or a setting picked after a run takes effect on the next Train, Reset keeps the chosen
 * preset, Compare works from any state, and each run's label says what differed. No browser dialog is involved:
 * Playwright dismisses those, as a reader who misses one would.
 */
import { expect, test, type Page } from '@playwright/test';
import { stepIn, trainToTheEnd } from './status';
import { goLive, labSettled } from './boot';
import { budget } from './budget';

const status = (page: Page) => page.locator('.lab-status');
const nextRun = (page: Page) => page.locator('.lab-next-run');
const firstChart = (page: Page) => page.locator('.lab-charts figure').first();


async function setMaxSteps(page: Page, steps: number) {
  await page.getByLabel('max_steps').fill(String(steps));
  await page.getByLabel('max_steps').press('Enter');
}

// Each lab's first preset, and another to pick after a run.
const LABS: [slug: string, first: string, other: string][] = [
  ['grpo', 'default', 'lr_too_high'],
  ['ppo', 'default', 'no_clipping'],
  ['dpo', 'default', 'ipo'],
  ['lora', 'lora_r4', 'lora_r1'],
  ['agent', 'default', 'no_tool'],
  ['team', 'default', 'no_message'],
  ['vision', 'default', 'text_only'],
];

for (const [slug, first, other] of LABS) {
  test(`${slug} lab: train → pick a preset → train runs the picked preset; Reset keeps it`, async ({ page }) => {
    await page.goto(`/labs/${slug}/?max_steps=2`);
    await labSettled(page);
    await trainToTheEnd(page, 2);
    // A finished run: Train starts another, and says so.
    await expect(page.getByRole('button', { name: 'Train', exact: true })).toBeEnabled();
    await expect(nextRun(page)).toContainText('Train starts another run with these settings');

    await page.getByLabel('Preset').selectOption(other);
    await expect(page.getByLabel('Preset')).toHaveValue(other);
    await expect(nextRun(page)).toContainText('Settings changed since this run started: Train starts a fresh run with them');
    await setMaxSteps(page, 2); // the preset brought its own length
    await trainToTheEnd(page, 2);
    await expect(firstChart(page)).toContainText(`run 1 (${first})`);
    await expect(firstChart(page)).toContainText(`run 2 (${other})`);
    await expect(page).toHaveURL(new RegExp(`preset=${other}`));

    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(status(page)).toContainText('step 0');
    await expect(page.getByLabel('Preset')).toHaveValue(other);
    await expect(nextRun(page)).toHaveCount(0);
  });
}

test('GRPO lab: train → train again labels the second run as the same settings', async ({ page }) => {
  await page.goto('/labs/grpo/?max_steps=2');
  await labSettled(page);
  await trainToTheEnd(page, 2);
  await trainToTheEnd(page, 2);
  await expect(firstChart(page)).toContainText('run 1 (same settings)');
  await expect(firstChart(page)).toContainText('run 2 (same settings)');
  // Legends in words, the logged name beside it in the data table; a chart the settings never fill says so.
  await expect(firstChart(page).getByRole('list', { name: 'Legend' })).toContainText('mean reward · run 1 (same settings)');
  await expect(firstChart(page).getByRole('listitem').first()).toHaveAttribute('title', 'reward');
  await expect(page.getByRole('figure', { name: 'KL to the reference (beta > 0 only)' })).toContainText('Not logged so far (kl)');
});

test('GRPO lab: a setting changed during a run leaves the run alone; after Pause, Train starts a fresh run with it', async ({ page }) => {
  await page.goto('/labs/grpo/?max_steps=500');
  await labSettled(page);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step [1-9]/, { timeout: budget(60_000) });
  await page.getByLabel('loss_type').selectOption('bnpo');
  await expect(page.getByLabel('loss_type')).toHaveValue('bnpo');
  await expect(status(page)).toContainText('training');
  await expect(nextRun(page)).toContainText('this run goes on with the ones it started with');
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(status(page)).toContainText('paused');
  await expect(nextRun(page)).toContainText('Train starts a fresh run with them instead of resuming');
  // A changed setting makes it a fresh run, so the button keeps its name.
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step [0-9]+ .*training|step 0/);
  await expect(firstChart(page)).toContainText('loss_type=bnpo', { timeout: budget(60_000) });
  await expect(firstChart(page)).toContainText('loss_type=dapo');
  // Unchanged since it started, a paused run resumes.
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(status(page)).toContainText('paused');
  await expect(nextRun(page)).toHaveCount(0);
  const paused = stepIn(await status(page).textContent());
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(async () => stepIn(await status(page).textContent()), { timeout: budget(30_000) }).toBeGreaterThan(paused);
});

test('GRPO lab: train → reset → compare asks in the page, then runs the comparison; compare → pick → train', async ({ page }) => {
  await page.goto('/labs/grpo/?max_steps=2&eval_steps=2&seed=3');
  await labSettled(page);
  await trainToTheEnd(page, 2);
  await page.getByRole('button', { name: 'Reset' }).click();
  const compare = page.getByRole('region', { name: 'Compare' });
  await compare.getByRole('button', { name: 'Run grpo_paper, dr_grpo, dapo, gspo' }).click();
  const prompt = compare.getByRole('group', { name: 'Start the comparison?' });
  await expect(prompt).toContainText('the runs there now will be cleared');
  // Cancel changes nothing; the run stays on the charts.
  await prompt.getByRole('button', { name: 'Cancel' }).click();
  await expect(prompt).toHaveCount(0);
  await expect(firstChart(page).locator('.plot-line path').first()).toBeVisible();
  await compare.getByRole('button', { name: 'Run grpo_paper, dr_grpo, dapo, gspo' }).click();
  await prompt.getByRole('button', { name: 'Clear the charts and start the comparison' }).click();
  await expect(compare.getByRole('status')).toContainText('Running grpo_paper (1 of 4)');
  await expect(compare.locator('.runs-summary tbody tr')).toHaveCount(4, { timeout: budget(120_000) });
  await expect(compare.getByRole('status')).toHaveCount(0, { timeout: budget(60_000) });
  await expect(status(page)).toContainText('finished');

  // After the comparison, pick a preset and train: a fresh run of it, the comparison's runs kept as far as room allows.
  await page.getByLabel('Preset').selectOption('default');
  await setMaxSteps(page, 2);
  await trainToTheEnd(page, 2);
  await expect(page.getByLabel('Preset')).toHaveValue('default');
  await expect(firstChart(page)).toContainText('(default)');
});

test('the learning path open in another tab shows a lab run finished in this one, without a reload', async ({ page, context }) => {
  await page.goto('/path/');
  await goLive(page);
  await expect(page.locator('#foundation').getByText(/0 of 3 labs trained/)).toBeVisible();
  const lab = await context.newPage();
  await lab.goto('/labs/grpo/?max_steps=2');
  await labSettled(lab);
  await trainToTheEnd(lab, 2);
  await lab.close();
  await expect(page.locator('#foundation').getByText(/1 of 3 labs trained/)).toBeVisible();
});

test('a run trained to the end marks the lab trained on the learning path, which says what to do next', async ({ page }) => {
  await page.goto('/path/');
  await goLive(page);
  await expect(page.locator('.path-next')).toContainText('Next: read chapter 1');
  await expect(page.locator('#foundation').getByText(/0 of 3 labs trained/)).toBeVisible();
  await page.goto('/labs/grpo/?max_steps=2');
  await labSettled(page);
  await trainToTheEnd(page, 2);
  await page.goto('/path/');
  await goLive(page);
  const foundation = page.locator('#foundation');
  await expect(foundation.getByText(/1 of 3 labs trained/)).toBeVisible();
  await expect(foundation.getByRole('listitem').filter({ hasText: 'GRPO with a verifiable reward' }).locator('.exercise-badge')).toHaveText('Trained (default)');
});
