/**
 * Predict, run, explain: the GRPO lab asks its default preset's claim before a run (optional: Train never waits),
 * and after the run grades the claim on that run's own log with the claim's verdict (lib/claims/grpo.ts), at a
 * desktop and a phone width, with no serious axe violation and nothing wider than the screen. The path counts it.
 */
import { expect, test, type Page } from '@playwright/test';
import { axeOn, seriousViolations } from './axe';
import { goLive, labSettled } from './boot';
import { budget } from './budget';
import { trainToTheEnd } from './status';

const status = (page: Page) => page.locator('.lab-status');
const verdictBox = (page: Page) => page.getByRole('region', { name: 'Your prediction and what this run measured' });


for (const width of [1280, 390]) {
  test(`at ${width} px: predict, train, read what the run measured and whether the claim held; no prediction is needed`, async ({ page }) => {
    test.setTimeout(budget(240_000));
    await page.setViewportSize({ width, height: 900 });
    // The claim reads held-out accuracy at step 20: the shortest run it can grade.
    await page.goto('/labs/grpo/?max_steps=20');
    await labSettled(page);
    const question = page.getByRole('group', { name: 'Predict first (optional)' });
    await expect(question).toContainText(/From the SFT checkpoint’s \d+(\.\d)?%, held-out accuracy at step 20 will/);
    // The checkpoint's accuracy as the question states it (the claim builds the question from its own run).
    const start = /From the SFT checkpoint’s (\d+(?:\.\d)?)%/.exec((await question.textContent()) ?? '')![1];
    await question.getByRole('radio', { name: 'stay within 10 points of it' }).check();
    expect(await seriousViolations(page)).toEqual([]);

    await trainToTheEnd(page, 20);
    const box = verdictBox(page);
    await expect(box).toContainText('Your prediction: stay within 10 points of it.');
    await expect(box).toContainText('The claim: rise by more than 10 points.');
    // What the run measured, from where the question said it starts, and a verdict that follows from it: more than 10
    // points above the start is "held".
    const measured = new RegExp(`This run measured: held-out accuracy ${Number(start).toFixed(1).replace('.', '\\.')}% → (\\d+\\.\\d)% at step 20\\.`).exec((await box.textContent()) ?? '');
    expect(measured, (await box.textContent()) ?? '').not.toBeNull();
    const held = Number(measured![1]) > Number(start) + 10;
    await expect(box).toContainText(held ? 'The claim held on this run (seed 0).' : 'The claim did not hold on this run (seed 0).');
    await expect(box).toContainText('It is established on seed 0 of the preset as shipped (npm run claims); one seed can differ.');
    await expect(box).toContainText(held ? 'This run showed what the claim says, not what you predicted.' : 'The claim did not hold on this run, so the run cannot settle your prediction.');
    await expect(box.getByRole('link', { name: 'Read “Lab: GRPO on arithmetic”' })).toHaveAttribute('href', '/chapters/grpo/#lab-grpo-on-arithmetic');
    // The whole page after the run, the inspectors' scrolling tables included: each is focusable (tabIndex 0) and
    // named, so a keyboard reader can scroll it (axe's scrollable-region-focusable).
    const { violations } = await (await axeOn(page)).analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // Another run with no answer: Train starts at once, and the box says no prediction was made.
    await expect(page.getByRole('group', { name: 'Predict first (optional)' }).getByRole('radio', { checked: true })).toHaveCount(0);
    await trainToTheEnd(page, 20);
    await expect(verdictBox(page)).toContainText('You made no prediction before this run.');
    await expect(verdictBox(page)).toContainText(/The claim (held|did not hold) on this run \(seed 0\)\./);

    // The learning path counts the prediction made (one: the second run had none).
    await page.goto('/path/');
    await goLive(page); // stored progress shows once the page is live
    await expect(page.getByText(/1 prediction made before a run, 0 matching what the run showed/).first()).toBeVisible();
  });
}
