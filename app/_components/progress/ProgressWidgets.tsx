'use client';

import { useEffect } from 'react';
import { progressActions, useProgress } from '@/ui/useProgress';

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

/**
 * Until stored progress is read (the page's code starts on the reader's first interaction) the button shows the new
 * reader's state and works: a press is replayed once the page is live. A device with stored progress hides it
 * meanwhile (data-new-reader, stored-progress-script.ts) rather than show a state that may be wrong.
 */
export function CompleteToggle({ slug }: { slug: string }) {
  const { value: completed, ready } = useProgress((s) => Boolean(s.chapters[slug]?.completedAt));
  return (
    <div className="complete-toggle" data-new-reader={ready ? undefined : ''}>
      <button type="button" aria-pressed={completed} onClick={() => progressActions().setCompleted(slug, !completed)}>
        {completed ? '✓ Chapter completed' : 'Mark chapter as completed'}
      </button>
    </div>
  );
}

/** Whether the reader has trained a lab to the end on this device, and with which presets. */
export function LabTrained({ slug }: { slug: string }) {
  const { value: runs, ready } = useProgress((s) => s.labs?.[slug]);
  if (!ready || !runs) return null;
  return (
    <span className="exercise-badge" title={`Runs finished with: ${runs.presets.join(', ')}`}>
      Trained ({runs.presets.join(', ')})
    </span>
  );
}
