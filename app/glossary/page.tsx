import type { Metadata } from 'next';
import { glossary, glossaryId } from '@/content/glossary';
import { getChapterMeta } from '@/lib/content/chapters';

export const metadata: Metadata = {
  title: 'Glossary',
  description: 'The terms of the course in one line each, with the chapter section that teaches them.',
};

export default function GlossaryPage() {
  const terms = [...glossary].sort((a, b) => a.term.localeCompare(b.term, 'en', { sensitivity: 'base' }));
  return (
    <main className="page">
      <h1>Glossary</h1>
      <p className="lede">
        Each term in one line, with the section that teaches it. Symbols are on the <a href="/notation/">notation</a>{' '}
        page.
      </p>
      <dl className="glossary">
        {terms.map((entry) => {
          const meta = getChapterMeta(entry.chapter);
          return (
            <div key={entry.term} id={glossaryId(entry)} className="glossary-entry">
              <dt>{entry.term}</dt>
              <dd>
                {entry.definition}{' '}
                <a href={`/chapters/${entry.chapter}/#${entry.anchor}`}>
                  Chapter {meta?.number}: {meta?.title}
                </a>
              </dd>
            </div>
          );
        })}
      </dl>
    </main>
  );
}
