'use client';

import { useEffect, useMemo, useState } from 'react';
import { entryHref, searchEntries, snippet, type SearchEntry } from '@/lib/content/search-rank';

const KIND_WORDS = { chapter: 'Chapter', lab: 'Lab', exercise: 'Exercise' } as const;

/** Client-side search over an index built at build time; the query lives in the URL (?q=). */
export function SearchBox({ entries }: { entries: SearchEntry[] }) {
  const [query, setQuery] = useState('');
  useEffect(() => setQuery(new URLSearchParams(window.location.search).get('q') ?? ''), []);
  const results = useMemo(() => searchEntries(entries, query), [entries, query]);

  const update = (value: string) => {
    setQuery(value);
    const url = new URL(window.location.href);
    if (value) url.searchParams.set('q', value);
    else url.searchParams.delete('q');
    window.history.replaceState(null, '', url);
  };

  return (
    <div className="search">
      <label htmlFor="search-input">Search the course</label>
      <input id="search-input" type="search" value={query} onChange={(e) => update(e.target.value)} placeholder="e.g. advantage, LoRA, num_generations" autoComplete="off" />
      <p className="search-help">Chapters, labs and exercises; words match their other forms (clipping finds clipped), and TRL’s setting names work as written.</p>
      <p role="status" className="search-count">
        {query.trim() ? `${results.length} result${results.length === 1 ? '' : 's'}` : ''}
      </p>
      <ul className="search-results">
        {results.map((r) => (
          <li key={entryHref(r)}>
            <a href={entryHref(r)}>
              {r.kind === 'chapter' || r.kind === undefined ? `${r.number}. ` : ''}
              {r.chapter}
              {r.heading ? ` › ${r.heading}` : ''}
            </a>{' '}
            <span className="search-kind">{KIND_WORDS[r.kind ?? 'chapter']}</span>
            <p>
              {snippet(r.text, query).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
