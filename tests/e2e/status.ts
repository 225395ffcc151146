import { expect, type Page } from '@playwright/test';
import { budget } from './budget';

/** Reading the lab's status line: the step (or round) count it shows, thousands separators and all ("step 1,342 of 5,000"). */
export function stepIn(text: string | null, word = 'step'): number {
  const count = '(\\d{1,3}(?:,\\d{3})*|\\d+)';
  // Where a lab numbers its steps from 0, the count done ("2 of 6 rounds done": read first, as the status may also
  // name the round under way, "now: round 2: sampling"); elsewhere "step 12 of 60".
  const m = new RegExp(`${count}(?: of [\\d,]+)? ${word}s? done`).exec(text ?? '') ?? new RegExp(`${word} ${count}`).exec(text ?? '');
  return m ? Number(m[1].replace(/,/g, '')) : -1;
}

/** The lab's status line. */
export const labStatus = (page: Page) => page.locator('.lab-status');

/** Presses Train and waits for the run to reach `steps` and finish (a budget per step count, stretched for the load). */
export async function trainToTheEnd(page: Page, steps: number): Promise<void> {
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await expect(labStatus(page)).toContainText(`step ${steps} `, { timeout: budget(Math.max(90_000, steps * 6_000)) });
  await expect(labStatus(page)).toContainText('finished', { timeout: budget(90_000) });
}
