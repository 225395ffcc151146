import { beforeAll, describe, expect, it } from 'vitest';
import { glossary, glossaryId } from '@/content/glossary';
import { referenceUrl, references } from '@/content/references';
import { getChapters } from '@/lib/content/chapters';
import { compileChapter, compileSource, type CompiledChapter } from '@/lib/content/compile';
import { referenceForUrl } from '@/lib/content/references';

let compiled: CompiledChapter[] = [];

beforeAll(async () => {
  compiled = await Promise.all(getChapters().map((c) => compileChapter(c.slug)));
}, 120_000);

describe('the references page (content/references.ts)', () => {
  it('lists each work once, each with an arXiv id or a URL', () => {
    const ids = references.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const arxiv = references.filter((r) => r.arxiv).map((r) => r.arxiv);
    expect(new Set(arxiv).size).toBe(arxiv.length);
    for (const r of references) {
      expect(r.id).toMatch(/^[a-z0-9-]+$/);
      if (r.arxiv) expect(r.arxiv, r.id).toMatch(/^\d{4}\.\d{4,5}$/);
      else expect(URL.canParse(r.url ?? ''), `${r.id} has neither an arXiv id nor a URL`).toBe(true);
      expect(referenceUrl(r)).toMatch(/^https?:\/\//);
    }
  });

  it('holds every work a chapter cites, and nothing no chapter cites', () => {
    const cited = new Set(compiled.flatMap((c) => c.references));
    expect([...cited].sort()).toEqual(references.map((r) => r.id).sort());
    for (const c of compiled) expect(c.references.length, `${c.meta.file} cites nothing`).toBeGreaterThan(0);
  });

  it('holds every arXiv paper linked anywhere in a chapter, not only in its reference list', () => {
    const missing = compiled.flatMap((c) => c.links.filter((l) => /arxiv\.org\//.test(l.url) && !referenceForUrl(l.url)).map((l) => `${c.meta.file}:${l.line} ${l.url}`));
    expect(missing).toEqual([]);
  });

  it('links each chapter reference to its record', () => {
    for (const c of compiled) {
      const links = c.links.filter((l) => l.url.startsWith('/references/#')).map((l) => l.url.slice('/references/#'.length));
      expect(new Set(links), c.meta.file).toEqual(new Set(c.references));
    }
  });

  it('fails the build for a cited work the page does not list', async () => {
    const chapter = (entry: string) => `---
title: Citations
summary: A chapter that cites one work and nothing else.
objectives: [Cite a work, Link its record]
prerequisites: []
minutes: 5
labs: []
---

## One

Text.

<References>

1. ${entry}

</References>
`;
    const known = await compileSource('x.mdx', chapter('Schulman, J. (2017). *PPO*. [arXiv:1707.06347](https://arxiv.org/abs/1707.06347)'));
    expect(known.references).toEqual(['schulman2017proximal']);
    await expect(compileSource('x.mdx', chapter('Nobody (2030). *Unknown*. [arXiv:3001.00001](https://arxiv.org/abs/3001.00001)'))).rejects.toThrow(/x\.mdx:\d+: reference https:\/\/arxiv\.org\/abs\/3001\.00001 is not in content\/references\.ts/);
    await expect(compileSource('x.mdx', chapter('Nobody (1950). *A paper with no link*.'))).rejects.toThrow(/"A paper with no link" is not in content\/references\.ts/);
  });
});

describe('the glossary (content/glossary.ts)', () => {
  it('defines each term once, in one line, with a section that exists', () => {
    const ids = glossary.map(glossaryId);
    expect(new Set(ids).size).toBe(ids.length);
    const headings = new Map(compiled.map((c) => [c.meta.slug, new Set(c.headings.map((h) => h.id))]));
    for (const entry of glossary) {
      expect(entry.definition, entry.term).not.toMatch(/\n/);
      expect(entry.definition.length, entry.term).toBeLessThanOrEqual(200);
      expect(headings.get(entry.chapter)?.has(entry.anchor), `${entry.term}: /chapters/${entry.chapter}/#${entry.anchor}`).toBe(true);
    }
    expect(glossary.length).toBeGreaterThanOrEqual(40);
  });

  it('makes anchors from terms', () => {
    expect(glossaryId({ term: 'Conservative DPO (cDPO)' })).toBe('conservative-dpo-cdpo');
    expect(glossaryId({ term: 'pass@k' })).toBe('pass-at-k');
  });
});
