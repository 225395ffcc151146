/**
 * "Export for TRL" in the labs: the GRPO lab's download, for settings from a link, holds exactly the files the
 * command line writes for the same settings, with the reader's own reward function too (--reward); so does the
 * self-improvement lab's, built by the exporter its spec names; before any click each lab says what its preset's
 * project holds and leaves out (the memory task's, for one), and the PPO and team labs say why they have none (their
 * specs' refusals) and offer no button; every lab links to chapter 7.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { readTree } from '@/tests/read-tree';
import { writeReward } from './reward-editor';
import { labSettled } from './boot';

test.describe('Export for TRL', () => {
  test('the GRPO lab downloads the same project as npm run export for the same settings', async ({ page }) => {
    await page.goto('/labs/grpo/?preset=reward_hacking&beta=0.04&seed=3');
    await expect(page.getByLabel('Preset')).toHaveValue('reward_hacking');
    await page.getByRole('button', { name: 'Export for TRL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export for TRL' });
    await expect(dialog.getByRole('alert').first()).toContainText('DELIBERATELY FLAWED VERIFIER');
    const table = dialog.getByRole('table', { name: 'What carries over to TRL' });
    await expect(table.getByRole('row', { name: /learning_rate/ }).first()).toContainText('changed');
    await expect(table.getByRole('row', { name: /dynamic_sampling/ }).first()).toContainText('no counterpart');

    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: /^Download trl-grpo-reward_hacking\.zip$/ }).click()]);
    expect(download.suggestedFilename()).toBe('trl-grpo-reward_hacking.zip');
    const zipped = unzipSync(new Uint8Array(fs.readFileSync((await download.path())!)));

    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-export-e2e-'));
    try {
      const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/export.ts', 'grpo', '--preset', 'reward_hacking', '--set', 'beta=0.04', '--set', 'seed=3', '--out', out, '--force'], { encoding: 'utf8' });
      expect(cli.status, cli.stderr).toBe(0);
      const fromZip = Object.fromEntries(Object.entries(zipped).map(([name, bytes]) => [name.replace(/^trl-grpo-reward_hacking\//, ''), strFromU8(bytes)]));
      expect(Object.keys(zipped).every((name) => name.startsWith('trl-grpo-reward_hacking/'))).toBe(true);
      expect(fromZip).toEqual(readTree(out));
      expect(fromZip['train_grpo.py']).toContain('beta=0.04');
      expect(fromZip['train_grpo.py']).toContain('seed=3');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  test('with the reader’s own reward on, the download carries it, as npm run export --reward does', async ({ page }) => {
    const code = 'export default (completions, ctx) => completions.map((t) => (t.includes("####") ? 0.2 : 0));\n';
    await page.goto('/labs/grpo/?seed=2');
    await writeReward(page, code);
    await page.getByRole('button', { name: 'Export for TRL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export for TRL' });
    await expect(dialog.locator('.lab-warning').filter({ hasText: 'Your reward function is JavaScript' })).toContainText('Warning: Your reward function is JavaScript');
    await expect(dialog.getByRole('table', { name: 'What carries over to TRL' }).getByRole('row', { name: /your reward function/ })).toContainText('custom_reward (custom_reward.py)');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: /^Download trl-grpo-default\.zip$/ }).click()]);
    const zipped = unzipSync(new Uint8Array(fs.readFileSync((await download.path())!)));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-export-reward-e2e-'));
    try {
      const rewardFile = path.join(out, '..', `${path.basename(out)}-reward.js`);
      fs.writeFileSync(rewardFile, code);
      const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/export.ts', 'grpo', '--set', 'seed=2', '--reward', rewardFile, '--out', out, '--force'], { encoding: 'utf8' });
      expect(cli.status, cli.stderr).toBe(0);
      const fromZip = Object.fromEntries(Object.entries(zipped).map(([name, bytes]) => [name.replace(/^trl-grpo-default\//, ''), strFromU8(bytes)]));
      expect(fromZip).toEqual(readTree(out));
      expect(fromZip['custom_reward.js']).toContain(code.trim());
      expect(fromZip['train_grpo.py']).toContain('from custom_reward import custom_reward');
      fs.rmSync(rewardFile);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  test('the self-improvement lab downloads its expert-iteration project, the same files as npm run export -- self_improve', async ({ page }) => {
    await page.goto('/labs/self-improve/?preset=majority&seed=2');
    await expect(page.getByLabel('Preset')).toHaveValue('majority');
    // The button's line, from the spec, for this preset's filter: never the verifier's under majority.
    const region = page.getByRole('region', { name: 'Export for TRL' });
    await expect(region).toContainText('rounds of sampling, keeping the answers most of a problem’s samples agree on (no verifier)');
    await expect(region).not.toContainText('verifier accepts');
    await page.getByRole('button', { name: 'Export for TRL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export for TRL' });
    const table = dialog.getByRole('table', { name: 'What carries over to TRL' });
    await expect(table.getByRole('row', { name: /rounds_per_difficulty/ }).first()).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: /^Download trl-self_improve-majority\.zip$/ }).click()]);
    const zipped = unzipSync(new Uint8Array(fs.readFileSync((await download.path())!)));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-export-e2e-'));
    try {
      const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/export.ts', 'self_improve', '--preset', 'majority', '--set', 'seed=2', '--out', out, '--force'], { encoding: 'utf8' });
      expect(cli.status, cli.stderr).toBe(0);
      const fromZip = Object.fromEntries(Object.entries(zipped).map(([name, bytes]) => [name.replace(/^trl-self_improve-majority\//, ''), strFromU8(bytes)]));
      expect(fromZip).toEqual(readTree(out));
      expect(Object.keys(fromZip)).toContain('self_improve.py');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  test('the memory preset says before any click that its task is not exported, and why; the download’s README says the same', async ({ page }) => {
    await page.goto('/labs/agent/?preset=memory');
    await labSettled(page);
    await expect(page.getByLabel('Preset')).toHaveValue('memory');
    const region = page.getByRole('region', { name: 'Export for TRL' });
    const notExported = region.getByRole('list', { name: 'Not exported' });
    await expect(notExported).toContainText(/The memory task is not exported: .*12-token window/);
    await expect(region).toContainText('AgentEnvironment: calculator, remember and recall');
    // The default preset's project says nothing of a memory task.
    await page.getByLabel('Preset').selectOption('default');
    await expect(notExported).toContainText('The lab’s products (one call each) are not exported');
    await expect(notExported).not.toContainText('memory');
    await page.getByLabel('Preset').selectOption('memory');
    const said = (await notExported.locator('li').allTextContents()).join('\n');
    await page.getByRole('button', { name: 'Export for TRL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export for TRL' });
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: /^Download trl-agent-memory\.zip$/ }).click()]);
    const readme = strFromU8(unzipSync(new Uint8Array(fs.readFileSync((await download.path())!)))['trl-agent-memory/README.md']);
    for (const sentence of said.split('\n')) expect(readme).toContain(sentence);
  });

  test('the team lab says why it has no TRL project before any click, and offers no button', async ({ page }) => {
    await page.goto('/labs/team/');
    const region = page.getByRole('region', { name: 'Export for TRL' });
    await expect(region).toContainText(/This lab has no TRL project: the team lab trains two policies on one shared reward/);
    await expect(region.getByRole('button')).toHaveCount(0);
    await expect(region).not.toContainText('Qwen3');
  });

  test('the PPO lab says why it has no TRL project, and every lab links to the chapter', async ({ page }) => {
    await page.goto('/labs/ppo/');
    const region = page.getByRole('region', { name: 'Export for TRL' });
    await expect(region).toContainText(/This lab has no TRL project: the PPO lab trains an MLP actor-critic/);
    await expect(region.getByRole('button')).toHaveCount(0);
    for (const slug of ['ppo', 'grpo', 'dpo', 'lora', 'agent']) {
      if (slug !== 'ppo') await page.goto(`/labs/${slug}/`);
      const link = page.getByRole('link', { name: 'What the project holds (chapter 7)' });
      await expect(link).toHaveAttribute('href', '/chapters/pipeline/#take-it-to-a-real-gpu');
    }
    await page.goto('/chapters/pipeline/');
    await expect(page.locator('#take-it-to-a-real-gpu')).toBeVisible();
  });
});
