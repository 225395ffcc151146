/**
 * Assignments end to end, in Chromium: an instructor makes one on /teach/, a student opens the link, trains with the
 * locked settings, submits; the grader re-evaluates the submission (ok) and gives every tampered or broken file the
 * right status, showing every string from a file as text and loading tfjs only in its worker.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { sha256Hex, toBase64 } from '@/lib/teach/canonical';
import { submissionDigest } from '@/lib/teach/submission';
import { studentSeed } from '@/lib/teach/seeds';
import { goLive } from './boot';
import { expectTfjsInWorkersOnly, watch } from './watch';
import { budget } from './budget';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-teach-e2e-'));
const files = { assignment: path.join(dir, 'assignment.json'), submission: path.join(dir, 'ada.json') };
const HOSTILE_NAME = '<img src=x onerror="window.pwned=1"><b>Ada</b>';

async function setField(page: Page, name: string, value: string) {
  const input = page.getByRole('textbox', { name, exact: true });
  await input.fill(value);
  await input.press('Enter');
}

/** Loads the assignment file, then the submissions, and waits until every row is graded. */
async function grade(page: Page, submissions: Parameters<Page['setInputFiles']>[1]) {
  await page.goto('/teach/grade/');
  await page.getByLabel('Assignment file').setInputFiles(files.assignment);
  await expect(page.getByText(/Week 3 \(grpo lab, id [0-9a-f]{12}\)/)).toBeVisible();
  await page.getByLabel('Submission files').setInputFiles(submissions);
  await expect(page.getByRole('status')).toHaveText(/^Graded (\d+) of \1\.$/, { timeout: budget(120_000) });
}
/** No serious or critical accessibility violation on the page as it is now. */
async function expectAccessible(page: Page) {
  expect(await seriousViolations(page), page.url()).toEqual([]);
}

const rowOf = (page: Page, file: string) => page.getByRole('table', { name: 'Grades' }).getByRole('row').filter({ has: page.getByRole('cell', { name: file, exact: true }) });

