import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A browser test's time budget is set for an idle 2-core machine and stretched with the load the suite starts under
// (tests/e2e/budget.ts). playwright.config.ts stretches the default test and assertion timeouts; a spec that sets its
// own must pass the number through `budget`, or that one wait assumes an idle machine and flakes on a busy one (the
// issue-54 stress run). This reads every e2e source for a bare number given as a timeout, or as the limit of a time
// the spec measures itself (an elapsed Date.now() difference, a timer's lag): the same assumption about the machine.
const E2E = 'tests/e2e';
const BARE_TIMEOUT = /\btimeout:\s*\d|\.setTimeout\(\s*\d|(Date\.now\(\)\s*-\s*\w+|\blag)\)\.toBeLessThan\(\s*\d/;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|mts|mjs)$/.test(entry.name) && entry.name !== 'budget.ts' ? [full] : [];
  });
}

describe('e2e time budgets', () => {
  const files = sources(E2E);

  it('finds the specs', () => {
    expect(files.filter((f) => f.endsWith('.spec.ts')).length).toBeGreaterThan(20);
  });

  it('every timeout or elapsed-time limit a spec sets itself stretches with the load (budget(ms), not a bare number)', () => {
    const bare = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (BARE_TIMEOUT.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(bare, 'wrap these in budget() from tests/e2e/budget.ts').toEqual([]);
  });

  it('the check sees a bare timeout in each form it guards against', () => {
    expect(BARE_TIMEOUT.test("await expect(x).toBeVisible({ timeout: 30_000 });")).toBe(true);
    expect(BARE_TIMEOUT.test('test.setTimeout(120_000);')).toBe(true);
    expect(BARE_TIMEOUT.test("await expect(x).toBeVisible({ timeout: budget(30_000) });")).toBe(false);
    expect(BARE_TIMEOUT.test('test.setTimeout(budget(120_000));')).toBe(false);
    expect(BARE_TIMEOUT.test('expect(Date.now() - clicked).toBeLessThan(2000);')).toBe(true);
    expect(BARE_TIMEOUT.test('expect(lag).toBeLessThan(200);')).toBe(true);
    expect(BARE_TIMEOUT.test('expect(Date.now() - clicked).toBeLessThan(budget(2000));')).toBe(false);
    expect(BARE_TIMEOUT.test('expect(text.length).toBeLessThan(300);')).toBe(false);
  });
});
