import type { ChapterMeta } from '@/lib/content/chapters';
import { ChapterMark } from './progress/ProgressWidgets';

/** Course navigation, grouped by part, built from the course map. */
export function ChapterSidebar({ chapters, current }: { chapters: ChapterMeta[]; current?: string }) {
  const parts = [...new Set(chapters.map((c) => c.part))];
  return (
    <nav className="sidebar" aria-label="Chapters">
      {parts.map((part) => (
        <div key={part}>
          <p className="sidebar-part">{part}</p>
          <ol start={chapters.find((c) => c.part === part)!.number}>
            {chapters
              .filter((c) => c.part === part)
              .map((c) => (
                <li key={c.slug}>
                  <a href={`/chapters/${c.slug}/`} aria-current={c.slug === current ? 'page' : undefined}>
                    <ChapterMark slug={c.slug} />
                    {c.number}. {c.title}
                  </a>
                </li>
              ))}
          </ol>
        </div>
      ))}
    </nav>
  );
}
