/** The agent lab in Chromium: it trains, its charts fill, and the trajectory viewer shows which tokens are trained on. */
import { expect, test } from '@playwright/test';

const status = (page: import('@playwright/test').Page) => page.getByRole('status');

test('the agent learns to call the calculator, and the viewer marks the calculator’s tokens as not trained on', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/labs/agent/?max_steps=10&eval_steps=10');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('An agent learns to use a calculator');
  await page.getByRole('button', { name: 'Train' }).click();
  await expect(status(page)).toContainText(/step 10 .*finished/, { timeout: 90_000 });
  // Held-out accuracy from the SFT checkpoint (46%) to above 90% in ten steps.
  const accuracy = Number(/held-out accuracy ([\d.]+)%/.exec((await status(page).textContent()) ?? '')?.[1]);
  expect(accuracy).toBeGreaterThan(90);
  const viewer = page.getByRole('region', { name: 'Trajectory viewer' });
  const calculatorTurn = viewer.locator('.turn-observation').first();
  await expect(calculatorTurn).toBeVisible();
  await expect(calculatorTurn).toContainText(/=\d+/);
  await expect(calculatorTurn.locator('.tok').first()).toHaveAttribute('title', /from the calculator \(context only: masked out of the loss\)/);
  await expect(viewer).toContainText('masked out of the loss');
  await expect(page.getByRole('figure', { name: /Held-out tool use/ }).locator('.recharts-line').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('the train_on_observations preset says in the viewer that the calculator’s tokens are trained on', async ({ page }) => {
  await page.goto('/labs/agent/?preset=train_on_observations&max_steps=1');
  await expect(page.getByLabel('train_on_tool_results')).toBeChecked();
  await expect(page.locator('.lab-preset-note')).toContainText('masking bug');
  await page.getByRole('button', { name: 'Train' }).click();
  await expect(status(page)).toContainText(/step 1 .*finished/, { timeout: 60_000 });
  await expect(page.getByRole('region', { name: 'Trajectory viewer' })).toContainText('trained on: the masking bug is on');
});

test('in chapter 1 the agent lab waits to be opened', async ({ page }) => {
  await page.goto('/chapters/agentic-rl/');
  await expect(page.getByRole('region', { name: 'Lab: An agent learns to use a calculator' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Open the lab here/ })).toBeVisible();
});
