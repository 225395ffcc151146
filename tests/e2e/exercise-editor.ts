import { expect, type Locator, type Page } from '@playwright/test';

/** Wakes an exercise (a click on its code), waits for CodeMirror, and replaces the code with `code`. */
export async function writeCode(page: Page, box: Locator, code: string) {
  await box.locator('.code-editor-fallback, .cm-content').first().click();
  const content = box.locator('.cm-content');
  await expect(content).toBeVisible();
  await content.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(code);
  await expect(content).toContainText(code.split('\n')[0]);
}
