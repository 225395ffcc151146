import { createHash } from 'node:crypto';
import { publishStaticHtml } from './registry';
import { StaticHtml } from './StaticHtml';

/**
 * A run of static chapter content, compiled to HTML at build time (lib/content/static-blocks.ts): only its id
 * crosses to the client; the HTML itself is printed once, into the page.
 */
export function StaticBlock({ html }: { html: string }) {
  const id = createHash('sha256').update(html).digest('base64url').slice(0, 16);
  publishStaticHtml(id, html);
  return <StaticHtml id={id} />;
}
