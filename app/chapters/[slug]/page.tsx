import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getMDXComponent } from 'mdx-bundler/client';
import { ChapterSidebar } from '@/app/_components/ChapterSidebar';
import { mdxComponents } from '@/app/_components/mdx/registry';
import { StaticBlock } from '@/app/_components/static-html/StaticBlock';
import { CompleteToggle, MarkOpened } from '@/app/_components/progress/ProgressWidgets';
import { getChapterMeta, getChapters, neighbours } from '@/lib/content/chapters';
import { compileChapter } from '@/lib/content/compile';
import { STATIC_BLOCK } from '@/lib/content/static-blocks';
import { tocSpyScript } from './toc-spy-script';

type Params = { slug: string };

export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getChapters().map((c) => ({ slug: c.slug }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const meta = getChapterMeta((await params).slug);
  return meta ? { title: meta.title, description: meta.summary } : {};
}

export default async function ChapterPage({ params }: { params: Promise<Params> }) {
  const { slug } = await params;
  if (!getChapterMeta(slug)) notFound();
  const { meta, code, headings } = await compileChapter(slug);
  const Body = getMDXComponent(code);
  const { prev, next } = neighbours(slug);

  return (
    <div className="chapter-layout">
      <MarkOpened slug={slug} />
      <ChapterSidebar chapters={getChapters()} current={slug} />
      <article className="chapter">
        <p className="eyebrow">
          Chapter {meta.number} · {meta.part}
        </p>
        <h1>{meta.title}</h1>
        <p className="summary">{meta.summary}</p>
        <p className="chapter-meta">
          {meta.readingMinutes} min read · about {meta.minutes} min with exercises
        </p>
        <p className="chapter-aids">
          Symbols follow the course <a href="/notation/">notation</a>; terms are defined in the{' '}
          <a href="/glossary/">glossary</a>, and every work cited is in the <a href="/references/">references</a>.
        </p>
        <section className="objectives" aria-labelledby="objectives-title">
          <h2 id="objectives-title">What you will learn</h2>
          <ul>
            {meta.objectives.map((o) => (
              <li key={o}>{o}</li>
            ))}
          </ul>
          {meta.prerequisites.length > 0 ? (
            <p className="prerequisites">
              <strong>Before you start:</strong> {meta.prerequisites.join('; ')}.
            </p>
          ) : null}
        </section>
        <div className="prose">
          <Body components={{ ...mdxComponents, [STATIC_BLOCK]: StaticBlock }} />
        </div>
        <CompleteToggle slug={slug} />
        <nav className="prev-next" aria-label="Previous and next chapter">
          {prev ? (
            <a href={`/chapters/${prev.slug}/`} rel="prev">
              <span>← Previous</span>
              {prev.number}. {prev.title}
            </a>
          ) : (
            <span />
          )}
          {next ? (
            <a href={`/chapters/${next.slug}/`} rel="next">
              <span>Next →</span>
              {next.number}. {next.title}
            </a>
          ) : null}
        </nav>
      </article>
      {headings.length > 0 ? (
        <nav className="toc" aria-label="On this page">
          <p className="toc-title">On this page</p>
          <ul>
            {headings.map((h) => (
              <li key={h.id} className={h.depth === 3 ? 'toc-sub' : undefined}>
                <a href={`#${h.id}`}>{h.text}</a>
              </li>
            ))}
          </ul>
          <script dangerouslySetInnerHTML={{ __html: tocSpyScript }} />
        </nav>
      ) : null}
    </div>
  );
}
