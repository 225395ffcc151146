'use client';

import Link from 'next/link';
import { useEffect } from 'react';
import { progressActions, useProgress } from './useProgress';

/** Records that a chapter was opened (and is the last one visited). Renders nothing. */
export function MarkOpened({ slug }: { slug: string }) {
  const { ready } = useProgress(() => null);
  useEffect(() => {
    if (ready) progressActions().markOpened(slug);
  }, [ready, slug]);
  return null;
}

/** A small status mark for a chapter: completed, opened, or nothing yet. */
export function ChapterMark({ slug }: { slug: string }) {
  const { value, ready } = useProgress((s) => s.chapters[slug]);
  if (!ready || !value) return <span className="chapter-mark" aria-hidden="true" />;
  if (value.completedAt) return <span className="chapter-mark done" title="Completed">✓<span className="sr-only"> (completed)</span></span>;
  return <span className="chapter-mark opened" title="Opened">•<span className="sr-only"> (started)</span></span>;
}

export function CompleteToggle({ slug }: { slug: string }) {
  const { value: completed, ready } = useProgress((s) => Boolean(s.chapters[slug]?.completedAt));
  return (
    <div className="complete-toggle">
      <button type="button" disabled={!ready} aria-pressed={completed} onClick={() => progressActions().setCompleted(slug, !completed)}>
        {completed ? '✓ Chapter completed' : 'Mark chapter as completed'}
      </button>
    </div>
  );
}

interface ChapterLink {
  slug: string;
  title: string;
  number: number;
}

/** Home page: where the reader left off, and how far through the course they are. */
export function ContinueReading({ chapters }: { chapters: ChapterLink[] }) {
  const { value, ready } = useProgress((s) => s);
  if (!ready) return <div className="continue placeholder" aria-hidden="true" />;
  const completed = chapters.filter((c) => value.chapters[c.slug]?.completedAt).length;
  const last = chapters.find((c) => c.slug === value.lastVisited?.slug);
  const firstUnfinished = chapters.find((c) => !value.chapters[c.slug]?.completedAt);
  const target = last && !value.chapters[last.slug]?.completedAt ? last : (firstUnfinished ?? chapters[0]);
  const started = Object.keys(value.chapters).length > 0;
  return (
    <div className="continue">
      <p>
        {started ? `You have completed ${completed} of ${chapters.length} chapters.` : 'New here? Start with chapter 1.'}
      </p>
      <Link className="button" href={`/chapters/${target.slug}/`}>
        {started ? 'Continue' : 'Start'}: {target.number}. {target.title}
      </Link>
      {started ? (
        <button
          type="button"
          className="link-button"
          onClick={() => {
            if (window.confirm('Forget all progress and quiz answers on this device?')) progressActions().reset();
          }}
        >
          Reset progress
        </button>
      ) : null}
    </div>
  );
}
