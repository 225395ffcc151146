'use client';

import { takeStaticHtml } from './registry';

/**
 * Prints a static block's HTML when the page is rendered on the server. In the browser it has nothing to print and
 * needs nothing: React hydrates an element with dangerouslySetInnerHTML without reading or touching its content.
 * It is only ever hydrated, never rendered afresh in the browser, because pages reach each other by full loads
 * (plain links: tests/unit/layers.test.ts keeps next/link out).
 */
export function StaticHtml({ id }: { id: string }) {
  const html = typeof window === 'undefined' ? takeStaticHtml(id) : '';
  return <div className="static-html" dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />;
}
