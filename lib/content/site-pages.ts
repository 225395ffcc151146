/** The site's pages and its sitemap: app/sitemap.ts writes it, and tests walk the same list. */
import type { MetadataRoute } from 'next';
import { labs } from '@/content/labs';
import { getChapters } from '@/lib/content/chapters';

/** Every page a reader can land on, as a path from the site's root. */
export function sitePaths(): string[] {
  return [
    '/',
    ...getChapters().map((c) => `/chapters/${c.slug}/`),
    '/path/',
    '/exercises/',
    '/labs/',
    ...labs.map((lab) => `/labs/${lab.slug}/`),
    '/search/',
    '/notation/',
    '/glossary/',
    '/references/',
    '/teach/',
    '/teach/grade/',
  ];
}

/**
 * A sitemap's URLs are absolute, and a static export cannot know the host it will be served from: SITE_URL names it
 * (`SITE_URL=https://your.host npm run build`; `npm test` builds with its local server's). Without it the sitemap is
 * written empty, with a warning, rather than pointing search engines at localhost.
 */
export function sitemapFor(siteUrl: string | undefined): MetadataRoute.Sitemap {
  if (!siteUrl) return [];
  let origin: URL;
  try {
    origin = new URL(siteUrl);
  } catch {
    throw new Error(`SITE_URL must be the site's origin, such as https://your.host; got "${siteUrl}".`);
  }
  if (origin.protocol !== 'https:' && origin.protocol !== 'http:') throw new Error(`SITE_URL must start with https:// or http://; got "${siteUrl}".`);
  const base = origin.href.replace(/\/$/, '');
  return sitePaths().map((path) => ({ url: `${base}${path}` }));
}
