'use client';

import { progressActions, useProgress } from '@/ui/useProgress';

interface ChapterLink {
  slug: string;
  title: string;
  number: number;
}

/** Home page: where the reader left off, and how far through the course they are. */
export function ContinueReading({ chapters }: { chapters: ChapterLink[] }) {
  const { value, ready } = useProgress((s) => s);
  if (!ready) {
    return (
      <div className="continue" data-new-reader="">
        <p>New here? Start with chapter 1.</p>
        <a className="button" href={`/chapters/${chapters[0].slug}/`}>
          Start: {chapters[0].number}. {chapters[0].title}
        </a>
      </div>
    );
  }
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
      <a className="button" href={`/chapters/${target.slug}/`}>
        {started ? 'Continue' : 'Start'}: {target.number}. {target.title}
      </a>
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
