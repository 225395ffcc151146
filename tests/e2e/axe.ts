import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * An axe run over the page as a reader scrolling through it sees it. Chapters leave blocks that are far from the
 * screen unlaid out (content-visibility: auto, globals.css); axe judges colour contrast and target size from the
 * layout, and on such a block it reads a box of estimated height with its content spilling over its neighbours. So
 * everything is laid out first, with the same styles it gets once it comes into view.
 */
export async function axeOn(page: Page): Promise<AxeBuilder> {
  await page.addStyleTag({ content: '.static-html > *, .island > * { content-visibility: visible !important; }' });
  return new AxeBuilder({ page });
}

/** The serious and critical violations axe finds on the page as it is now (all rules, or only `rules`), one line each. */
export async function seriousViolations(page: Page, rules?: string[]): Promise<string[]> {
  const axe = await axeOn(page);
  const { violations } = await (rules ? axe.withRules(rules) : axe).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target})`);
}
