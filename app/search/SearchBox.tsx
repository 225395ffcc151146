'use client';

import { useEffect, useMemo, useState } from 'react';
import { searchEntries, type SearchEntry } from '@/lib/content/search-rank';

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
      <label htmlFor="search-input">Search chapters</label>
      <input id="search-input" type="search" value={query} onChange={(e) => update(e.target.value)} placeholder="e.g. advantage, LoRA, KL" autoComplete="off" />
      <p role="status" className="search-count">
        {query.trim() ? `${results.length} result${results.length === 1 ? '' : 's'}` : ''}
      </p>
      <ul className="search-results">
        {results.map((r) => (
          <li key={`${r.slug}#${r.anchor ?? ''}`}>
            <a href={`/chapters/${r.slug}/${r.anchor ? `#${r.anchor}` : ''}`}>
              {r.number}. {r.chapter}
              {r.heading ? ` › ${r.heading}` : ''}
            </a>
            <p>{r.text.slice(0, 180)}…</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
