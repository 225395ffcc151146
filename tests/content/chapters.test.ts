import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { course } from '@/content/course';
import { labs } from '@/content/labs';
import { trainerNamed } from '@/lib/spec/registry';
import { chapterFiles, getChapters } from '@/lib/content/chapters';
import { compileChapter, type CompiledChapter } from '@/lib/content/compile';
import { CHAPTER_COMPONENTS } from '@/lib/content/components';
import { mdxComponents } from '@/app/_components/mdx/registry';
import { glossary, glossaryId } from '@/content/glossary';
import { notation } from '@/content/notation';
import { references } from '@/content/references';
import { TRAINERS } from '@/lib/spec/registry';

// Ids the chapter page itself adds around the MDX body (objectives, takeaways, references).
const PAGE_IDS = ['objectives-title', 'key-takeaways-title', 'references-title', 'main'];

let compiled: CompiledChapter[] = [];

beforeAll(async () => {
  // Compiling is strict: frontmatter, every formula, every tag and quiz are checked here.
  compiled = await Promise.all(getChapters().map((c) => compileChapter(c.slug)));
}, 120_000);

describe('course map and chapter files', () => {
  it('has one file per course-map entry, numbered in course order', () => {
    const files = chapterFiles();
    expect([...files.keys()].sort()).toEqual(course.map((c) => c.slug).sort());
    for (const [index, entry] of course.entries()) expect(files.get(entry.slug)?.number).toBe(index + 1);
  });

  it('covers the ten chapters of the course in order', () => {
    expect(course.map((c) => c.slug)).toEqual([
      'agentic-rl',
      'sft-lora',
      'distributed-training',
      'ppo',
      'dpo',
      'grpo',
      'pipeline',
      'research-2025',
      'agent-data',
      'beyond-the-calculator',
    ]);
  });

  it('has a component registry with exactly the allowed tags', () => {
    expect(Object.keys(mdxComponents).sort()).toEqual([...CHAPTER_COMPONENTS].sort());
  });
});

