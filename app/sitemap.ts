import type { MetadataRoute } from 'next';
import { labs } from '@/content/labs';
import { getChapters } from '@/lib/content/chapters';

export const dynamic = 'force-static';

/** Absolute URLs need the deployed origin: set SITE_URL when building for a real host. */
const origin = (process.env.SITE_URL ?? 'http://localhost:3000').replace(/\/$/, '');

export default function sitemap(): MetadataRoute.Sitemap {
  return [
    { url: `${origin}/` },
    ...getChapters().map((c) => ({ url: `${origin}/chapters/${c.slug}/` })),
    { url: `${origin}/path/` },
    { url: `${origin}/exercises/` },
    { url: `${origin}/labs/` },
    ...labs.map((lab) => ({ url: `${origin}/labs/${lab.slug}/` })),
    { url: `${origin}/search/` },
    { url: `${origin}/notation/` },
    { url: `${origin}/glossary/` },
    { url: `${origin}/references/` },
    { url: `${origin}/teach/` },
    { url: `${origin}/teach/grade/` },
  ];
}
