/**
 * Chapters on disk: the course map (content/course.ts) gives the order, `content/chapters/NN-slug.mdx`
 * gives the text. Metadata comes from frontmatter alone (cheap, for navigation); `compileChapter`
 * does the full, strict MDX build for a chapter page.
 */
import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { course, type CourseEntry } from '@/content/course';
import { frontmatterSchema, type Frontmatter } from './frontmatter';
import { ChapterError } from './plugins';

export const CHAPTERS_DIR = path.join(process.cwd(), 'content', 'chapters');
const WORDS_PER_MINUTE = 220;

export interface ChapterMeta extends Frontmatter {
  slug: string;
  number: number;
  part: CourseEntry['part'];
  /** Path relative to the repository root, for error messages. */
  file: string;
  words: number;
  readingMinutes: number;
}

/** Words a reader reads: prose only, without code, math, tags and link targets. */
export function countWords(body: string): number {
  const prose = body
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\$\$[\s\S]*?\$\$/g, ' ')
    .replace(/\$[^$\n]*\$/g, ' x ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\]\([^)]*\)/g, ']');
  return prose.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;
}

function lineOfKey(source: string, key: string): number | undefined {
  const index = source.split('\n').findIndex((line) => line.startsWith(`${key}:`));
  return index >= 0 ? index + 1 : undefined;
}

export function parseFrontmatter(file: string, source: string): { data: Frontmatter; body: string } {
  if (!source.startsWith('---\n')) throw new ChapterError(file, 1, 'missing YAML frontmatter (the file must start with ---)');
  let parsed: matter.GrayMatterFile<string>;
  try {
    parsed = matter(source);
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    throw new ChapterError(file, mark?.line !== undefined ? mark.line + 2 : 1, `unreadable frontmatter: ${(error as Error).message.split('\n')[0]}`);
  }
  const result = frontmatterSchema.safeParse(parsed.data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const key = String(issue.path[0] ?? '');
    throw new ChapterError(file, lineOfKey(source, key), `frontmatter ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return { data: result.data, body: parsed.content };
}

/** The chapter files present on disk, keyed by slug. */
export function chapterFiles(): Map<string, { number: number; file: string }> {
  const files = new Map<string, { number: number; file: string }>();
  for (const name of fs.readdirSync(CHAPTERS_DIR).sort()) {
    const match = /^(\d{2})-([a-z0-9-]+)\.mdx$/.exec(name);
    if (!match) throw new ChapterError(`content/chapters/${name}`, undefined, 'chapter files must be named NN-slug.mdx');
    files.set(match[2], { number: Number(match[1]), file: `content/chapters/${name}` });
  }
  return files;
}

let metaCache: ChapterMeta[] | undefined;

/** Every chapter's metadata in course order. Throws if the course map and the files disagree. */
export function getChapters(): ChapterMeta[] {
  if (metaCache) return metaCache;
  const files = chapterFiles();
  const metas = course.map((entry, index) => {
    const found = files.get(entry.slug);
    if (!found) throw new ChapterError('content/course.ts', undefined, `no file content/chapters/NN-${entry.slug}.mdx for "${entry.slug}"`);
    if (found.number !== index + 1) {
      throw new ChapterError(found.file, undefined, `file number ${found.number} does not match its place ${index + 1} in the course map`);
    }
    const source = fs.readFileSync(path.join(process.cwd(), found.file), 'utf8');
    const { data, body } = parseFrontmatter(found.file, source);
    const words = countWords(body);
    return { ...data, slug: entry.slug, number: index + 1, part: entry.part, file: found.file, words, readingMinutes: Math.max(1, Math.round(words / WORDS_PER_MINUTE)) };
  });
  for (const slug of files.keys()) {
    if (!course.some((entry) => entry.slug === slug)) {
      throw new ChapterError(files.get(slug)!.file, undefined, `chapter "${slug}" is not in the course map (content/course.ts)`);
    }
  }
  metaCache = metas;
  return metas;
}

export function getChapterMeta(slug: string): ChapterMeta | undefined {
  return getChapters().find((chapter) => chapter.slug === slug);
}

/** Previous and next chapters in course order, for the links at the foot of a chapter. */
export function neighbours(slug: string): { prev?: ChapterMeta; next?: ChapterMeta } {
  const chapters = getChapters();
  const index = chapters.findIndex((chapter) => chapter.slug === slug);
  return { prev: chapters[index - 1], next: chapters[index + 1] };
}
