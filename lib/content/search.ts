import fs from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { getChapters, parseFrontmatter } from './chapters';
import type { SearchEntry } from './search-rank';

export type { SearchEntry };

/** Markdown to searchable plain text: no tags, no link targets, no markup. Math source stays (it is searchable). */
function plain(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/[*_`#>[\]|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** One entry per chapter and per `##`/`###` section, built at build time for the search page. */
export function buildSearchIndex(): SearchEntry[] {
  const entries: SearchEntry[] = [];
  for (const meta of getChapters()) {
    const source = fs.readFileSync(path.join(process.cwd(), meta.file), 'utf8');
    const { body } = parseFrontmatter(meta.file, source);
    const base = { slug: meta.slug, chapter: meta.title, number: meta.number };
    entries.push({ ...base, heading: null, anchor: null, text: [meta.summary, ...meta.objectives].join(' ') });
    const slugger = new GithubSlugger();
    const sections = body.replace(/```[\s\S]*?```/g, '').split(/^(#{2,3} .+)$/m);
    for (let i = 1; i < sections.length; i += 2) {
      const heading = sections[i].replace(/^#+ /, '').trim();
      entries.push({ ...base, heading: plain(heading), anchor: slugger.slug(plain(heading)), text: plain(sections[i + 1] ?? '').slice(0, 1200) });
    }
  }
  return entries;
}
