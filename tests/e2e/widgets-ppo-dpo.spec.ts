import { expect, test, type Locator } from '@playwright/test';
import { axeOn } from './axe';
import { expectTfjsInWorkersOnly, holdChunks, watch } from './watch';

/** GAE by the textbook recursion, in plain JS: dones[t] = 1 means step t begins a new episode. */
function gaeByHand(r: number[], v: number[], dones: number[], nextValue: number, nextDone: number, gamma: number, lam: number) {
  const T = r.length;
  const adv = new Array<number>(T);
  let next = 0;
  for (let t = T - 1; t >= 0; t--) {
    const notDone = 1 - (t === T - 1 ? nextDone : dones[t + 1]);
    const vNext = t === T - 1 ? nextValue : v[t + 1];
    const delta = r[t] + gamma * vNext * notDone - v[t];
    next = delta + gamma * lam * notDone * next;
    adv[t] = next;
  }
  return adv;
}

const signed = (x: number) => (x > 0 ? `+${x.toFixed(3)}` : `\u2212${Math.abs(x).toFixed(3)}`);
const col = (table: Locator, name: string) => table.locator(`tbody td[data-col="${name}"]`);

/** Moves a range input with the keyboard, as a reader would. */
async function press(slider: Locator, key: string, times: number) {
  await slider.focus();
  for (let i = 0; i < times; i++) await slider.press(key);
}

test('the GAE calculator shows its build-time table without tfjs, then recomputes live and explains bad input', async ({ page, request }) => {
  // Default: rewards 0,0,1,0,1; values .5,.6,.8,.4,.7; dones 0,0,0,1,0; nextValue 0, nextDone; γ .99, λ .95.
  const expected = gaeByHand([0, 0, 1, 0, 1], [0.5, 0.6, 0.8, 0.4, 0.7], [0, 0, 0, 1, 0], 0, 1, 0.99, 0.95);
  expect(expected.map(signed)).toEqual(['+0.451', '+0.380', '+0.200', '+0.575', '+0.300']);

  // The default table is in the static HTML itself: computed at build time, not in the browser.
  const html = await (await request.get('/chapters/ppo/')).text();
  expect(html).toContain('data-testid="gae-table"');
  expect(html).toContain('+0.575');

  const seen = watch(page);
  await page.goto('/chapters/ppo/');
  const calc = page.locator('.gae-calculator');
  await calc.scrollIntoViewIfNeeded();
  const table = calc.getByTestId('gae-table');
  await expect(col(table, 'advantage')).toHaveText(expected.map(signed));
  // δ_2 = 1 + γ·V_3·(1 − done_3) − V_2 = 1 − 0.8: step 3 begins a new episode, so nothing is bootstrapped.
  await expect(col(table, 'delta').nth(2)).toContainText('+0.200');
  await expect(col(table, 'delta').nth(2)).toContainText('episode ends');
  await expect(table.locator('tbody tr[data-t="3"] th')).toContainText('new episode');
  await expect(col(table, 'return')).toHaveText(['0.951', '0.980', '1.000', '0.975', '1.000']);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  expect(seen.scripts).toBeGreaterThan(0);
  expect(seen.tfjs).toEqual([]);

  // Editing the rewards recomputes, with tfjs loaded on demand in the numeric worker.
  const rewards = calc.getByRole('textbox', { name: /^Rewards/ });
  await rewards.fill('1, 0, 1, 0, 2');
  const edited = gaeByHand([1, 0, 1, 0, 2], [0.5, 0.6, 0.8, 0.4, 0.7], [0, 0, 0, 1, 0], 0, 1, 0.99, 0.95);
  await expect(col(table, 'advantage').first()).toHaveText(signed(edited[0]));
  await expect(col(table, 'advantage')).toHaveText(edited.map(signed));
  await expect(calc.getByText('computing…')).toHaveCount(0);
  await expectTfjsInWorkersOnly(page, seen);

  // The chapter's worked example: γ = 0.9, λ = 0.5, nextValue 0.4, nextDone unticked.
  await rewards.fill('0, 0, 1, 0');
  await calc.getByRole('textbox', { name: /^Values/ }).fill('0.5, 0.6, 0.8, 0.3');
  await calc.getByRole('textbox', { name: /^dones/ }).fill('0, 0, 0, 1');
  await calc.getByRole('textbox', { name: /nextValue/ }).fill('0.4');
  await calc.getByRole('checkbox', { name: /nextDone/ }).uncheck();
  const gamma = calc.getByRole('slider', { name: /^γ/ });
  const lam = calc.getByRole('slider', { name: /^λ/ });
  await press(gamma, 'ArrowLeft', 9);
  await press(lam, 'ArrowLeft', 45);
  await expect(calc.getByTestId('gae-gamma-value')).toHaveText('0.90');
  await expect(calc.getByTestId('gae-lam-value')).toHaveText('0.50');
  await expect(col(table, 'advantage').nth(1)).toHaveText('+0.210');
  await expect(col(table, 'advantage').nth(2)).toHaveText('+0.200');
  await expect(col(table, 'advantage').nth(3)).toHaveText('+0.060');
  await expect(col(table, 'return').nth(1)).toHaveText('0.810');
  await expect(table.locator('caption')).toContainText('γλ = 0.4500');

  // Bad input: a message next to the field, and the last valid table stays, marked as such.
  const cases: [Locator, string, RegExp][] = [
    [rewards, '0, x, 1, 0', /"x" is not a number/],
    [rewards, '0, 0, 1', /Lengths differ: 4 values for 3 rewards/],
    [rewards, '', /Enter the rewards/],
    [rewards, Array(13).fill('1').join(', '), /At most 12 steps/],
    [calc.getByRole('textbox', { name: /^dones/ }), '0, 2, 0, 1', /dones must be 0 or 1; step 1 has 2/],
    [calc.getByRole('textbox', { name: /nextValue/ }), 'abc', /"abc" is not a number/],
  ];
  for (const [input, bad, message] of cases) {
    const before = await input.inputValue();
    await input.fill(bad);
    await expect(calc.locator('.widget-error', { hasText: message })).toBeVisible();
    await expect(table.locator('caption')).toContainText('last valid input');
    await expect(col(table, 'advantage').nth(1)).toHaveText('+0.210');
    await input.fill(before);
    await expect(calc.locator('.widget-error')).toHaveCount(0);
  }
  // The message is tied to the field it is about.
  await rewards.fill('0, x, 1, 0');
  await expect(rewards).toHaveAttribute('aria-invalid', 'true');
  await expect(rewards).toHaveAccessibleDescription(/"x" is not a number/);
  expect(seen.errors).toEqual([]);
});

