import { expect, test, type Page } from '@playwright/test';
import { stepIn } from './status';
import { budget } from './budget';

const status = (page: Page) => page.locator('.lab-status');
const stepOf = async (page: Page) => stepIn(await status(page).textContent());

const LABS = [
  { slug: 'ppo', chart: 'Episode return', inspector: 'The policy in the grid', setting: 'cliprange', value: '0.1' },
  { slug: 'dpo', chart: 'Implicit rewards (chosen, rejected)', inspector: 'Pair inspector', setting: 'beta', value: '0.5' },
];

for (const lab of LABS) {
  test(`${lab.slug} lab: Train draws charts and the inspector, Pause stops, Reset clears, the URL restores settings`, async ({ page }) => {
    await page.goto(`/labs/${lab.slug}/?max_steps=500&${lab.setting}=${lab.value}&seed=3`);
    await expect(page.getByRole('textbox', { name: lab.setting, exact: true })).toHaveValue(lab.value);
    await expect(page.getByRole('textbox', { name: 'seed', exact: true })).toHaveValue('3');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect.poll(() => stepOf(page), { timeout: budget(60_000) }).toBeGreaterThanOrEqual(3);
    await expect(status(page)).toContainText('wasm');
    // DPO's model samples (its preference pairs, its evaluation) through the fused kernel; PPO's MLP never decodes.
    if (lab.slug === 'dpo') await expect(page.locator('.lab-sampler')).toContainText('fused WebAssembly SIMD kernel');
    else await expect(page.locator('.lab-sampler')).toHaveCount(0);
    await expect(page.getByRole('figure', { name: lab.chart }).locator('.plot-line path').first()).toBeVisible();
    await expect(page.getByRole('region', { name: lab.inspector })).not.toContainText('Train for a step');

    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(status(page)).toContainText('paused');
    const paused = await stepOf(page);
    await page.waitForTimeout(2500);
    expect(await stepOf(page)).toBe(paused);

    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(status(page)).toContainText('step 0');
    await page.getByRole('button', { name: 'Clear saved runs' }).click();
    await expect(page.getByRole('figure', { name: lab.chart })).toContainText('No data yet');
  });
}

test('PPO lab: the policy learns the grid (greedy path reaches the goal)', async ({ page }) => {
  await page.goto('/labs/ppo/?max_steps=14');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(status(page)).toContainText('finished', { timeout: budget(90_000) });
  await expect(page.getByRole('region', { name: 'The policy in the grid' })).toContainText('ends at the goal');
  await expect(status(page)).toContainText('greedy return 0.95');
});
