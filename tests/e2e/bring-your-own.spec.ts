import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { labSettled } from './boot';
import { writeReward } from './reward-editor';
import { budget } from './budget';

/** A reader's reward function, dataset and sweep in the labs (labs/shell/RewardPanel, DatasetPanel, SweepPanel). */
const status = (page: Page) => page.locator('.lab-status');

test.describe('a reader’s own reward function', () => {
  test('is scored beside the built-in rewards, shown in the inspector, and kept for the next visit', async ({ page }) => {
    await page.goto('/labs/grpo/?max_steps=2&eval_steps=0');
    await writeReward(page, 'function reward(completions, ctx) {\n  return completions.map((text, i) => (text.includes(ctx.answers[i]) ? 0.5 : 0));\n}\n');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect(status(page)).toContainText('finished', { timeout: budget(60_000) });
    await expect(page.locator('.inspector-table thead')).toContainText('custom');
    await expect(page.locator('summary', { hasText: 'Your reward function' })).toContainText('(on, weight 1)');
    // The code stays in this browser for the next visit.
    await page.reload();
    await page.locator('.lab-reward > summary').click();
    await expect(page.locator('.lab-reward .cm-content')).toContainText('ctx.answers[i]', { timeout: budget(30_000) });
  });

  test('takes export default as a CLI file has it; a broken one is explained under the editor until a run loads a good one', async ({ page }) => {
    await page.goto('/labs/grpo/?max_steps=2&eval_steps=0');
    await writeReward(page, 'export default function (completions) {\n  return completions.map(() => 0.25;\n}\n');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    const below = page.locator('.lab-reward-error');
    await expect(below).toContainText('Your reward function could not be loaded');
    await expect(below).toContainText('Expected: function reward(completions, ctx)');
    await expect(status(page)).toContainText('step 0');
    await expect(page.locator('.lab-notice')).toContainText('Training did not start');
    await writeRewardAgain(page, 'export default (completions) => completions.map(() => 0.25);\n');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect(status(page)).toContainText('finished', { timeout: budget(60_000) });
    await expect(below).toHaveCount(0);
    await expect(page.locator('.inspector-table thead')).toContainText('custom');
  });

  test('an infinite loop stops the run with a message, and the page stays usable', async ({ page }) => {
    await page.goto('/labs/grpo/?max_steps=5&eval_steps=0');
    await writeReward(page, 'function reward(completions) {\n  while (true) {}\n}\n');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect(page.locator('.lab-error')).toContainText('Training failed at step 1: the reward function failed: stopped after 2000 ms: the code did not return (an infinite loop?)', { timeout: budget(60_000) });
    // The page was never blocked: its controls still answer at once.
    const started = Date.now();
    await page.getByLabel('learning_rate').fill('0.0002');
    expect(Date.now() - started).toBeLessThan(budget(2000));
    await expect(status(page)).toContainText('stopped on an error');
  });

  test('a throw names its line; a wrong length and a NaN are refused; none can read the site’s storage or page', async ({ page }) => {
    await page.goto('/labs/grpo/?max_steps=3&eval_steps=1&eval_samples=20');
    await page.evaluate(() => {
      localStorage.setItem('arl:secret', 'do-not-leak');
      document.cookie = 'arl-secret=1; path=/';
    });
    // What the sandboxed code can see of the site, thrown back as its error message.
    await writeReward(
      page,
      [
        'function reward(completions) {',
        '  const probe = (f) => { try { return String(f()); } catch (e) { return e.name; } };',
        '  const seen = { storage: probe(() => localStorage.getItem("arl:secret")), cookie: probe(() => document.cookie), page: probe(() => parent.document.title), idb: probe(() => indexedDB.open("x")) };',
        '  throw new Error(JSON.stringify(seen));',
        '}',
      ].join('\n'),
    );
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    const alert = page.locator('.lab-error');
    await expect(alert).toContainText('line 4: Error: {"storage":"ReferenceError","cookie":"ReferenceError","page":"ReferenceError","idb":"SecurityError"}', { timeout: budget(60_000) });
    // The history before the failure is kept: the evaluation before the first step.
    await expect(status(page)).toContainText(/held-out accuracy \d/);

    for (const [code, message] of [
      ['function reward(completions) {\n  return completions.slice(1).map(() => 1);\n}', 'the reward function returned 63 values for 64 completions'],
      ['function reward(completions) {\n  return completions.map(() => NaN);\n}', 'the reward function returned NaN for completion 0'],
      ['function rewrd(completions) {\n  return [];\n}', 'Your reward function could not be loaded: the code must define a function named reward.'],
    ]) {
      await page.getByRole('button', { name: 'Reset' }).click();
      await writeRewardAgain(page, code);
      await page.getByRole('button', { name: 'Train', exact: true }).click();
      await expect(page.locator('.lab-error, .lab-notice').filter({ hasText: message })).toBeVisible({ timeout: budget(60_000) });
    }
  });
});

/** The panel is already open and on: replace the code only. */
async function writeRewardAgain(page: Page, code: string) {
  const editor = page.locator('.lab-reward .cm-content');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(code);
}