test('the GAE calculator keeps what the reader typed before its own chunk arrived', async ({ page }) => {
  // The widget's client code is a chunk of its own (islands/Island.tsx); hold it back so the reader types first.
  const { release } = await holdChunks(page, 'gae-calculator');
  const seen = watch(page);
  await page.goto('/chapters/ppo/');
  const calc = page.locator('.gae-calculator');
  const rewards = calc.getByRole('textbox', { name: /^Rewards/ });
  await rewards.fill('1, 0, 1, 0, 2');
  await release();
  const edited = gaeByHand([1, 0, 1, 0, 2], [0.5, 0.6, 0.8, 0.4, 0.7], [0, 0, 0, 1, 0], 0, 1, 0.99, 0.95);
  await expect(col(calc.getByTestId('gae-table'), 'advantage')).toHaveText(edited.map(signed));
  await expect(rewards).toHaveValue('1, 0, 1, 0, 2');
  expect(seen.errors).toEqual([]);
});

test('the DPO loss explorer shows its build-time plot without tfjs, and its readout follows β', async ({ page, request }) => {
  const html = await (await request.get('/chapters/dpo/')).text();
  expect(html).toContain('data-testid="dpo-readout"');

  const seen = watch(page);
  await page.goto('/chapters/dpo/');
  const dpo = page.locator('.dpo-explorer');
  await dpo.scrollIntoViewIfNeeded();
  const readout = dpo.getByTestId('dpo-readout');
  const sigmoid = readout.locator('tr[data-loss-type="sigmoid"]');
  // Default β = 0.1 at z = 2: loss −log σ(0.2) = 0.5981, weight β·σ(−0.2) = 0.0450.
  const sig = (x: number) => 1 / (1 + Math.exp(-x));
  await expect(sigmoid.locator('td[data-col="loss"]')).toHaveText((-Math.log(sig(0.2))).toFixed(4));
  await expect(sigmoid.locator('td[data-col="weight"]')).toHaveText((0.1 * sig(-0.2)).toFixed(4));
  await expect(dpo.getByTestId('dpo-margin')).toHaveText('0.2000');
  // Hinge 1 − βz = 0.8; IPO (z − 1/(2β))² = 9, weight −∂/∂z = 2(5 − 2) = 6.
  await expect(readout.locator('tr[data-loss-type="hinge"] td[data-col="loss"]')).toHaveText('0.8000');
  await expect(readout.locator('tr[data-loss-type="ipo"] td[data-col="loss"]')).toHaveText('9.0000');
  await expect(readout.locator('tr[data-loss-type="ipo"] td[data-col="weight"]')).toContainText('6.0000');
  const lossPanel = dpo.locator('[data-panel="loss"]');
  const sigmoidLine = lossPanel.locator('path[data-loss-type="sigmoid"]');
  await expect(sigmoidLine).toBeAttached();
  await expect(lossPanel.locator('path[data-loss-type="ipo"]')).toHaveCount(0); // not ticked by default
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  expect(seen.tfjs).toEqual([]);

  // Ticking a loss type draws its build-time curve: still no tfjs.
  await dpo.getByRole('checkbox', { name: /'ipo'/ }).check();
  await expect(lossPanel.locator('path[data-loss-type="ipo"]')).toBeAttached();
  await expect(lossPanel.locator('[data-mark="ipo"]')).toContainText('z = 1/(2β) = 5.00');
  expect(seen.tfjs).toEqual([]);

  // β to 1: the readout changes, computed by the numeric face in the browser's numeric worker.
  const before = await sigmoidLine.getAttribute('d');
  const beta = dpo.getByRole('slider', { name: /^β/ });
  await beta.focus();
  await page.keyboard.press('End');
  await expect(beta).toHaveValue('1');
  await expect(dpo.getByTestId('dpo-beta-value')).toHaveText('1.00');
  await expect(sigmoid.locator('td[data-col="loss"]')).toHaveText((-Math.log(sig(2))).toFixed(4));
  await expect(sigmoid.locator('td[data-col="weight"]')).toHaveText(sig(-2).toFixed(4));
  await expect(dpo.getByTestId('dpo-margin')).toHaveText('2.0000');
  // βz = 2 ≥ 1: the hinge has no gradient left.
  await expect(readout.locator('tr[data-loss-type="hinge"] td[data-col="weight"]')).toContainText('margin reached');
  await expect(readout.locator('tr[data-loss-type="ipo"] td[data-col="weight"]')).toContainText('past the target');
  await expect(sigmoidLine).not.toHaveAttribute('d', before!);
  await expect(dpo.getByText('computing…')).toHaveCount(0);
  await expectTfjsInWorkersOnly(page, seen);

  // label_smoothing changes sigmoid (conservative DPO), not hinge.
  const hingeLoss = await readout.locator('tr[data-loss-type="hinge"] td[data-col="loss"]').textContent();
  const ls = dpo.getByRole('slider', { name: /label_smoothing/ });
  await press(ls, 'ArrowRight', 20);
  await expect(dpo.getByTestId('dpo-labelSmoothing-value')).toHaveText('0.20');
  const smoothed = -(0.8 * Math.log(sig(2)) + 0.2 * Math.log(sig(-2)));
  await expect(sigmoid.locator('td[data-col="loss"]')).toHaveText(smoothed.toFixed(4));
  await expect(readout.locator('tr[data-loss-type="hinge"] td[data-col="loss"]')).toHaveText(hingeLoss!);
  expect(seen.errors).toEqual([]);
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violations in the PPO and DPO widgets (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/chapters/ppo/');
    await expect(page.locator('.gae-calculator')).toBeVisible();
    await page.locator('.gae-calculator').getByRole('textbox', { name: /^Rewards/ }).fill('1, x'); // include the error state
    await expect(page.locator('.gae-calculator .widget-error')).toBeVisible();
    const serious = async (widget: string) => {
      const { violations } = await (await axeOn(page)).include(widget).analyze();
      return violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${widget} ${v.id}: ${v.help} (${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target})`);
    };
    expect(await serious('.gae-calculator')).toEqual([]);

    await page.goto('/chapters/dpo/');
    const dpo = page.locator('.dpo-explorer');
    await expect(dpo).toBeVisible();
    for (const t of ['hinge', 'ipo', 'robust']) await dpo.getByRole('checkbox', { name: new RegExp(`'${t}'`) }).check();
    expect(await serious('.dpo-explorer')).toEqual([]);
  });
}
