import type { Metadata } from 'next';
import { referenceUrl, references } from '@/content/references';
import { getChapters } from '@/lib/content/chapters';
import { compileChapter } from '@/lib/content/compile';

export const metadata: Metadata = {
  title: 'References',
  description: 'Every paper, book and library the course cites, with the chapters that cite it.',
};

export default async function ReferencesPage() {
  // Which chapters cite what comes from the chapters' own <References> lists, as the compiler matched them.
  const chapters = await Promise.all(getChapters().map((c) => compileChapter(c.slug)));
  const citedBy = new Map<string, { slug: string; number: number }[]>();
  for (const c of chapters) {
    for (const id of new Set(c.references)) citedBy.set(id, [...(citedBy.get(id) ?? []), { slug: c.meta.slug, number: c.meta.number }]);
  }
  const sorted = [...references].sort((a, b) => (a.authors ?? a.title).localeCompare(b.authors ?? b.title, 'en', { sensitivity: 'base' }));
  return (
    <main className="page">
      <h1>References</h1>
      <p className="lede">
        Every paper, book, post and library the course cites, {references.length} in all, with the chapters that cite
        each. TRL is cited at release v1.13.0, the version the course&apos;s core and chapters follow; its PPO trainer and
        its paper index at v1.9.0, since v1.13.0 no longer ships PPO and its documentation was not re-read.
      </p>
      <ul className="reference-list">
        {sorted.map((r) => {
          const url = referenceUrl(r);
          return (
            <li key={r.id} id={r.id}>
              {r.authors ? <>{r.authors} </> : null}
              {r.year ? <>({r.year}). </> : null}
              <cite>{r.title}</cite>
              {r.note ? <>. {r.note}</> : null}.{' '}
              <a href={url}>{r.arxiv ? `arXiv:${r.arxiv}` : url.replace(/^https?:\/\/(www\.)?/, '')}</a>
              {(r.also ?? []).map((extra) => (
                <span key={extra}>
                  {', '}
                  <a href={extra}>{extra.replace(/^https?:\/\/(www\.)?/, '')}</a>
                </span>
              ))}
              <span className="cited-by">
                {' '}
                Cited in{' '}
                {(citedBy.get(r.id) ?? []).map((c, i) => (
                  <span key={c.slug}>
                    {i > 0 ? ', ' : null}
                    <a href={`/chapters/${c.slug}/#references-title`}>
                      chapter {c.number}
                    </a>
                  </span>
                ))}
                .
              </span>
            </li>
          );
        })}
      </ul>
    </main>
  );
}