test.describe.serial('assignments', () => {
  test('make an assignment, open it as a student, train, submit, grade: an ok row', async ({ page }) => {
    test.setTimeout(budget(240_000));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    // The instructor.
    await page.goto('/teach/');
    await goLive(page);
    await expect(page.getByRole('combobox', { name: 'Lab', exact: true })).toHaveValue('grpo'); // the default: a goal of 0.45 is above where it starts
    await page.getByLabel('Title').fill('Week 3');
    // Nothing is made while a field shows an error (the form keeps the last good value meanwhile).
    await setField(page, 'max_steps', '-3');
    await expect(page.getByText('max_steps must be in [1, 100000], got -3', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Make the assignment' }).click();
    await expect(page.locator('.lab-error')).toContainText('fix max_steps first');
    await expect(page.getByLabel('Students’ link')).toHaveCount(0);
    await setField(page, 'max_steps', '3');
    await setField(page, 'eval_steps', '3');
    await setField(page, 'eval_samples', '20');
    for (const key of ['max_steps', 'beta']) await page.getByRole('checkbox', { name: `lock ${key}` }).check();
    await expect(page.getByText(/Seed not locked: each student trains on a seed of their own/)).toBeVisible();
    await page.getByLabel('Threshold').fill('1.5'); // no accuracy reaches it
    await page.getByRole('button', { name: 'Make the assignment' }).click();
    await expect(page.locator('.lab-error')).toContainText('eval/accuracy >= 1.5 can never be met');
    await page.getByLabel('Threshold').fill('0.1');
    await page.getByLabel('Evaluation seed').fill('77');
    await page.getByLabel('Due').fill('2099-01-01T12:00');
    await page.getByLabel('Time zone').selectOption('60');
    await expect(page.getByText('Stored as 2099-01-01 12:00 (UTC+01:00)')).toBeVisible();
    await page.getByRole('textbox', { name: 'Instructions' }).fill('**Train** it. <script>window.pwned=1</script> [the chapter](https://example.org/grpo) [bad](javascript:alert(1))');
    await expect(page.getByLabel('Instructions preview').locator('strong')).toHaveText('Train');
    await page.getByRole('button', { name: 'Make the assignment' }).click();
    const link = await page.getByLabel('Students’ link').inputValue();
    await expectAccessible(page);
    expect(link).toMatch(/\/labs\/grpo\/#assignment=[A-Za-z0-9_-]+$/);
    const saved = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the assignment file' }).click();
    await (await saved).saveAs(files.assignment);
    const made = JSON.parse(fs.readFileSync(files.assignment, 'utf8'));
    // Reopened to edit or reissue: every field back in the form.
    await page.reload();
    await goLive(page);
    await page.getByLabel('Open an assignment file to edit or reissue').setInputFiles(files.assignment);
    await expect(page.getByText(/^Opened Week 3 \(id [0-9a-f]{12}, version 2\)/)).toBeVisible();
    await expect(page.getByLabel('Title')).toHaveValue('Week 3');
    await expect(page.getByLabel('Threshold')).toHaveValue('0.1');
    await expect(page.getByLabel('Due')).toHaveValue('2099-01-01T12:00');
    await expect(page.getByLabel('Time zone')).toHaveValue('60');
    await expect(page.getByRole('textbox', { name: 'max_steps', exact: true })).toHaveValue('3');
    await expect(page.getByRole('checkbox', { name: 'lock beta' })).toBeChecked();
    expect(made).toMatchObject({ version: 2, seeding: 'per_student', due: '2099-01-01T12:00:00+01:00', grading: { eval_seed: 77, eval_samples: 200, exercise_seed: expect.any(Number) } });

    // The student.
    await page.goto(link);
    const banner = page.getByRole('region', { name: 'Assignment' });
    await expect(banner.getByRole('heading', { name: 'Assignment: Week 3' })).toBeVisible();
    await expect(banner).toContainText('eval/accuracy >= 0.1');
    await expect(banner).toContainText('2099-01-01 12:00 (UTC+01:00)');
    await expect(banner).toContainText('<script>window.pwned=1</script>'); // shown as text
    await expect(banner.getByRole('link', { name: 'the chapter' })).toHaveAttribute('href', 'https://example.org/grpo');
    await expect(banner.getByRole('link', { name: 'bad' })).toHaveCount(0);
    await expect(page.getByLabel('max_steps')).toBeDisabled();
    await expect(page.getByLabel('max_steps')).toHaveValue('3');
    await expect(page.locator('.setting').filter({ hasText: 'max_steps' })).toContainText('Locked by the assignment.');
    await expect(page.getByLabel('learning_rate')).toBeEnabled();
    await page.getByLabel('Preset').selectOption('kl'); // beta 0.04 against the locked 0
    await expect(page.getByText('The preset "kl" would change beta, locked by the assignment: it was not applied.')).toBeVisible();
    await expect(page.getByLabel('Preset')).toHaveValue('default');
    await page.getByLabel('Preset').selectOption('dr_grpo'); // changes nothing locked: applied, the locks kept
    await expect(page.getByLabel('loss_type')).toHaveValue('dr_grpo');
    await expect(page.getByLabel('max_steps')).toHaveValue('3');
    await expect(page).toHaveURL(/preset=dr_grpo.*#assignment=/);
    await expect(banner.getByRole('button', { name: 'Submit' })).toBeDisabled();
    await expect(banner).toContainText('Type your student id first: your seed comes from it.');
    await expectAccessible(page);

    // The student id first: the seed comes from it, and the seed field takes it, locked.
    await banner.getByLabel('Your student id').fill(HOSTILE_NAME);
    const ownSeed = String(studentSeed(made.id, HOSTILE_NAME));
    await expect(page.getByLabel('seed', { exact: true })).toHaveValue(ownSeed);
    await expect(page.getByLabel('seed', { exact: true })).toBeDisabled();
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await expect(page.locator('.lab-status')).toContainText(/step 3 .*finished/, { timeout: budget(90_000) });
    // 200 test problems: choosing dr_grpo above reset eval_samples, which is not locked, to that preset's.
    await expect(banner).toContainText(/Your run’s final eval\/accuracy: [\d.]+ ± [\d.]+ \(95% interval\) on the lab’s 200 test problems\. Your instructor measures it on problems of their own/);
    const submitted = page.waitForEvent('download');
    await banner.getByRole('button', { name: 'Submit' }).click();
    const download = await submitted;
    expect(download.suggestedFilename()).toMatch(/^submission-[0-9a-f]{12}-img-src-x-onerror-window-pwned-1-b-Ada-b\.json$/);
    await download.saveAs(files.submission);
    await expect(banner.getByRole('status')).toContainText('hand this file in');
    const submission = JSON.parse(fs.readFileSync(files.submission, 'utf8'));
    expect(submission).toMatchObject({ student: HOSTILE_NAME, environment: { backend: 'wasm', tfjs: '4.22.0' } });
    expect(submission.config.max_steps).toBe(3);
    expect(String(submission.config.seed)).toBe(ownSeed);

    // The grader.
    const seen = watch(page);
    await grade(page, files.submission);
    const row = rowOf(page, 'ada.json');
    await expect(row.getByRole('cell').nth(1)).toHaveText(HOSTILE_NAME);
    await expect(row.getByRole('cell').nth(2)).toHaveText('ok');
    await expect(row.getByRole('cell').nth(3)).toHaveText(String(submission.history.at(-1).metrics['eval/accuracy']));
    await expect(row.getByRole('cell').nth(4)).toHaveText(/^\d(\.\d+)?$/);
    await expect(page.locator('.grade-table img, .grade-table b')).toHaveCount(0);
    await expectAccessible(page);
    await expectTfjsInWorkersOnly(page, seen);
    const csv = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const text = fs.readFileSync(await (await csv).path(), 'utf8');
    expect(text.split('\n')[0]).toBe('file,student,status,claimed,measured,goal_met,flags,seed,submitted_self_reported,received');
    expect(text.split('\n')[1]).toMatch(/^ada\.json,"<img src=x onerror=""window\.pwned=1""><b>Ada<\/b>",ok,/);
    const book = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export gradebook (Moodle CSV)' }).click();
    const bookText = fs.readFileSync(await (await book).path(), 'utf8').split('\n');
    expect(bookText[0]).toBe('id,name,score,lab_status,measured,goal_met,exercises_passed,late,files,on_roster,feedback');
    expect(bookText[1]).toMatch(/^"<img src=x onerror=""window\.pwned=1""><b>Ada<\/b>",,(100|0),ok,/);
    await expect(page.getByRole('table', { name: 'Gradebook' })).toContainText('on 200 held-out problems the instructor drew');
    // A reload keeps the grading.
    await page.reload();
    await goLive(page);
    await expect(page.getByText(/^Restored 1 graded file kept in this browser/)).toBeVisible();
    await expect(rowOf(page, 'ada.json').getByRole('cell').nth(2)).toHaveText('ok');
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(errors).toEqual([]);
  });

  test('each tampered or broken file gets its status, at once and with nothing crashing', async ({ page }) => {
    test.setTimeout(budget(240_000));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const text = fs.readFileSync(files.submission, 'utf8');
    const original = JSON.parse(text);
    const variant = async (edit: (json: Record<string, any>) => void | Promise<void>, rehashed = true) => {
      const json = JSON.parse(text);
      await edit(json);
      if (rehashed) json.digest = await submissionDigest(json);
      return Buffer.from(JSON.stringify(json));
    };
    const base = new Uint8Array(fs.readFileSync('public/models/base.arlw'));
    const file = (name: string, buffer: Buffer) => ({ name, mimeType: 'application/json', buffer });
    const cases: [string, Buffer, RegExp][] = [
      ['locked.json', await variant((j) => void (j.config.beta = 0.5)), /^tampered: locked setting beta changed \(0 → 0\.5\)$/],
      ['claimed.json', await variant((j) => void (j.history.at(-1).metrics['eval/accuracy'] = 0.99)), /^tampered: the weights do not reproduce the history \(eval\/accuracy 0\.99 at step 3; /],
      ['claimed-careless.json', await variant((j) => void (j.history.at(-1).metrics['eval/accuracy'] = 0.99), false), /^tampered: file edited after Submit/],
      [
        'swapped.json',
        await variant(async (j) => void (j.weights = { format: 'arlw', sha256: await sha256Hex(base), data: toBase64(base) })),
        /^tampered: the weights do not reproduce the history \(eval\/accuracy [\d.]+ at step 3; the weights score 0 on the lab’s test set\)$/,
      ],
      ['swapped-careless.json', await variant((j) => void (j.weights.data = toBase64(base)), false), /^tampered: weights \(their SHA-256 is not the one recorded at Submit\)/],
      ['truncated.json', Buffer.from(text.slice(0, text.length / 2)), /^invalid: not valid JSON \(a truncated or damaged file\)$/],
      ['wrong-assignment.json', await variant((j) => void (j.assignment.id = 'another')), /^invalid: made for another assignment \("another", not "[0-9a-f]{12}"\)$/],
      ['not-json.json', Buffer.from('<html><script>window.pwned=1</script>'), /^invalid: not valid JSON/],
      ['huge.json', Buffer.alloc(20_000_000, 32), /^invalid: the file is 20\.0 MB; a submission is at most 5 MB$/],
      ['html-name.json', await variant((j) => void (j.student = '<script>window.pwned=1</script>=1+1')), /^tampered: seed \d+ is not this student’s seed/], // another name, another seed
    ];
    await grade(page, cases.map(([name, buffer]) => file(name, buffer)));
    for (const [name, , status] of cases) await expect(rowOf(page, name).getByRole('cell').nth(2), name).toHaveText(status);
    await expect(rowOf(page, 'html-name.json').getByRole('cell').nth(1)).toHaveText('<script>window.pwned=1</script>=1+1');
    await expect(rowOf(page, 'claimed.json').getByRole('cell').nth(6)).toContainText('claimed far above measured');
    await expect(rowOf(page, 'swapped.json').getByRole('cell').nth(5)).toHaveText('no');
    expect(original.student).toBe(HOSTILE_NAME);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
