import { expect } from 'vitest';

/** The numbers written in a snippet of prose or KaTeX, in order (a Unicode minus counts as a sign). */
export function numbersIn(snippet: string): number[] {
  return [...plain(snippet).matchAll(/-?\d+(?:,\d{3})*(?:\.\d+)?/g)].map((m) => Number(m[0].replace(/,/g, '')));
}

/** A Unicode minus as a sign, and KaTeX's thousands separator {,} as a comma. */
function plain(snippet: string): string {
  return snippet.replace(/−/g, '-').replace(/\{,\}/g, ',');
}

function decimals(written: string): number {
  return written.includes('.') ? written.split('.')[1].length : 0;
}

/**
 * A chapter prints `snippet`, and each number in it is the computed value rounded to the digits printed (null
 * skips a number that is an index or an input, not a result). Changing either the prose or the core fails this.
 */
export function expectPrinted(source: string, snippet: string, values: (number | null)[]): void {
  expect(source, 'the chapter no longer prints this').toContain(snippet);
  const written = [...plain(snippet).matchAll(/-?\d+(?:,\d{3})*(?:\.\d+)?/g)].map((m) => m[0].replace(/,/g, ''));
  expect(written.length, `numbers in "${snippet}"`).toBe(values.length);
  written.forEach((w, i) => {
    const value = values[i];
    if (value === null) return;
    const tolerance = 0.5 * 10 ** -decimals(w) + 1e-9;
    expect(Math.abs(Number(w) - value), `"${snippet}": printed ${w}, computed ${value}`).toBeLessThanOrEqual(tolerance);
  });
}
