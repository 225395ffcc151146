/** Search ranking, shared by the search page (client) and tests; no Node APIs here. */
export interface SearchEntry {
  slug: string;
  chapter: string;
  number: number;
  /** Section heading, or null for the chapter's own entry (title + summary + objectives). */
  heading: string | null;
  anchor: string | null;
  text: string;
}

/** Rank entries that contain every query term; headings and titles count more than body text. */
export function searchEntries(entries: SearchEntry[], query: string, limit = 20): SearchEntry[] {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [];
  const scored = entries
    .map((entry) => {
      const title = `${entry.chapter} ${entry.heading ?? ''}`.toLowerCase();
      const text = entry.text.toLowerCase();
      let score = 0;
      for (const term of terms) {
        if (title.includes(term)) score += 5;
        else if (text.includes(term)) score += 1;
        else return null;
      }
      return { entry, score };
    })
    .filter((x): x is { entry: SearchEntry; score: number } => x !== null);
  return scored.sort((a, b) => b.score - a.score || a.entry.number - b.entry.number).slice(0, limit).map((x) => x.entry);
}
