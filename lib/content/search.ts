import fs from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { exercises } from '@/content/exercises';
import { labs } from '@/content/labs';
import { TRAINERS, type TrainerName } from '@/lib/spec/registry';
import { getChapters, parseFrontmatter } from './chapters';
import type { SearchEntry } from './search-rank';

export type { SearchEntry };

/**
 * Markdown to searchable plain text: no tags, no link targets, no markup. Math source and code stay (a reader searches
 * for kl_coef or GRPOConfig as often as for words); a fenced block becomes one line, so that a "## " comment in it
 * cannot pass for a heading; an underscore inside a word stays (num_generations), one that marks emphasis goes.
 */
function plain(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n([\s\S]*?)```/g, (_, code: string) => ` ${code.replace(/\s+/g, ' ')} `)
    .replace(/<[^>]*>/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/(^|[^\w])_+|_+(?=[^\w]|$)/g, '$1 ')
    .replace(/`/g, '')
    .replace(/[*#>[\]|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The settings a lab's form shows, by name (TRL's names where TRL has one): every field of its trainer's schema, read
 * from its spec, so a search for any of them finds the lab.
 */
export const labSettingNames = (trainer: TrainerName): string[] => Object.keys(TRAINERS[trainer].schema);

/**
 * One entry per chapter and per `##`/`###` section, one per lab (its summary and the names of its settings) and one per
 * exercise (its statement and the function it asks for), built at build time for the search page.
 */
export function buildSearchIndex(): SearchEntry[] {
  const entries: SearchEntry[] = [];
  for (const meta of getChapters()) {
    const source = fs.readFileSync(path.join(process.cwd(), meta.file), 'utf8');
    const { body } = parseFrontmatter(meta.file, source);
    const base = { slug: meta.slug, chapter: meta.title, number: meta.number, kind: 'chapter' as const };
    entries.push({ ...base, heading: null, anchor: null, text: [meta.summary, ...meta.objectives].join(' ') });
    const slugger = new GithubSlugger();
    const sections = plainCodeBlocks(body).split(/^(#{2,3} .+)$/m);
    for (let i = 1; i < sections.length; i += 2) {
      const heading = sections[i].replace(/^#+ /, '').trim();
      entries.push({ ...base, heading: plain(heading), anchor: slugger.slug(plain(heading)), text: plain(sections[i + 1] ?? '').slice(0, 2000) });
    }
  }
  labs.forEach((lab, i) => {
    const fields = labSettingNames(lab.trainer);
    entries.push({ slug: lab.slug, chapter: `Lab: ${lab.title}`, number: 100 + i, heading: null, anchor: null, href: `/labs/${lab.slug}/`, kind: 'lab', text: `${lab.summary} Settings: ${fields.join(', ')}.` });
  });
  exercises.forEach((e, i) => {
    entries.push({
      slug: e.chapter,
      chapter: `Exercise: ${e.title}`,
      number: 200 + i,
      heading: null,
      anchor: `exercise-${e.id}`,
      href: `/chapters/${e.chapter}/#exercise-${e.id}`,
      kind: 'exercise',
      text: plain(`${e.statement.join(' ')} Write ${e.entry}(${e.params.join(', ')}).`),
    });
  });
  return entries;
}

/** Fenced code blocks on one line each, before the split into sections (see plain). */
const plainCodeBlocks = (markdown: string) => markdown.replace(/```[^\n]*\n([\s\S]*?)```/g, (_, code: string) => `\`\`\`\n${code.replace(/\s+/g, ' ')}\`\`\``);
