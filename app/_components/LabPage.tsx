import type { LabEntry } from '@/content/labs';
import { getChapterMeta } from '@/lib/content/chapters';
import { LabLoader } from '@/labs/LabLoader';

/** A lab on its own page: title, what it trains, the chapter to read, and the lab itself (loaded at once). */
export function LabPage({ lab }: { lab: LabEntry }) {
  const chapter = getChapterMeta(lab.chapter);
  return (
    <main className="page lab-page">
      <h1>{lab.title}</h1>
      <p className="lede">{lab.summary}</p>
      {chapter ? (
        <p>
          The ideas behind it are in <a href={`/chapters/${chapter.slug}/`}>chapter {chapter.number}: {chapter.title}</a>.
        </p>
      ) : null}
      <section aria-labelledby="lab-title">
        <h2 id="lab-title">Train it in your browser</h2>
        <LabLoader slug={lab.slug} />
      </section>
    </main>
  );
}
