/**
 * The framework starts on the reader's first interaction (app/_components/boot/deferred-boot.ts): nothing of it runs
 * while the page loads, the first move, key or focus starts it, a page whose address holds settings starts at once,
 * and a button pressed before React has hydrated is pressed again, once, after.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { goLive, holdFrameworkCode, labSettled } from './boot';
import { scrollIntoViewSettled, trackProseLayout } from './layout';
import { holdChunks } from './watch';
import { budget } from './budget';

type BootWindow = Window & { next?: unknown; __arlBoot: { booted(): boolean; live(): boolean; pending(): number } };
const state = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as BootWindow;
    return { booted: w.__arlBoot.booted(), live: w.__arlBoot.live(), nextRan: w.next !== undefined, readyState: document.readyState };
  });

function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

for (const path of ['/', '/chapters/grpo/', '/labs/grpo/', '/labs/ppo/', '/labs/dpo/', '/labs/lora/', '/labs/agent/', '/labs/team/', '/labs/vision/', '/labs/', '/path/', '/references/']) {
  test(`${path}: no framework code runs until the reader moves, then the page hydrates without errors`, async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto(path, { waitUntil: 'load' });
    expect(await page.locator('script[type="text/arl-deferred"]').count()).toBeGreaterThan(0);
    // Still idle a moment after load: Next's runtime (which sets window.next) has not run.
    await page.waitForTimeout(500);
    expect(await state(page)).toEqual({ booted: false, live: false, nextRan: false, readyState: 'complete' });
    await goLive(page);
    expect(await state(page)).toEqual({ booted: true, live: true, nextRan: true, readyState: 'complete' });
    expect(await page.locator('script[type="text/arl-deferred"]').count()).toBe(0);
    expect(errors).toEqual([]);
  });
}

for (const path of ['/exercises/', '/teach/', '/teach/grade/']) {
  test(`${path} (data-boot-eager: what it shows depends on the address or the files chosen) goes live with no interaction`, async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto(path);
    await page.waitForFunction(() => (window as unknown as BootWindow).__arlBoot.live());
    expect(errors).toEqual([]);
  });
}

test('the keyboard starts the page too (Tab to the first link)', async ({ page }) => {
  await page.goto('/chapters/ppo/');
  expect((await state(page)).booted).toBe(false);
  await page.keyboard.press('Tab');
  await page.waitForFunction(() => (window as unknown as BootWindow).__arlBoot.live());
});

test('a lab link with settings in its address starts at once and shows them, with no interaction', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/labs/grpo/?seed=7&learning_rate=0.001');
  await page.waitForFunction(() => (window as unknown as BootWindow).__arlBoot.live());
  await expect(page.getByLabel('seed', { exact: true })).toHaveValue('7');
  await expect(page.getByLabel('learning_rate')).toHaveValue('0.001');
  expect(errors).toEqual([]);
});

test('a hash with settings pasted over an idle page starts it', async ({ page }) => {
  await page.goto('/chapters/dpo/');
  expect((await state(page)).booted).toBe(false);
  await page.evaluate(() => {
    location.hash = '#beta=0.5';
  });
  await page.waitForFunction(() => (window as unknown as BootWindow).__arlBoot.live());
});

test('Train pressed before the page is live starts one run (pressed again once, not lost, not twice)', async ({ page }) => {
  const errors = collectErrors(page);
  const release = await holdFrameworkCode(page); // the framework's code arrives only after the click
  await page.goto('/labs/ppo/', { waitUntil: 'domcontentloaded' });
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  expect(await state(page)).toMatchObject({ booted: true, live: false });
  release();
  const status = page.locator('.lab-status');
  await expect(status).toContainText(/step [1-9]/, { timeout: budget(60_000) });
  // A second press would have paused it: the run goes on to its end (max_steps 30 by default).
  await expect(status).toContainText('finished', { timeout: budget(90_000) });
  await expect(status).toContainText('step 30');
  await expect(status).not.toContainText('paused');
  expect(errors).toEqual([]);
});

test('the theme toggle, which works before React, flips the theme once when pressed first', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/chapters/dpo/');
  expect((await state(page)).booted).toBe(false);
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await goLive(page);
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
});

test('a submit button pressed before the page is live does not send its form to the address bar; React takes it', async ({ page }) => {
  // /teach/ starts at once (data-boot-eager); holding the framework's code keeps it from going live.
  const release = await holdFrameworkCode(page);
  await page.goto('/teach/', { waitUntil: 'domcontentloaded' });
  await page.getByRole('button', { name: 'Make the assignment' }).click();
  expect(await state(page)).toMatchObject({ booted: true, live: false });
  release();
  await page.waitForFunction(() => (window as unknown as BootWindow).__arlBoot.live());
  await expect(page.getByRole('region', { name: 'Your assignment' })).toBeVisible();
  expect(new URL(page.url()).search).toBe('');
});

test('a preset picked before the page is live reaches the lab once React has it', async ({ page }) => {
  const release = await holdFrameworkCode(page);
  await page.goto('/labs/agent/', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Preset').selectOption('multi_step');
  expect(await state(page)).toMatchObject({ booted: true, live: false });
  release();
  await expect(page.locator('.lab-preset-note')).toContainText('Planning');
  await expect(page.getByLabel('Preset')).toHaveValue('multi_step');
});

test('a toggle pressed before the page is live is pressed once: "Mark chapter as completed" ends completed', async ({ page }) => {
  await trackProseLayout(page);
  await page.goto('/chapters/ppo/');
  await scrollIntoViewSettled(page.locator('.complete-toggle'));
  expect((await state(page)).booted).toBe(false);
  await page.getByRole('button', { name: 'Mark chapter as completed' }).click();
  await expect(page.getByRole('button', { name: /Chapter completed/ })).toBeVisible();
  await page.waitForFunction(() => (window as unknown as BootWindow).__arlBoot.pending() === 0);
  await expect(page.getByRole('button', { name: /Chapter completed/ })).toHaveAttribute('aria-pressed', 'true');
});

test('a press that lands while React hydrates is held from it and pressed once, after the page is live', async ({ page }) => {
  // React hydrates the page in slices of a few milliseconds; a press in between would make it hydrate on the spot and
  // deliver the press, and the replay would press again (in CI "Mark chapter as completed" was toggled back). The test
  // presses "Mark chapter as completed" in the first task after React has put its listeners on the document
  // (hydrateRoot(document) adds its bubble-phase click listener; the boot script and the theme toggle listen before
  // the framework's code has run), and records, each time React's click listener runs, whether the page was live: the
  // boot script holds every press made before then, so React must never run a click listener before it.
  await page.addInitScript(() => {
    type Boot = { live(): boolean };
    const w = window as unknown as { next?: unknown; __arlBoot?: Boot; __liveAtClick: boolean[]; __pressedLive?: boolean };
    w.__liveAtClick = [];
    const add = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
      const capture = options === true || (typeof options === 'object' && options?.capture === true);
      if (this === document && type === 'click' && !capture && w.next !== undefined && typeof listener === 'function') {
        const react = listener;
        listener = function (this: unknown, event: Event) {
          w.__liveAtClick.push(w.__arlBoot!.live());
          return react.call(this, event);
        };
        if (w.__pressedLive === undefined) {
          setTimeout(() => {
            w.__pressedLive = w.__arlBoot!.live();
            document.querySelector<HTMLButtonElement>('.complete-toggle button')!.click();
          });
        }
      }
      return add.call(this, type, listener, options);
    };
  });
  await page.goto('/chapters/ppo/');
  expect((await state(page)).booted).toBe(false);
  await page.mouse.move(12, 9); // the reader reaches for the page: it boots
  await page.waitForFunction(() => (window as unknown as { __pressedLive?: boolean }).__pressedLive !== undefined);
  await page.waitForFunction(() => (window as unknown as BootWindow).__arlBoot.live() && (window as unknown as BootWindow).__arlBoot.pending() === 0);
  await page.waitForTimeout(300);
  const toggle = page.locator('.complete-toggle button');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(toggle).toHaveText('✓ Chapter completed');
  const live = await page.evaluate(() => (window as unknown as { __liveAtClick: boolean[] }).__liveAtClick);
  expect(live, 'React heard the press once, replayed once the page was live').toEqual([true]);
  const pressedLive = await page.evaluate(() => (window as unknown as { __pressedLive: boolean }).__pressedLive);
  test.info().annotations.push({ type: 'pressed', description: pressedLive ? 'after the page was live' : 'while React was hydrating' });
});

test('a quiz choice picked before the page is live is still picked once its island wakes, and can be checked', async ({ page }) => {
  // A quiz is an island (a React root of its own that hydrates when the reader comes to it): the choice stays ticked
  // in the page's HTML and the quiz reads it on mount, so "Check answer" (disabled in the server's HTML) enables.
  await trackProseLayout(page);
  const release = await holdFrameworkCode(page);
  await page.goto('/chapters/grpo/', { waitUntil: 'domcontentloaded' });
  const quiz = page.locator('form.quiz').first();
  await scrollIntoViewSettled(quiz);
  await quiz.locator('.quiz-choice input[type=radio]').nth(1).check();
  expect(await state(page)).toMatchObject({ booted: true, live: false });
  await expect(quiz.getByRole('button', { name: 'Check answer' })).toBeDisabled();
  release();
  await page.waitForFunction(() => (window as unknown as BootWindow).__arlBoot.live());
  await expect(page.locator('.island').filter({ has: page.locator('form.quiz') }).first()).toHaveAttribute('data-island', 'live');
  await expect(quiz.locator('.quiz-choice input[type=radio]').nth(1)).toBeChecked();
  await quiz.getByRole('button', { name: 'Check answer' }).click();
  await expect(quiz.locator('.quiz-feedback')).toBeVisible();
});

test('a run file chosen before the page is live is imported once React has the lab', async ({ page }, testInfo) => {
  const history = [1, 2, 3].map((step) => ({ step, kind: 'train', metrics: { reward: step / 10, loss: 0.1 } }));
  const file = testInfo.outputPath('early.json');
  fs.writeFileSync(file, JSON.stringify({ format: 'agentic-rl-lab/run', version: 1, trainer: 'grpo', settings: { seed: 3 }, history }));
  const release = await holdFrameworkCode(page);
  await page.goto('/labs/grpo/', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Import run').setInputFiles(file);
  expect(await state(page)).toMatchObject({ live: false });
  release();
  await expect(page.getByText('Imported early.json: 3 steps, overlaid on the charts.')).toBeVisible();
});

test('fields filled after the page is live but before the lab has hydrated reach the lab', async ({ page }) => {
  // A lab hydrates after the page (its code is a chunk of its own): what is typed in between lands on HTML React has
  // not taken yet, and hydration would put the fields back to the lab's state.
  const { release } = await holdChunks(page, 'First field to sweep');
  await page.goto('/labs/grpo/?max_steps=2&eval_steps=2&eval_samples=20'); // settings in the address: live at once
  await page.waitForFunction(() => (window as unknown as BootWindow).__arlBoot.live());
  const sweep = page.getByRole('region', { name: 'Sweep' });
  await sweep.getByLabel('First field to sweep').selectOption('beta');
  await sweep.getByLabel('Values of the first field').fill('0, 0.04');
  await sweep.getByLabel('Seeds').fill('0,1');
  expect(await page.locator('.lab[data-boot-pending]').count(), 'typed before the lab hydrated (it is pending until then)').toBe(1);
  await release();
  await labSettled(page);
  await expect(sweep.getByLabel('First field to sweep')).toHaveValue('beta');
  await expect(sweep.getByLabel('Values of the first field')).toHaveValue('0, 0.04');
  await expect(sweep.getByLabel('Seeds')).toHaveValue('0,1');
  // React has them too (not only the page): a sweep of 2 values × 2 seeds starts.
  await sweep.getByRole('button', { name: 'Run sweep' }).click();
  await expect(sweep.getByRole('status')).toContainText(/Run [1-4] of 4: beta=/);
});

test('a section opened before the page is live is open for React too: the reward panel shows its editor', async ({ page }) => {
  const release = await holdFrameworkCode(page);
  await page.goto('/labs/grpo/', { waitUntil: 'domcontentloaded' });
  await page.locator('.lab-reward > summary').click(); // the browser opens it; React, not there yet, misses the toggle
  await expect(page.locator('.lab-reward')).toHaveAttribute('open', '');
  expect(await state(page)).toMatchObject({ booted: true, live: false });
  release();
  await expect(page.locator('.lab-reward .cm-content[aria-label="Reward function"]')).toBeVisible({ timeout: budget(30_000) });
});

test('a button pressed while the lab is still reading its link waits for it: the comparison runs on the link’s seed', async ({ page }) => {
  // The lab is marked pending (data-boot-pending) from the server's HTML until it has read its address. A press in
  // that time can reach a lab React already has (React hydrates it on the spot to deliver the press): it would start
  // from the preset's settings the server rendered. The test puts a settled lab back in that state, as it is for the
  // moment after hydration, and presses.
  await page.goto('/labs/grpo/?max_steps=2&eval_steps=2&seed=3');
  await labSettled(page);
  // What the boot recorded while the page loaded (a <details> open in the HTML announces itself) is done first.
  await expect.poll(() => page.evaluate(() => (window as unknown as BootWindow).__arlBoot.pending())).toBe(0);
  await page.locator('.lab').evaluate((lab) => lab.setAttribute('data-boot-pending', ''));
  const compare = page.getByRole('region', { name: 'Compare' });
  await compare.getByRole('button', { name: 'Run grpo_paper, dr_grpo, dapo, gspo' }).click();
  // React did not hear it: nothing started, and the boot holds the press.
  expect(await page.evaluate(() => (window as unknown as BootWindow).__arlBoot.pending())).toBe(1);
  await page.waitForTimeout(300);
  await expect(compare.getByRole('status')).toHaveCount(0);
  await expect(page.locator('.lab-status')).toContainText('ready');
  await page.locator('.lab').evaluate((lab) => lab.removeAttribute('data-boot-pending'));
  await expect(compare.getByRole('status')).toContainText('Running grpo_paper (1 of 4)');
  await expect(page.getByLabel('seed', { exact: true })).toHaveValue('3');
  await expect.poll(() => page.evaluate(() => (window as unknown as BootWindow).__arlBoot.pending())).toBe(0);
});

test('a widget field typed before the page is live and again just after ends with what was typed last', async ({ page }) => {
  // The boot records the value typed before the page is live and, for an element outside a widget, sets it again once
  // React has it. A widget reads its own fields when it wakes, so its value need not be set again; setting it ~100 ms
  // after the page went live put back the value typed before, over what the reader had typed since (in a full run the
  // calculator ended on two equal rewards for "1, 0, 0, 1" typed key by key).
  const release = await holdFrameworkCode(page);
  await page.goto('/chapters/grpo/', { waitUntil: 'domcontentloaded' });
  const calc = page.locator('.advantage-calculator');
  await calc.getByRole('textbox').fill('1, 0');
  expect(await state(page)).toMatchObject({ booted: true, live: false });
  await page.evaluate(() => {
    const input = document.querySelector<HTMLInputElement>('.advantage-calculator input[data-field="rewards"]')!;
    // As a key does: the value changes without going through the element's own setter (React's value tracker).
    const typeKey = () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '1, 0, 0, 1');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    // The first task after the page goes live: well before the boot's first 50 ms poll.
    const poll = () => ((window as unknown as BootWindow).__arlBoot.live() ? typeKey() : setTimeout(poll, 0));
    poll();
  });
  release();
  await page.waitForFunction(() => (window as unknown as BootWindow).__arlBoot.live());
  await expect.poll(() => page.evaluate(() => (window as unknown as BootWindow).__arlBoot.pending())).toBe(0);
  await expect(calc.getByRole('textbox')).toHaveValue('1, 0, 0, 1');
  await expect(calc.locator('tbody td[data-scale="group"]')).toHaveText(['+0.866', '−0.866', '−0.866', '+0.866']);
});