test.describe('a reader’s own dataset', () => {
  const lines = (n: number) =>
    Array.from({ length: n }, (_, i) => JSON.stringify({ prompt: `${String(i % 100).padStart(2, '0')}+01=`, answer: String((i % 100) + 2), split: i % 10 === 0 ? 'test' : 'train' })).join('\n');

  test('a bad file is refused with its line and nothing changes; a good one trains the run', async ({ page }) => {
    await page.goto('/labs/grpo/?max_steps=2&eval_steps=2&eval_samples=20');
    await page.locator('.lab-dataset > summary').click();
    const input = page.locator('.lab-dataset input[type=file]');
    await input.setInputFiles({ name: 'bad.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from('{"prompt": "07+45=", "answer": "52"}\n{"prompt": "seven+45=", "answer": "52"}\n') });
    await expect(page.locator('.lab-error')).toHaveText('Could not load bad.jsonl: line 2: "prompt" has the character "s" (position 1), which the model\'s vocabulary lacks (it knows "0123456789+-*=# ,[]"). Nothing was changed.');
    await expect(page.locator('.lab-dataset > summary')).toHaveText('Your dataset');

    await input.setInputFiles({ name: 'plus-two.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(lines(200)) });
    await expect(page.locator('.lab-dataset [role=status]')).toContainText('Training on plus-two.jsonl: 180 training lines, 20 held out for evaluation.');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect(status(page)).toContainText('finished', { timeout: budget(60_000) });
    // The groups the run trained on are the file's problems.
    await expect(page.locator('.lab-section', { has: page.locator('.inspector-table') })).toContainText('+01=');
  });

  test('the DPO lab takes preference pairs, and refuses prompt/answer lines with their line', async ({ page }) => {
    await page.goto('/labs/dpo/?max_steps=2&eval_steps=0&per_device_train_batch_size=8');
    await page.locator('.lab-dataset > summary').click();
    const input = page.locator('.lab-dataset input[type=file]');
    await input.setInputFiles({ name: 'answers.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(lines(20)) });
    await expect(page.locator('.lab-error')).toContainText('Could not load answers.jsonl: line 1: unknown field "answer" (the fields are prompt, chosen, rejected, split)');
    const pairs = Array.from({ length: 40 }, (_, i) => JSON.stringify({ prompt: `${String(i).padStart(2, '0')}+10=`, chosen: `#### ${i + 10}`, rejected: `#### ${i + 11}`, split: i < 4 ? 'test' : 'train' })).join('\n');
    await input.setInputFiles({ name: 'pairs.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(pairs) });
    await expect(page.locator('.lab-dataset [role=status]')).toContainText('36 training lines, 4 held out');
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect(status(page)).toContainText('finished', { timeout: budget(60_000) });
  });
});

test.describe('sweeps', () => {
  test('every lab has a sweep panel; the GRPO lab runs one and exports its table as CSV', async ({ page }) => {
    for (const slug of ['agent', 'lora', 'ppo', 'dpo']) {
      await page.goto(`/labs/${slug}/`);
      await expect(page.getByRole('region', { name: 'Sweep' })).toBeVisible();
    }
    await page.goto('/labs/grpo/?max_steps=2&eval_steps=2&eval_samples=20');
    // The lab live and its link read, as in the other lab specs: what a reader does before then is deferred-boot.spec's.
    await labSettled(page);
    const sweep = page.getByRole('region', { name: 'Sweep' });
    await sweep.getByLabel('First field to sweep').selectOption('learning_rate');
    await sweep.getByLabel('Values of the first field').fill('1e-4, 1e-3');
    await sweep.getByLabel('Seeds').fill('0,1');
    await sweep.getByRole('button', { name: 'Run sweep' }).click();
    await expect(sweep.getByLabel('Sweep progress')).toBeVisible();
    await expect(sweep.getByRole('status')).toContainText(/Run [1-4] of 4: learning_rate=/);
    await expect(sweep.getByRole('status')).toHaveText('4 of 4 runs done: the sweep is finished.', { timeout: budget(120_000) });
    const rows = sweep.getByRole('table', { name: 'Sweep results' }).locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('0.0001');
    await expect(sweep.getByRole('img', { name: /eval\/accuracy at the end of each run against learning_rate/ }).locator('circle')).toHaveCount(4);
    const download = page.waitForEvent('download');
    await sweep.getByRole('button', { name: 'Export CSV' }).click();
    const csv = fs.readFileSync(await (await download).path(), 'utf8').trim().split('\n');
    expect(csv[0]).toMatch(/^learning_rate,seed,eval\/accuracy,/);
    expect(csv.slice(1).map((row) => row.split(',').slice(0, 2).join(','))).toEqual(['0.0001,0', '0.0001,1', '0.001,0', '0.001,1']);

    // A value out of range is refused before anything runs.
    await sweep.getByLabel('Values of the first field').fill('1e-4, 5');
    await sweep.getByRole('button', { name: 'Run sweep' }).click();
    await expect(sweep.getByRole('alert')).toHaveText(/^learning_rate=5 seed=0: learning_rate must be in/);
  });
});
