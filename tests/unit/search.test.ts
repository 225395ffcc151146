import { describe, expect, it } from 'vitest';
import { exercises } from '@/content/exercises';
import { labs } from '@/content/labs';
import { buildSearchIndex, labSettingNames } from '@/lib/content/search';
import { searchEntries, snippet, stem, type SearchEntry } from '@/lib/content/search-rank';

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

describe('stems', () => {
  it('reduce a word’s forms to a stem they all contain, and leave identifiers whole', () => {
    for (const form of ['clipping', 'clipped', 'clips']) expect(stem(form)).toBe('clip');
    expect(stem('rewards')).toBe('reward');
    expect(stem('policies')).toBe('policy');
    expect('advantage').toContain(stem('advantages'));
    expect(stem('num_generations')).toBe('num_generations');
    expect(stem('kl')).toBe('kl');
    expect(stem('loss')).toBe('loss');
  });

  it('let a query find the other forms of its words', () => {
    const entries = [entry(4, 'The clipped objective', 'PPO clips the ratio.'), entry(6, 'Groups', 'Rewards are compared within a group.')];
    expect(searchEntries(entries, 'clipping').map((e) => e.number)).toEqual([4]);
    expect(searchEntries(entries, 'reward').map((e) => e.number)).toEqual([6]);
  });
});

describe('snippets', () => {
  it('show the text around the first match, with the matches marked and math written as (formula)', () => {
    const text = `${'Words before. '.repeat(30)}The ratio $\\rho_t = \\pi_\\theta / \\pi_{old}$ is clipped to keep updates small. ${'Words after. '.repeat(30)}`;
    const parts = snippet(text, 'clipping ratio', 120);
    const shown = parts.map((p) => p.text).join('');
    expect(shown.startsWith('…')).toBe(true);
    expect(shown).toContain('The ratio (formula) is clipped');
    expect(shown).not.toContain('\\pi');
    expect(parts.filter((p) => p.match).map((p) => p.text.toLowerCase())).toEqual(['ratio', 'clip']);
  });

  it('start at the beginning when nothing matches (or there is no query)', () => {
    expect(snippet('A short text.', '').map((p) => p.text).join('')).toBe('A short text.');
  });
});

describe('the built index', () => {
  const index = buildSearchIndex();

  it('finds TRL’s setting names in the chapters and the labs that take them', () => {
    const hits = searchEntries(index, 'num_generations', 50);
    expect(hits.some((e) => e.kind === 'chapter')).toBe(true);
    expect(hits.map((e) => e.href)).toContain('/labs/grpo/');
    expect(searchEntries(index, 'loss_type', 50).length).toBeGreaterThan(1);
  });

  it('has an entry for every lab and every exercise, linking to it', () => {
    expect(index.filter((e) => e.kind === 'lab').map((e) => e.href).sort()).toEqual(labs.map((l) => `/labs/${l.slug}/`).sort());
    for (const e of exercises) expect(index.find((x) => x.kind === 'exercise' && x.href === `/chapters/${e.chapter}/#exercise-${e.id}`), e.id).toBeDefined();
    expect(searchEntries(index, 'generalised advantage estimation').some((e) => e.kind === 'exercise')).toBe(true);
  });

  it('finds every lab by every setting its trainer takes, for every trainer (read from the spec, no table of its own)', () => {
    const missing: string[] = [];
    for (const lab of labs) {
      const names = labSettingNames(lab.trainer);
      expect(names.length, lab.slug).toBeGreaterThan(5);
      for (const name of names) {
        // Every hit, not the first page: a one-letter name such as LoRA's r matches nearly every entry.
        if (!searchEntries(index, name, index.length).some((e) => e.href === `/labs/${lab.slug}/`)) missing.push(`${name} → ${lab.slug}`);
      }
    }
    expect(missing).toEqual([]);
    // The settings the last review searched for in vain, each with the lab it belongs to.
    const finds = (query: string, slug: string) => searchEntries(index, query, 20).some((e) => e.href === `/labs/${slug}/`);
    expect(finds('max_message_length', 'team')).toBe(true);
    expect(finds('grid_size', 'vision')).toBe(true);
    expect(finds('sft_steps', 'vision')).toBe(true);
    expect(finds('rounds_per_difficulty', 'self-improve')).toBe(true);
    expect(finds('lora_alpha', 'lora')).toBe(true);
    // And no lab is found by a setting it does not take.
    expect(finds('grid_size', 'grpo')).toBe(false);
  });
});
