import type { MetadataRoute } from 'next';
import { sitemapFor } from '@/lib/content/site-pages';

export const dynamic = 'force-static';

export default function sitemap(): MetadataRoute.Sitemap {
  if (!process.env.SITE_URL) console.warn('sitemap.xml is written empty: set SITE_URL=https://your.host when building for a real host, so it can list the pages.');
  return sitemapFor(process.env.SITE_URL);
}
