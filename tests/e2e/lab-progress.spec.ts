/**
 * Every lab's status line says where a run stands out of its total, before, during and after a run, and how long a
 * finished run took; a long run estimates the time it has left; a paused run's Train button says Resume; the run that
 * Reset put on the charts can still be exported. The labs come from content/labs.ts: a lab added there without a short
 * run here fails the test, so no lab can ship a status without its total.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { stepIn } from './status';
import { labs } from '@/content/labs';
import { labSettled } from './boot';
import { budget } from './budget';

const status = (page: Page) => page.locator('.lab-status');

/** Each lab's shortest sensible run, as its own spec links it (a few steps, small groups), and what it counts. */
const SHORT_RUNS: Record<string, { link: string; countsRounds?: true }> = {
  agent: { link: 'max_steps=2&eval_steps=2' },
  lora: { link: 'max_steps=2' },
  grpo: { link: 'max_steps=2' },
  ppo: { link: 'max_steps=2' },
  dpo: { link: 'max_steps=2' },
  // Two rounds: round 0 (loaded from its checkpoint, then evaluated), then one round of sampling, filtering and fine-tuning.
  'self-improve': { link: 'steps_per_round=10&num_prompts=16&eval_samples=20&seed=2&max_steps=2', countsRounds: true },
  team: { link: 'max_steps=2' },
  vision: { link: 'max_steps=3&sft_steps=2&sft_batch_size=8&num_generations=2&per_device_train_batch_size=4&eval_steps=3&eval_samples=10' },
};

for (const lab of labs) {
  test(`${lab.slug} lab: the status counts the run out of its total and says how long it took`, async ({ page }) => {
    const run = SHORT_RUNS[lab.slug];
    expect(run, `${lab.slug} has no short run in this spec: add one, so its status is checked`).toBeDefined();
    const total = Number(new URLSearchParams(run.link).get('max_steps'));
    // Where the charts number rounds from 0, the status counts rounds done instead of naming one.
    const position = (done: string) => (run.countsRounds ? `${done} of ${total} rounds done` : `step ${done} of ${total}`);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`/labs/${lab.slug}/?${run.link}`);
    await labSettled(page);
    // Before a run: what Train will run.
    await expect(status(page)).toContainText(`${position('0')} · ready`);
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect(status(page)).toContainText(new RegExp(`${position('\\d+')} .*training`));
    await expect(status(page)).toContainText(new RegExp(`${position(String(total))} .*finished in (\\d+\\.\\d s|(\\d+ min )?\\d+ s|\\d+ min)`), { timeout: budget(90_000) });
    // A finished run has no time left to estimate.
    await expect(status(page)).not.toContainText('left');
    expect(errors).toEqual([]);
  });
}

test('GRPO lab: a long run estimates its time left; paused, it reads Resume and estimates nothing; Reset keeps it exportable', async ({ page }, testInfo) => {
  await page.goto('/labs/grpo/?max_steps=500&seed=4');
  await labSettled(page);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText(/step \d+ of 500 · .*training · (about (\d+ min )?\d+ s|about \d+ min|a few seconds) left/, { timeout: budget(60_000) });
  // While training, Train is greyed out under its own name.
  await expect(page.getByRole('button', { name: 'Train', exact: true })).toBeDisabled();

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(status(page)).toContainText(/step \d+ of 500 · .*paused/);
  await expect(status(page)).not.toContainText('left');
  await expect(page.getByRole('button', { name: 'Resume' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Train', exact: true })).toHaveCount(0);
  const paused = stepIn(await status(page).textContent());

  await page.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(async () => stepIn(await status(page).textContent()), { timeout: budget(30_000) }).toBeGreaterThan(paused);
  await expect(status(page)).toContainText(/training · (about .+|a few seconds) left/);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(status(page)).toContainText('paused');
  const steps = stepIn(await status(page).textContent());

  // Reset puts the run on the charts; until a new run begins, it is the run "Export run" writes.
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(status(page)).toContainText('step 0 of 500 · ready');
  await expect(page.getByRole('button', { name: 'Train', exact: true })).toBeEnabled();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export run (JSON)' }).click();
  const file = testInfo.outputPath('kept-run.json');
  await (await download).saveAs(file);
  const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(exported.settings.max_steps).toBe(500);
  expect(exported.history.filter((l: { kind: string }) => l.kind === 'train').length).toBeGreaterThanOrEqual(steps);
  // Cleared from the charts, it is gone: nothing is left to export.
  await page.getByRole('button', { name: 'Clear saved runs' }).click();
  await expect(page.getByRole('button', { name: 'Export run (JSON)' })).toBeDisabled();
});
