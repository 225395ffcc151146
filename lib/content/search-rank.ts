/** Search ranking and snippets, shared by the search page (client) and tests; no Node APIs here. */
export interface SearchEntry {
  slug: string;
  /** What the result is titled by: the chapter's title, the lab's, or the exercise's. */
  chapter: string;
  /** Orders equal scores: chapters by number, then labs, then exercises. */
  number: number;
  /** Section heading, or null for the entry's own page (a chapter's title, summary and objectives; a lab; an exercise). */
  heading: string | null;
  anchor: string | null;
  text: string;
  /** Where the result links; a chapter section's address when absent. */
  href?: string;
  kind?: 'chapter' | 'lab' | 'exercise';
}

export const entryHref = (e: SearchEntry) => e.href ?? `/chapters/${e.slug}/${e.anchor ? `#${e.anchor}` : ''}`;

/**
 * A word reduced to a stem that its other forms contain, so that matching by substring finds them: "clipping",
 * "clipped" and "clips" all give "clip"; "rewards" gives "reward"; "advantages" gives "advantag". Identifiers
 * (num_generations, kl_coef) and short words are left whole. Deliberately light: a false match costs a result lower
 * down, a missed one costs the reader the page.
 */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3 || /[^a-z]/.test(w)) return w;
  let s = w;
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('ing') && s.length > 5) s = s.slice(0, -3);
  else if (s.endsWith('ed') && s.length > 4) s = s.slice(0, -2);
  else if (s.endsWith('es') && s.length > 4) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss') && s.length > 3) s = s.slice(0, -1);
  // clipp(ing|ed) → clip; not for ll, ss, zz, which the word itself has (roll, pass).
  if (/([b-df-hj-kmnp-rtv-xz])\1$/.test(s)) s = s.slice(0, -1);
  return s;
}

/** The query's terms as stems; an empty query gives none. */
export const queryStems = (query: string) => query.toLowerCase().split(/\s+/).filter(Boolean).map(stem);

/** Rank entries that contain every query term (by its stem); headings and titles count more than body text. */
export function searchEntries(entries: SearchEntry[], query: string, limit = 20): SearchEntry[] {
  const terms = queryStems(query);
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

/** A part of a snippet: plain text, or a stretch that matched a term (shown highlighted). */
export interface SnippetPart {
  text: string;
  match: boolean;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * About `length` characters of the entry's text around the first place a term matches, math written as "(formula)"
 * (its LaTeX source is searchable, not readable), split into parts so that the matches can be highlighted.
 */
export function snippet(text: string, query: string, length = 200): SnippetPart[] {
  const readable = text.replace(/\$\$[\s\S]*?\$\$|\$[^$]*\$/g, '(formula)').replace(/\s+/g, ' ').trim();
  const terms = queryStems(query).filter((t) => t.length > 0);
  const lower = readable.toLowerCase();
  const first = terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0);
  const at = first.length ? Math.min(...first) : 0;
  let start = Math.max(0, at - Math.floor(length / 3));
  if (start > 0) start = readable.indexOf(' ', start) + 1 || start; // begin on a word
  const end = Math.min(readable.length, start + length);
  const shown = `${start > 0 ? '…' : ''}${readable.slice(start, end)}${end < readable.length ? '…' : ''}`;
  if (terms.length === 0) return [{ text: shown, match: false }];
  const pattern = new RegExp(`(${terms.map(escapeRegExp).join('|')})`, 'gi');
  return shown.split(pattern).filter((p) => p !== '').map((p) => ({ text: p, match: terms.includes(p.toLowerCase()) }));
}
