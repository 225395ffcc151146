/** The sitemap: every page at the origin SITE_URL names, nothing (rather than localhost) without one, a clear error for a bad one. */
import { describe, expect, it } from 'vitest';
import { labs } from '@/content/labs';
import { sitemapFor, sitePaths } from '@/lib/content/site-pages';

describe('the sitemap', () => {
  it('lists every page at the origin it is given, with or without a trailing slash', () => {
    const urls = sitemapFor('https://course.example.org/').map((e) => e.url);
    expect(urls).toHaveLength(sitePaths().length);
    expect(urls[0]).toBe('https://course.example.org/');
    expect(urls).toContain('https://course.example.org/teach/grade/');
    for (const lab of labs) expect(urls).toContain(`https://course.example.org/labs/${lab.slug}/`);
    expect(sitemapFor('https://course.example.org').map((e) => e.url)).toEqual(urls);
    expect(urls.some((u) => u.includes('localhost'))).toBe(false);
  });

  it('is empty without an origin, so a build for a real host never points at localhost', () => {
    expect(sitemapFor(undefined)).toEqual([]);
    expect(sitemapFor('')).toEqual([]);
  });

  it('refuses an origin that is not one, saying what it expects', () => {
    expect(() => sitemapFor('course.example.org')).toThrow(/SITE_URL must be the site's origin/);
    expect(() => sitemapFor('ftp://course.example.org')).toThrow(/https:\/\/ or http:\/\//);
  });
});
