/**
 * 'auto' picks the backend by measurement. No GPU here, so the developer knob in localStorage (lib/tf/choice.ts) makes
 * the probe time the software WebGPU and WebGL too (SwiftShader: seconds per step, against ~70 ms on wasm), and a
 * margin of 100 makes the faster of them win anyway, so that the move of a running run is exercised end to end. The
 * default path (GPU backends not timed, wasm kept) is in grpo-lab.spec.ts; the decision's rules in choice.test.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { stepIn } from './status';
import { budget } from './budget';

const status = (page: Page) => page.locator('.lab-status');
const stepOf = async (page: Page) => stepIn(await status(page).textContent());
const probeWith = (page: Page, knobs: object) => page.addInitScript((value) => window.localStorage.setItem('arl:backend-probe', value), JSON.stringify(knobs));

test.describe('backend chosen by measurement', () => {
  test.setTimeout(budget(240_000));

  test('moves a running run to the GPU backend when it measures faster, and the run goes on there', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await probeWith(page, { software: true, margin: 100 });
    await page.goto('/labs/grpo/?max_steps=5000&num_generations=2&per_device_train_batch_size=4&max_completion_length=8&eval_steps=0');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    const report = page.getByLabel('Backend timing');
    await expect(report).toContainText(/Switched to web(gpu|gl): \d+ ms\/step against \d+ ms\/step on wasm/, { timeout: budget(200_000) });
    for (const backend of ['webgpu', 'webgl', 'wasm']) await expect(report).toContainText(new RegExp(`${backend}: \\d+ ms/step \\(median of 3\\)`));
    await expect(report).toContainText(/Moved to web(gpu|gl) after step \d+/, { timeout: budget(60_000) });
    const movedAt = Number(/after step (\d+)/.exec((await report.textContent()) ?? '')?.[1]);
    await expect(status(page)).toContainText(/^web(gpu|gl) · /);
    await expect.poll(() => stepOf(page), { timeout: budget(120_000) }).toBeGreaterThan(movedAt + 1);
    await expect(status(page)).toContainText('training');
    await expect(page.locator('.lab-error')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('an explicit backend is kept, and nothing is timed', async ({ page }) => {
    await probeWith(page, { software: true, margin: 100 });
    await page.goto('/labs/grpo/?max_steps=400&backend=wasm');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect.poll(() => stepOf(page), { timeout: budget(60_000) }).toBeGreaterThan(5);
    await expect(page.getByLabel('Backend timing')).toHaveCount(0);
    await expect(status(page)).toContainText(/^wasm · /);
  });
});
