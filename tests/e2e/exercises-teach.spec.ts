/**
 * Exercises in an assignment, end to end in Chromium: the instructor ticks two exercises on /teach/ and gets their
 * hand-in link; the student opens it, writes one exercise (its editor opens on the code that passed in the chapter),
 * saves the submission file; the grader runs each source again in the browser sandbox on the cases of the assignment’s exercise seed and shows, and
 * exports, a pass or failure per exercise; a file edited after it was made is flagged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { goLive } from './boot';
import { writeCode } from './exercise-editor';
import { exerciseNamed } from '@/content/exercises';
import { budget } from './budget';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-exercises-e2e-'));
const files = { assignment: path.join(dir, 'assignment.json'), ada: path.join(dir, 'ada.json'), edited: path.join(dir, 'edited.json') };

async function expectAccessible(page: Page) {
  expect(await seriousViolations(page), page.url()).toEqual([]);
}

const rowOf = (page: Page, file: string) => page.getByRole('table', { name: 'Grades' }).getByRole('row').filter({ has: page.getByRole('cell', { name: file, exact: true }) });

test('assign exercises, hand them in, grade them again in the sandbox: a pass and a failure per exercise', async ({ page }) => {
  test.setTimeout(budget(180_000));
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  // The student passed GAE in its chapter first: the hand-in page opens on that code.
  await page.goto('/chapters/ppo/');
  const chapterBox = page.locator('[data-exercise="gae"]');
  await writeCode(page, chapterBox, exerciseNamed('gae')!.solution);
  await chapterBox.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(chapterBox.getByRole('status')).toHaveText('All 20 cases passed.', { timeout: budget(30_000) });

  // The instructor.
  await page.goto('/teach/');
  await goLive(page);
  await page.getByRole('combobox', { name: 'Lab', exact: true }).selectOption('grpo');
  await page.getByLabel('Title').fill('Week 5');
  await page.getByLabel('Evaluation seed').fill('5');
  await page.getByRole('checkbox', { name: /Generalised advantage estimation/ }).check();
  await page.getByRole('checkbox', { name: /The DPO loss/ }).check();
  await page.getByRole('button', { name: 'Make the assignment' }).click();
  const handIn = await page.getByLabel('Students’ link for the exercises').inputValue();
  expect(handIn).toMatch(/\/exercises\/#assignment=[A-Za-z0-9_-]+$/);
  await expect(page.getByLabel('Students’ link', { exact: true })).toHaveValue(/\/labs\/grpo\/#assignment=/);
  await expectAccessible(page);
  const saved = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the assignment file' }).click();
  await (await saved).saveAs(files.assignment);
  expect(JSON.parse(fs.readFileSync(files.assignment, 'utf8')).exercises).toEqual(['gae', 'dpo-loss']);

  // The student.
  await page.goto(handIn);
  const section = page.getByRole('region', { name: 'Assignment: Week 5' });
  await expect(section).toBeVisible();
  const gae = section.locator('[data-exercise="gae"]');
  const dpo = section.locator('[data-exercise="dpo-loss"]');
  await expect(gae.locator('.exercise-badge')).toHaveText('Passed');
  await expect(gae.locator('.code-editor')).toContainText('const delta = rewards[t] + gamma * values[t + 1] - values[t];');
  await writeCode(page, dpo, 'function dpoLoss(policyChosen, policyRejected, refChosen, refRejected, beta) {\n  return 0.5;\n}');
  await expectAccessible(page);
  await section.getByLabel('Your name or student id').fill('Ada');
  const submitted = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Save my submission' }).click();
  const download = await submitted;
  expect(download.suggestedFilename()).toMatch(/^exercises-[0-9a-f]{12}-Ada\.json$/);
  await download.saveAs(files.ada);
  await expect(section.getByRole('status')).toContainText('hand this file in');
  const submission = JSON.parse(fs.readFileSync(files.ada, 'utf8'));
  expect(submission.sources.gae).toBe(exerciseNamed('gae')!.solution);
  expect(submission.sources['dpo-loss']).toContain('return 0.5;');
  // A student who then edits the file by hand to hand in a working DPO loss.
  fs.writeFileSync(files.edited, JSON.stringify({ ...submission, sources: { ...submission.sources, 'dpo-loss': exerciseNamed('dpo-loss')!.solution } }));

  // The grader.
  await page.goto('/teach/grade/');
  await page.getByLabel('Assignment file').setInputFiles(files.assignment);
  await expect(page.getByText(/Code exercises: gae, dpo-loss/)).toBeVisible();
  await page.getByLabel('Submission files').setInputFiles([files.ada, files.edited]);
  await expect(page.getByRole('status')).toHaveText('Graded 2 of 2.', { timeout: budget(60_000) });
  await expect(page.getByRole('table', { name: 'Grades' }).getByRole('columnheader')).toHaveText(['file', 'student', 'status', 'claimed', 'measured', 'goal met', 'flags', 'seed', 'submitted self reported', 'received', 'exercises passed', 'exercise:gae', 'exercise:dpo-loss']);
  const ada = rowOf(page, 'ada.json').getByRole('cell');
  await expect(ada.nth(2)).toHaveText('ok');
  await expect(ada.nth(10)).toHaveText('1 of 2');
  await expect(ada.nth(11)).toHaveText('passed');
  await expect(ada.nth(12)).toHaveText(/^failed: Case 1 of 20 failed: the value differs: expected [\d.]+, got 0\.5$/);
  // One gradebook row for Ada's two files: the later one counts (the edited copy, graded second), which scores 0.
  await expect(page.getByRole('table', { name: 'Gradebook' }).getByRole('row', { name: /^Ada / })).toContainText('Ada0noLab: no gradable run handed in. Exercises: not scored: file edited after it was made');
  const edited = rowOf(page, 'edited.json').getByRole('cell');
  await expect(edited.nth(2)).toHaveText('tampered: file edited after it was made (its digest does not match)');
  await expectAccessible(page);
  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const lines = fs.readFileSync(await (await csv).path(), 'utf8').split('\n');
  expect(lines[0]).toBe('file,student,status,claimed,measured,goal_met,flags,seed,submitted_self_reported,received,exercises_passed,exercise:gae,exercise:dpo-loss');
  expect(lines[1]).toMatch(/^ada\.json,Ada,ok,,,,,,[\dT:.Z-]+,,1 of 2,passed,"failed: Case 1 of 20 failed: the value differs: expected [\d.]+, got 0\.5"$/);
  expect(errors).toEqual([]);
});

test('/exercises/ without an assignment lists every exercise; a damaged link says so', async ({ page }) => {
  await page.goto('/exercises/');
  await expect(page.getByRole('heading', { level: 1, name: 'Code exercises' })).toBeVisible();
  await expect(page.getByText('open the link your instructor gave you')).toBeVisible();
  await expect(page.locator('.exercise-index li')).toHaveCount(9);
  await expect(page.getByRole('link', { name: 'Generalised advantage estimation' })).toHaveAttribute('href', '/chapters/ppo/#exercise-gae');
  await page.goto('/exercises/#assignment=bm90IGpzb24'); // the same page: read again on the hash change
  await expect(page.locator('.lab-error')).toContainText('This link’s assignment cannot be used (not valid JSON)');
  await page.reload();
  await expect(page.locator('.lab-error')).toContainText('This link’s assignment cannot be used (not valid JSON)');
});
