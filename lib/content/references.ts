import { referenceUrl, references, type Reference } from '@/content/references';

/** URLs compare without their scheme, a leading www. or a trailing slash: the same page, however it was typed. */
export function normaliseUrl(url: string): string {
  return url
    .trim()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}

const ARXIV = /arxiv\.org\/(?:abs|pdf)\/(\d{4}\.\d{4,5})/;

const byUrl = new Map<string, Reference>();
for (const r of references) {
  for (const url of [referenceUrl(r), ...(r.also ?? [])]) byUrl.set(normaliseUrl(url), r);
}
const byArxiv = new Map(references.filter((r) => r.arxiv).map((r) => [r.arxiv as string, r]));
const byTitle = new Map(references.map((r) => [r.title.toLowerCase(), r]));

/** The record a cited link stands for, by arXiv id first, then by URL; undefined when the course does not list it. */
export function referenceForUrl(url: string): Reference | undefined {
  const arxiv = ARXIV.exec(url);
  if (arxiv) return byArxiv.get(arxiv[1]);
  return byUrl.get(normaliseUrl(url));
}

/** A cited work with no link (a 1952 journal article) is found by its title. */
export function referenceForTitle(title: string): Reference | undefined {
  return byTitle.get(title.trim().toLowerCase());
}
