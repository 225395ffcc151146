import { expect, type Page } from '@playwright/test';
import { budget } from './budget';

/** Opens a lab's reward panel, turns the reader's function on and replaces the editor's code with `code`. */
export async function writeReward(page: Page, code: string) {
  await page.locator('.lab-reward > summary').click();
  await page.getByLabel('Use my reward function').check();
  // CodeMirror's editable area (its plain-text stand-in carries the same name until it loads).
  const editor = page.locator('.lab-reward .cm-content[aria-label="Reward function"]');
  await expect(editor).toBeVisible({ timeout: budget(30_000) });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(code);
}
