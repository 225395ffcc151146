/**
 * Chapter 1's MDP stepper in Chromium: the HTML shows s_0, Step and Run to the end walk an episode of the agent
 * lab's calculator environment with the shipped checkpoint as the policy, the returns appear at the end, and tfjs
 * is only ever loaded by the policy's worker, never on the page's main thread, malformed URL or not.
 */
import { expect, test, type Page } from '@playwright/test';
import { axeOn } from './axe';
import { approach, expectTfjsInWorkersOnly, TFJS_MARKER, watch } from './watch';
import { budget } from './budget';

const PAGE = '/chapters/agentic-rl/';

/** Scripts the document itself loaded, from its own resource timing (a worker's scripts are in the worker's). */
async function mainThreadTfjs(page: Page): Promise<{ scripts: number; withTfjs: string[] }> {
  const urls = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((url) => new URL(url).pathname.endsWith('.js')),
  );
  const withTfjs: string[] = [];
  for (const url of urls) if ((await (await page.request.get(url)).text()).includes(TFJS_MARKER)) withTfjs.push(url);
  return { scripts: urls.length, withTfjs };
}

async function openStepper(page: Page, query = '') {
  await page.goto(PAGE + query);
  await approach(page.locator('.mdp-stepper'));
  const stepper = page.locator('.mdp-stepper[data-ready]');
  await stepper.scrollIntoViewIfNeeded();
  return stepper;
}

const button = (stepper: ReturnType<Page['locator']>, name: string) => stepper.getByRole('button', { name, exact: true });

test('the HTML holds the initial state and says what Step will do', async ({ request }) => {
  const html = await (await request.get(PAGE)).text();
  expect(html).toContain('One episode of the agent lab, as an MDP');
  expect(html).toContain('t = 0: the policy has not acted yet. Step asks it for π_θ(· | s_0)');
  expect(html).toMatch(/<code>347\*6=<\/code>/); // s_0's prompt segment
  expect(html).toContain('No action yet');
});

test('Step, then Run to the end: an episode with a call, a reward and the returns, with tfjs in the worker only', async ({ page }) => {
  const seen = watch(page);
  const stepper = await openStepper(page);
  await page.waitForLoadState('networkidle');
  const before = await mainThreadTfjs(page);
  expect(before.scripts).toBeGreaterThan(3);
  expect(before.withTfjs).toEqual([]);
  expect(seen.tfjs).toEqual([]); // nothing loaded tfjs before the first Step

  await stepper.getByLabel('greedy (most likely)').check();
  await button(stepper, 'Step').click();
  const actions = stepper.locator('tr[data-kind="action"]');
  await expect(actions).toHaveCount(1, { timeout: budget(30_000) });
  await expect(actions.first().locator('.mdp-token')).toHaveText('[');
  await expect(stepper.getByTestId('mdp-status')).toContainText('t = 1: 1 action taken. Step picks a_1.');

  await button(stepper, 'Run to the end').click();
  await expect(stepper.getByTestId('mdp-status')).toContainText('The episode has ended after T = 18 actions (the policy wrote <eos>). Reward 1.1', { timeout: budget(30_000) });
  await expect(actions).toHaveCount(18);
  const observation = stepper.locator('tr[data-kind="observation"]');
  await expect(observation).toHaveCount(1);
  await expect(observation).toContainText('=2082');
  await expect(observation.locator('td').first()).toHaveText('environment');
  await expect(observation).toContainText('observation: from the environment, not trained on');
  await expect(actions.nth(6)).toContainText('closes the call [347*6]');
  await expect(stepper.getByTestId('mdp-state').locator('[data-role="observation"]')).toContainText('environment, not trained on');

  const rewards = stepper.locator('tr[data-kind="action"] td[data-col="reward"]');
  await expect(rewards.last()).toHaveText('1.1');
  await expect(stepper.getByTestId('mdp-returns')).toContainText('r_17 = 1 × 1 (correct) + 0.1 × 1 (format) = 1.1');
  await expect(rewards.first()).toHaveText('0');
  const returns = stepper.locator('tr[data-kind="action"] td[data-col="return"]');
  await expect(returns).toHaveText(Array(18).fill('1.1')); // γ = 1
  await stepper.getByLabel('0.9').check();
  await expect(returns.first()).toHaveText('0.1834'); // 0.9^17 × 1.1
  await expect(returns.nth(16)).toHaveText('0.99');
  await expect(stepper.getByTestId('mdp-returns')).toContainText('G_0 = 0.1834 with γ = 0.9');
  await expect(stepper.getByTestId('mdp-turns')).toContainText('[347*6]');
  await expect(stepper.getByTestId('mdp-status')).toContainText('in a worker');

  const { violations } = await (await axeOn(page)).include('.mdp-stepper').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes[0]?.target})`)).toEqual([]);

  await expectTfjsInWorkersOnly(page, seen);
  expect((await mainThreadTfjs(page)).withTfjs).toEqual([]);
  expect(seen.errors).toEqual([]);

  await button(stepper, 'Reset').click();
  await expect(actions).toHaveCount(0);
  await expect(stepper.getByTestId('mdp-status')).toContainText('t = 0: the policy has not acted yet');
  await expect(button(stepper, 'Step')).toBeEnabled();
});

test('a bad seed is refused with a message, and a new seed resets the episode', async ({ page }) => {
  const stepper = await openStepper(page);
  const seed = stepper.getByLabel('Seed');
  await seed.fill('1.5');
  await expect(stepper.getByTestId('mdp-status')).toContainText('The seed must be a whole number');
  await expect(button(stepper, 'Step')).toBeDisabled();
  await seed.fill('2');
  await expect(button(stepper, 'Step')).toBeEnabled();
  await button(stepper, 'Step').click();
  // Sampled with seed 2, the policy starts an answer from memory on 347*6 (tests/unit/widgets/mdp-policy.test.ts).
  await expect(stepper.locator('tr[data-kind="action"]').first().locator('.mdp-token')).toHaveText('#', { timeout: budget(30_000) });
});

test('with ?%ZZ=1 in the URL the stepper still runs to the end, with no tfjs on the main thread', async ({ page }) => {
  const seen = watch(page);
  const stepper = await openStepper(page, '?%ZZ=1');
  await stepper.getByLabel('Problem x').selectOption('007*6=');
  await button(stepper, 'Run to the end').click();
  await expect(stepper.getByTestId('mdp-status')).toContainText('The episode has ended', { timeout: budget(30_000) });
  await expect(stepper.locator('tr[data-kind="action"] td[data-col="return"]').first()).not.toHaveText('—');
  await expect(stepper.locator('.widget-error')).toHaveCount(0);
  await expectTfjsInWorkersOnly(page, seen);
  expect((await mainThreadTfjs(page)).withTfjs).toEqual([]);
  expect(seen.errors).toEqual([]);
});
