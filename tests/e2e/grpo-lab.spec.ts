import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { stepIn } from './status';
import { labSettled } from './boot';
import { budget } from './budget';

const status = (page: Page) => page.locator('.lab-status');
const stepOf = async (page: Page) => stepIn(await status(page).textContent());
const rewardChart = (page: Page) => page.getByRole('figure', { name: 'Reward (mean and std)' });

test.describe('GRPO lab', () => {
  test('Train advances steps on a named backend and draws the charts; Pause stops; Reset clears', async ({ page }) => {
    await page.goto('/labs/grpo/?max_steps=500');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect(status(page)).toHaveText(/^wasm · step [3-9]\d* of 500 · [\d,]+ ms\/step · training/, { timeout: budget(60_000) });
    // 'auto' starts on wasm and times the others meanwhile. No GPU here: WebGPU's adapter is a software fallback and
    // WebGL renders in software; neither is timed, and the report says why.
    const report = page.getByLabel('Backend timing');
    await expect(report).toContainText('Kept wasm: webgpu and webgl could not be timed here.', { timeout: budget(60_000) });
    await expect(report).toContainText('webgpu: not timed: the WebGPU adapter is a software fallback');
    await expect(report).toContainText('webgl: not timed: WebGL renders in software');
    // Sampling goes through the fused WebAssembly kernel, and the lab says so.
    await expect(page.locator('.lab-sampler')).toHaveText('Sampling runs in a fused WebAssembly SIMD kernel on the CPU, one call per token step; the training step runs on wasm.');
    await expect(rewardChart(page).locator('.plot-line path').first()).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Held-out accuracy' }).locator('.plot-dot').first()).toBeAttached();
    await expect(page.locator('.inspector-table tbody tr')).toHaveCount(8);
    // Both axes are titled, and the value axis's upright title stays clear of its tick labels.
    await expect(rewardChart(page).locator('.plot-axis-title')).toHaveText(['reward', 'step']);
    const overlaps = await rewardChart(page).evaluate((figure) => {
      const title = figure.querySelector('.plot-axis-title')!.getBoundingClientRect();
      const labels = [...figure.querySelectorAll('.plot-axis text:not(.plot-axis-title)')].map((t) => t.getBoundingClientRect());
      return labels.filter((l) => l.left < title.right && l.right > title.left && l.top < title.bottom && l.bottom > title.top).length;
    });
    expect(overlaps).toBe(0);

    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(status(page)).toContainText('paused');
    const paused = await stepOf(page);
    await page.waitForTimeout(3000);
    expect(await stepOf(page)).toBe(paused);

    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => stepOf(page), { timeout: budget(30_000) }).toBeGreaterThan(paused);

    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(status(page)).toContainText('step 0');
    await page.getByRole('button', { name: 'Clear saved runs' }).click();
    await expect(rewardChart(page)).toContainText('No data yet');
  });

  test('settings and seed in the URL are restored, and bad ones are reported', async ({ page }) => {
    await page.goto('/labs/grpo/?preset=kl&learning_rate=0.001&seed=7&epsilon=-1');
    await expect(page.getByLabel('learning_rate')).toHaveValue('0.001');
    await expect(page.getByLabel('seed', { exact: true })).toHaveValue('7');
    await expect(page.getByRole('textbox', { name: 'beta' })).toHaveValue('0.04'); // from the preset
    await expect(page.getByLabel('Preset')).toHaveValue('kl');
    await expect(page.getByText(/ignored epsilon="-1"/)).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'epsilon', exact: true })).toHaveValue('0.2');
    // A change goes back into the URL.
    await page.getByLabel('num_generations').fill('4');
    await page.getByLabel('num_generations').press('Enter');
    await expect(page).toHaveURL(/num_generations=4/);
    await expect(page).toHaveURL(/seed=7/);
  });

  test('an exported run imports back and overlays; a bad file changes nothing', async ({ page }, testInfo) => {
    await page.goto('/labs/grpo/?max_steps=3&seed=1');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect(status(page)).toContainText('finished', { timeout: budget(60_000) });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export run (JSON)' }).click();
    const file = testInfo.outputPath('run.json');
    await (await download).saveAs(file);
    const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(exported.format).toBe('agentic-rl-lab/run');
    expect(exported.history.filter((l: { kind: string }) => l.kind === 'train')).toHaveLength(3);

    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('button', { name: 'Clear saved runs' }).click();
    await expect(rewardChart(page)).toContainText('No data yet');

    const bad = testInfo.outputPath('bad.json');
    fs.writeFileSync(bad, JSON.stringify({ ...exported, settings: { ...exported.settings, beta: 'lots' } }));
    await page.getByLabel('Import run').setInputFiles(bad);
    await expect(page.getByText(/Could not import bad.json: .*Nothing was changed/)).toBeVisible();
    await expect(rewardChart(page)).toContainText('No data yet');

    await page.getByLabel('Import run').setInputFiles(file);
    await expect(page.getByText(/Imported run.json: 3 steps/)).toBeVisible();
    await expect(rewardChart(page).locator('.plot-line path').first()).toBeVisible();
    // Train a second run: both overlay, labelled by what differs (the seed).
    await page.goto('/labs/grpo/?max_steps=2&seed=2');
    await labSettled(page); // a file chosen before then is covered by deferred-boot.spec.ts
    await page.getByLabel('Import run').setInputFiles(file);
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect(status(page)).toContainText('finished', { timeout: budget(60_000) });
    await expect(rewardChart(page)).toContainText('seed=1');
    await expect(rewardChart(page)).toContainText('seed=2');
  });
});

test('the comparison runs GRPO, Dr. GRPO, DAPO and GSPO on one seed, overlays them and tabulates them', async ({ page }) => {
  await page.goto('/labs/grpo/?max_steps=2&eval_steps=2&seed=3');
  const compare = page.getByRole('region', { name: 'Compare' });
  await compare.getByRole('button', { name: 'Run grpo_paper, dr_grpo, dapo, gspo' }).click();
  await expect(compare.getByRole('status')).toContainText('Running grpo_paper (1 of 4)');
  await expect(compare.locator('.runs-summary tbody tr')).toHaveCount(4, { timeout: budget(120_000) });
  await expect(compare.getByRole('status')).toHaveCount(0, { timeout: budget(60_000) });
  for (const [i, name] of ['grpo_paper', 'dr_grpo', 'dapo', 'gspo'].entries()) {
    await expect(compare.locator('.runs-summary tbody tr').nth(i).locator('th')).toHaveText(`run ${i + 1} (${name})`);
  }
  await expect(page.getByRole('figure', { name: 'Completion length: correct and incorrect answers' })).toContainText('gspo');
  await expect(page.getByLabel('seed', { exact: true })).toHaveValue('3');
});

test('in the GRPO chapter, the prose shows first and the lab loads only when opened', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push(await response.text().catch(() => ''));
  });
  await page.goto('/chapters/grpo/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.prose p').first()).toBeVisible();
  const open = page.getByRole('button', { name: /Open the lab here/ });
  await open.scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');
  // 'plot-readout': a class name of the lab's charts (labs/shell/MetricPlot.tsx), in the lab's code and nowhere else.
  expect(scripts.some((s) => s.includes('plot-readout'))).toBe(false); // no lab code yet
  await open.click();
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(page.locator('.lab-status')).toHaveText(/^wasm · step [1-9]/, { timeout: budget(60_000) });
  expect(scripts.some((s) => s.includes('plot-readout'))).toBe(true);
});
