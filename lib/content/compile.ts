import fs from 'node:fs';
import path from 'node:path';
import { bundleMDX } from 'mdx-bundler';
import rehypeHighlight from 'rehype-highlight';
import rehypeKatex from 'rehype-katex';
import rehypeSlug from 'rehype-slug';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { errorMessage } from '@/lib/errors';
import { getChapterMeta, parseFrontmatter, type ChapterMeta } from './chapters';
import { rehypeMathml } from './mathml';
import { rehypeStaticBlocks } from './static-blocks';
import type { Frontmatter } from './frontmatter';
import {
  ChapterError,
  rehypeCollectHeadings,
  rehypeFocusableScrollers,
  remarkCheckComponents,
  remarkCheckMath,
  remarkCollectLinks,
  remarkLinkReferences,
  type CollectedLink,
  type Heading,
} from './plugins';

export interface CompiledSource {
  frontmatter: Frontmatter;
  /** The MDX bundle, for getMDXComponent. */
  code: string;
  headings: Heading[];
  links: CollectedLink[];
  quizIds: string[];
  figures: string[];
  labs: string[];
  /** Ids of the exercises (content/exercises.ts) the chapter shows with <Exercise id="…" />, in order. */
  exercises: string[];
  /** Ids of content/references.ts records the chapter's <References> cite, in order. */
  references: string[];
}

export interface CompiledChapter extends CompiledSource {
  meta: ChapterMeta;
}

/**
 * esbuild wraps plugin errors in its own message; unwrap ours (they already name file:line), and
 * give MDX syntax errors the line esbuild found (positions count from the top of the file).
 */
function describeBuildError(file: string, error: unknown): Error {
  if (error instanceof ChapterError) return error;
  const errors = (error as { errors?: { text: string; location?: { line: number } | null }[] }).errors;
  const first = errors?.[0];
  if (!first) return new ChapterError(file, undefined, errorMessage(error));
  const ours = /ChapterError: (.*)/s.exec(first.text);
  if (ours) return ChapterError.withMessage(ours[1].trim());
  const text = first.text.replace(/^Cannot process MDX file with esbuild:\s*/, '').replace(/^\d+:\d+: /, '');
  return new ChapterError(file, first.location?.line, `MDX syntax error: ${text}`);
}

/** Compile MDX strictly: bad frontmatter, unknown tags, bad quiz props and formulas KaTeX rejects all throw. */
export async function compileSource(file: string, source: string): Promise<CompiledSource> {
  const { data: frontmatter } = parseFrontmatter(file, source);
  const headings: Heading[] = [];
  const links: CollectedLink[] = [];
  const found = { quizIds: [] as string[], figures: [] as string[], labs: [] as string[], exercises: [] as string[] };
  const references: string[] = [];
  try {
    const { code } = await bundleMDX({
      source,
      cwd: path.dirname(path.resolve(file)),
      esbuildOptions(options) {
        options.logLevel = 'silent'; // errors are rethrown below with file:line; don't print them twice
        return options;
      },
      mdxOptions(options) {
        options.remarkPlugins = [
          ...(options.remarkPlugins ?? []),
          remarkGfm,
          remarkMath,
          remarkCheckMath(file),
          remarkCheckComponents(file, found),
          remarkLinkReferences(file, references),
          remarkCollectLinks(file, links),
        ];
        options.rehypePlugins = [
          ...(options.rehypePlugins ?? []),
          rehypeSlug,
          rehypeCollectHeadings(headings),
          rehypeFocusableScrollers,
          // MathML only: native in every current browser and read by screen readers (see mathml.ts).
          [rehypeKatex, { output: 'mathml' }],
          rehypeMathml,
          [rehypeHighlight, { detect: false }],
          rehypeStaticBlocks, // last: it freezes what the plugins above produced into HTML
        ];
        return options;
      },
    });
    return { frontmatter, code, headings, links, ...found, references };
  } catch (error) {
    throw describeBuildError(file, error);
  }
}

const cache = new Map<string, Promise<CompiledChapter>>();

/** Compile a chapter of the course once per process (pages and tests share the result). */
export function compileChapter(slug: string): Promise<CompiledChapter> {
  const cached = cache.get(slug);
  if (cached) return cached;
  const meta = getChapterMeta(slug);
  if (!meta) return Promise.reject(new Error(`unknown chapter "${slug}"`));
  const source = fs.readFileSync(path.join(process.cwd(), meta.file), 'utf8');
  const promise = compileSource(meta.file, source).then((compiled) => ({ ...compiled, meta }));
  cache.set(slug, promise);
  return promise;
}