describe('every chapter', () => {
  it('compiles, with headings for the table of contents', () => {
    expect(compiled).toHaveLength(course.length);
    for (const chapter of compiled) {
      expect(chapter.code.length, chapter.meta.file).toBeGreaterThan(500);
      expect(chapter.headings.length, `${chapter.meta.file} has no ## headings`).toBeGreaterThanOrEqual(2);
    }
  });

  it('has a real opening section, not a placeholder', () => {
    for (const chapter of compiled) expect(chapter.meta.words, chapter.meta.file).toBeGreaterThanOrEqual(400);
  });

  it('links only to pages and anchors that exist', () => {
    const anchors = new Map(compiled.map((c) => [c.meta.slug, new Set([...c.headings.map((h) => h.id), ...PAGE_IDS])]));
    const labSlugs = new Set<string>(labs.map((l) => l.slug));
    // The course's reference pages, with the anchors each one renders.
    const pageAnchors = new Map<string, Set<string>>([
      ['notation', new Set(notation.map((n) => n.id))],
      ['glossary', new Set(glossary.map(glossaryId))],
      ['references', new Set(references.map((r) => r.id))],
    ]);
    const problems: string[] = [];
    for (const chapter of compiled) {
      for (const { url, line } of chapter.links) {
        const where = `${chapter.meta.file}:${line}`;
        if (/^https?:\/\//.test(url)) {
          if (!URL.canParse(url)) problems.push(`${where}: malformed URL ${url}`);
          continue;
        }
        if (url.startsWith('#')) {
          if (!anchors.get(chapter.meta.slug)!.has(url.slice(1))) problems.push(`${where}: no heading #${url.slice(1)} in this chapter`);
          continue;
        }
        const chapterLink = /^\/chapters\/([a-z0-9-]+)\/(?:#([a-z0-9-]+))?$/.exec(url);
        const labLink = /^\/labs\/(?:([a-z0-9-]+)\/(?:\?preset=([a-z0-9_]+))?)?$/.exec(url);
        const pageLink = /^\/(notation|glossary|references)\/(?:#([a-z0-9-]+))?$/.exec(url);
        if (pageLink) {
          if (pageLink[2] && !pageAnchors.get(pageLink[1])!.has(pageLink[2])) problems.push(`${where}: no entry #${pageLink[2]} on /${pageLink[1]}/`);
        } else if (chapterLink) {
          const target = anchors.get(chapterLink[1]);
          if (!target) problems.push(`${where}: no chapter "${chapterLink[1]}"`);
          else if (chapterLink[2] && !target.has(chapterLink[2])) problems.push(`${where}: no heading #${chapterLink[2]} in ${chapterLink[1]}`);
        } else if (labLink) {
          if (labLink[1] && !labSlugs.has(labLink[1])) problems.push(`${where}: no lab "${labLink[1]}"`);
          // A preset link opens the lab on that preset: it must be one of the lab's trainer's presets.
          const trainer = labs.find((l) => l.slug === labLink[1])?.trainer;
          if (labLink[2] && trainer && !Object.hasOwn(TRAINERS[trainer].presets, labLink[2])) problems.push(`${where}: lab "${labLink[1]}" has no preset "${labLink[2]}"`);
        } else if (url !== '/' && url !== '/search/') {
          problems.push(`${where}: internal links must look like /chapters/<slug>/#anchor or /notation/, /glossary/, /references/ (#anchor), got ${url}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('uses figures that exist and labs that are registered', () => {
    const labSlugs = new Set<string>(labs.map((l) => l.slug));
    for (const chapter of compiled) {
      for (const src of chapter.figures) expect(fs.existsSync(path.join('public', src)), `${chapter.meta.file}: ${src}`).toBe(true);
      for (const lab of [...chapter.labs, ...chapter.meta.labs]) expect(labSlugs.has(lab), `${chapter.meta.file}: lab ${lab}`).toBe(true);
    }
  });

  it('gives every quiz a course-wide unique id that starts with its chapter number', () => {
    const ids = compiled.flatMap((c) => c.quizIds);
    expect(new Set(ids).size).toBe(ids.length);
    for (const chapter of compiled) {
      for (const id of chapter.quizIds) expect(id.startsWith(`ch${String(chapter.meta.number).padStart(2, '0')}-`), id).toBe(true);
    }
  });
});

describe('chapter 10, beyond the calculator', () => {
  it('has at least 2,500 words of prose, a comparison table, math, quizzes, references, and perception as its last section', () => {
    const tenth = compiled.find((c) => c.meta.slug === 'beyond-the-calculator')!;
    expect(tenth.meta.number).toBe(10);
    expect(tenth.meta.words).toBeGreaterThanOrEqual(2500);
    expect(tenth.quizIds.length).toBeGreaterThanOrEqual(2);
    expect(tenth.code).toContain('table');
    expect(tenth.code).toContain('katex-display');
    expect(tenth.code).toContain('References');
    const headings = tenth.headings.filter((h) => h.depth === 2).map((h) => h.id);
    expect(headings.at(-1)).toBe('perception-a-policy-that-sees');
  });

  it('says perception is trained now: the map, the takeaways and chapter 1 link the vision lab and its text_only floor', () => {
    const tenth = fs.readFileSync('content/chapters/10-beyond-the-calculator.mdx', 'utf8');
    const first = fs.readFileSync('content/chapters/01-agentic-rl.mdx', 'utf8');
    const row = (source: string) => source.split('\n').find((line) => line.startsWith('| Perception |'));
    for (const source of [tenth, first]) {
      expect(row(source)).toContain('(/labs/vision/');
      expect(row(source)).toContain('(/labs/vision/?preset=text_only)');
    }
    const tenthCompiled = compiled.find((c) => c.meta.slug === 'beyond-the-calculator')!;
    expect(tenthCompiled.meta.labs).toContain('vision');
    expect(tenthCompiled.labs).toContain('vision');
    // What the chapters said while no lab trained it.
    for (const source of [tenth, first]) expect(source).not.toMatch(/no lab for perception|Perception has no lab|has not trained yet|five of the six/i);
  });
});

describe('chapter 1, written in full', () => {
  it('has at least 2,500 words of prose, a comparison table, math, a quiz and references', () => {
    const first = compiled[0];
    expect(first.meta.slug).toBe('agentic-rl');
    expect(first.meta.words).toBeGreaterThanOrEqual(2500);
    expect(first.quizIds.length).toBeGreaterThanOrEqual(1);
    expect(first.code).toContain('table');
    expect(first.code).toContain('katex-display');
    expect(first.code).toContain('References');
    expect(first.links.filter((l) => l.url.startsWith('https://')).length).toBeGreaterThanOrEqual(3);
  });
});

describe('labs registry', () => {
  it('names a trainer from the trainer registry and a chapter from the course map for every lab', () => {
    const chapters = new Set(course.map((c) => c.slug));
    for (const lab of labs) {
      expect(trainerNamed(lab.trainer), lab.slug).toBe(lab.trainer);
      expect(chapters.has(lab.chapter), `${lab.slug}: chapter ${lab.chapter}`).toBe(true);
    }
    expect(new Set(labs.map((l) => l.slug)).size).toBe(labs.length);
  });

  it('finds every lab’s UI at labs/<slug>/Lab.tsx, and registers every lab folder that has one', () => {
    const folders = fs.readdirSync('labs', { withFileTypes: true }).filter((d) => d.isDirectory() && fs.existsSync(path.join('labs', d.name, 'Lab.tsx')));
    expect(folders.map((d) => d.name).sort()).toEqual(labs.map((l) => l.slug).sort());
    // Each names itself as its folder does: the learning path marks it trained under that name.
    for (const d of folders) expect(fs.readFileSync(path.join('labs', d.name, 'Lab.tsx'), 'utf8'), d.name).toContain(`slug: '${d.name}',`);
  });

  it('serves every lab from the one dynamic route, with no per-lab route folders to keep in step', () => {
    const routeDirs = fs.readdirSync('app/labs', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(routeDirs).toEqual(['[slug]']);
  });
});
