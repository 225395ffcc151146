import fs from 'node:fs';
import path from 'node:path';
import { slug } from 'github-slugger';
import { describe, expect, it } from 'vitest';
import { trlDefaults } from '@/content/trl-defaults';

// Chapter 8 opens with a map of the objective (reward, advantage, weighting, ratio/clip, aggregation, or outside the
// objective) and a table that places every method the chapter discusses on it. This file keeps the table, the
// sections and the TRL lines it cites in step: a new method section without a row, a row whose parts its section does
// not name, or a knob whose v1.13.0 line is wrong fails here.
const FILE = path.join('content', 'chapters', '08-research-2025.mdx');
const source = fs.readFileSync(FILE, 'utf8');
const lines = source.split('\n');

const MAP = 'Reading a new method: the map';
const PARTS = ['reward', 'advantage', 'weighting', 'ratio/clip', 'aggregation', 'outside'] as const;
// ## sections that explain something other than a method (or are the map itself).
const NOT_METHODS = [
  'In this chapter',
  MAP,
  'When the importance ratio leaves 1',
  'What carries over to multi-turn agents',
  'Lab: GRPO, Dr. GRPO, DAPO and GSPO on one seed',
];
// The section whose ### entries are each a method (or, for SRPO, three methods under one name).
const NAMED = 'Six names from 2026: SAR, T-STAR, UCPO, DelTA, SRPO and GROW';

/** Text of the heading `title` at `level` up to the next heading of the same or a higher level. */
function sectionOf(title: string, level: 2 | 3): string {
  const start = lines.findIndex((l) => l === `${'#'.repeat(level)} ${title}`);
  expect(start, title).toBeGreaterThanOrEqual(0);
  const stop = lines.findIndex((l, k) => k > start && new RegExp(`^#{2,${level}} `).test(l));
  return lines.slice(start + 1, stop < 0 ? undefined : stop).join('\n');
}

const h2 = lines.filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
const named = sectionOf(NAMED, 2)
  .split('\n')
  .filter((l) => l.startsWith('### '))
  .map((l) => l.slice(4));

interface Row {
  method: string;
  anchor: string;
  parts: string[];
  change: string;
  knobs: string;
}

const rows: Row[] = sectionOf(MAP, 2)
  .split('\n')
  .filter((l) => l.startsWith('| [')) // the table's body; its header row starts with "| method"
  .map((l) => {
    const cells = l.slice(1, -1).split(' | ').map((c) => c.trim());
    expect(cells, l).toHaveLength(4);
    const link = cells[0].match(/^\[([^\]]+)\]\(#([a-z0-9-]+)\)$/);
    expect(link, cells[0]).not.toBeNull();
    return { method: link![1], anchor: link![2], parts: cells[1].split(', '), change: cells[2], knobs: cells[3] };
  });

/** The parts of the map a section says it touches: its "On the map" paragraphs and its "*Change (...)" marks. */
function partsNamedIn(text: string): Set<string> {
  const said = [
    ...text.split('\n\n').filter((p) => p.startsWith('**On the map:**')),
    ...[...text.matchAll(/\*Change \(([^)]*)\)/g)].map((m) => m[1]),
  ].join(' ');
  return new Set(PARTS.filter((p) => new RegExp(`(^|[^a-z/])${p.replace('/', '\\/')}($|[^a-z/])`).test(said)));
}

describe('chapter 8 opens with the map', () => {
  it('puts the map right after the contents, with the five parts of the objective marked in one display', () => {
    expect(h2.slice(0, 2)).toEqual(['In this chapter', MAP]);
    const map = sectionOf(MAP, 2);
    for (const part of ['aggregation', 'weighting', 'ratio/clip', 'advantage', 'reward']) {
      expect(map).toContain(`}_{\\text{${part}}}`);
    }
    expect(map).toMatch(/<Quiz id="ch08-map-read" /);
  });

  it('moved the old "Reading a new method quickly" callout rather than copying it', () => {
    expect(source).not.toMatch(/Reading a new method quickly/);
    expect(source.match(/ask three questions/g)).toHaveLength(1);
  });
});

describe('the map table', () => {
  it('has rows that name real parts and link real sections', () => {
    expect(rows.length).toBeGreaterThanOrEqual(15);
    const anchors = new Set([...h2, ...named].map((h) => slug(h)));
    for (const row of rows) {
      expect(anchors.has(row.anchor), `${row.method} links #${row.anchor}`).toBe(true);
      for (const p of row.parts) expect(PARTS, `${row.method}: ${p}`).toContain(p as (typeof PARTS)[number]);
      expect(row.change.length, row.method).toBeGreaterThan(20);
    }
  });

  it('places every method section of the chapter', () => {
    const linked = new Set(rows.map((r) => r.anchor));
    const methods = [...h2.filter((h) => !NOT_METHODS.includes(h) && h !== NAMED), ...named];
    expect(methods).toEqual(expect.arrayContaining(['DeepSeek-R1 and the RLVR recipe', 'VAPO: bringing the value model back']));
    for (const heading of methods) expect(linked.has(slug(heading)), `no map row for "${heading}"`).toBe(true);
    // The headline methods of the chapter's title each have a row of their own.
    for (const m of ['DeepSeek-R1', 'DAPO', 'Dr. GRPO', 'VAPO', 'GSPO']) expect(rows.map((r) => r.method)).toContain(m);
  });

  it('agrees with each section: the section says where it sits, naming every part its rows give', () => {
    const byAnchor = new Map<string, Set<string>>();
    for (const r of rows) byAnchor.set(r.anchor, new Set([...(byAnchor.get(r.anchor) ?? []), ...r.parts]));
    for (const heading of [...h2, ...named]) {
      const parts = byAnchor.get(slug(heading));
      if (!parts) continue;
      const said = partsNamedIn(sectionOf(heading, named.includes(heading) ? 3 : 2));
      expect(said.size, `"${heading}" does not say where it sits on the map`).toBeGreaterThan(0);
      for (const p of parts) expect(said.has(p), `"${heading}" does not name ${p}`).toBe(true);
    }
  });

  it("cites each TRL knob at its v1.13.0 line (the field's default, as in content/trl-defaults.ts)", () => {
    // Read from the v1.13.0 wheel's sources for the knobs trl-defaults.ts does not list.
    const elsewhere: Record<string, { file: string; line: number }> = {
      sapo_temperature_neg: { file: 'trl/trainer/grpo_config.py', line: 710 },
      vespo_k_pos: { file: 'trl/trainer/grpo_config.py', line: 726 },
      vllm_importance_sampling_mode: { file: 'trl/trainer/grpo_config.py', line: 930 },
      get_soft_overlong_punishment: { file: 'trl/rewards/other_rewards.py', line: 83 }, // the def line
    };
    let cited = 0;
    for (const row of rows) {
      for (const m of row.knobs.matchAll(/`(?:AsyncGRPOConfig\.)?([a-z_]+)(?:=[^`]*)?` \((?:([\w/.]+\.py):)?(\d+)\)/g)) {
        const [, field, file = 'trl/trainer/grpo_config.py', line] = m;
        const known = trlDefaults.find((d) => d.field === field && d.file === file) ?? elsewhere[field];
        expect(known, `${row.method}: ${field}`).toBeDefined();
        expect({ field, file, line: Number(line) }).toEqual({ field, file: known!.file, line: known!.line });
        cited++;
      }
      // A row without a knob says so instead of leaving the cell empty.
      if (!/`/.test(row.knobs)) expect(row.knobs, row.method).toMatch(/^none/);
    }
    expect(cited).toBeGreaterThanOrEqual(12);
  });
});
