import { describe, expect, it } from 'vitest';
import { searchEntries, type SearchEntry } from '@/lib/content/search-rank';

const entry = (number: number, heading: string | null, text: string): SearchEntry => ({
  slug: `c${number}`,
  chapter: `Chapter ${number}`,
  number,
  heading,
  anchor: heading ? heading.toLowerCase().replace(/\s+/g, '-') : null,
  text,
});

describe('search ranking', () => {
  const entries = [
    entry(1, null, 'An overview of agents and rewards.'),
    entry(4, 'The clipped objective', 'PPO clips the ratio to keep updates small.'),
    entry(6, 'Group advantage', 'GRPO compares each completion with its group; the ratio is clipped as in PPO.'),
  ];

  it('requires every term and ranks heading matches above body matches', () => {
    expect(searchEntries(entries, 'ratio clipped').map((e) => e.number)).toEqual([4, 6]);
    expect(searchEntries(entries, 'clipped').map((e) => e.number)).toEqual([4, 6]);
    expect(searchEntries(entries, 'group ratio').map((e) => e.number)).toEqual([6]);
  });

  it('is case-insensitive and returns nothing for an empty query or no match', () => {
    expect(searchEntries(entries, 'REWARDS').map((e) => e.number)).toEqual([1]);
    expect(searchEntries(entries, '   ')).toEqual([]);
    expect(searchEntries(entries, 'transformer')).toEqual([]);
  });
});
