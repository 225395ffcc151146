import type { Metadata } from 'next';
import { buildSearchIndex } from '@/lib/content/search';
import { SearchBox } from './SearchBox';

export const metadata: Metadata = { title: 'Search', description: 'Search the chapters of Agentic RL Lab.' };

export default function SearchPage() {
  return (
    <main className="page">
      <h1>Search the course</h1>
      <SearchBox entries={buildSearchIndex()} />
    </main>
  );
}
