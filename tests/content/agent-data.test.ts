import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toLabEpisode, validateTrajectory } from '@/lib/agentdata';
import { TWO_CALL_TRAJECTORY } from '@/lib/agentdata/examples';

// The agent-data chapter prints a trajectory, its tokens and mask, and counts: all are recomputed here.
const source = fs.readFileSync('content/chapters/09-agent-data.mdx', 'utf8');
const blocks = [...source.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, body]) => ({ lang, body }));
const num = (s: string) => Number(s.replace(/,/g, ''));

const episode = toLabEpisode(TWO_CALL_TRAJECTORY);
if (!episode.ok) throw new Error(episode.reason);

/** The worked example's table: consecutive tokens of one role grouped on a line, spaces shown as ␣. */
function maskTable(e: typeof episode & { ok: true }): string {
  const rows: { role: string; mask: number; tokens: string[] }[] = [];
  e.tokens.forEach((t, i) => {
    const last = rows[rows.length - 1];
    if (last && last.role === e.roles[i]) last.tokens.push(t);
    else rows.push({ role: e.roles[i], mask: e.mask[i], tokens: [t] });
  });
  const lines = rows.map((r) => `${r.role.padEnd(13)}${String(r.mask).padEnd(6)}${r.tokens.map((t) => (t === ' ' ? '␣' : t)).join(' ')}`);
  return ['role         mask  tokens', ...lines].join('\n') + '\n';
}

describe('chapter 9, the worked example', () => {
  it('prints the library example trajectory, and it is valid', () => {
    const json = blocks.filter((b) => b.lang === 'json').map((b) => JSON.parse(b.body));
    expect(json).toContainEqual(TWO_CALL_TRAJECTORY);
    for (const t of json) expect(validateTrajectory(t).errors).toEqual([]);
  });

  it('prints the tokens and mask that toLabEpisode computes', () => {
    expect(blocks.map((b) => b.body)).toContain(maskTable(episode));
  });

  it('states the token counts that the conversion gives', () => {
    const m = /The sequence has (\d+) tokens, and (\d+) of them carry the loss[\s\S]*?The (\d+) prompt tokens and the (\d+) observation tokens/.exec(source);
    expect(m).not.toBeNull();
    const count = (role: string) => episode.roles.filter((r) => r === role).length;
    expect(m!.slice(1).map(Number)).toEqual([episode.tokens.length, episode.mask.filter((x) => x === 1).length, count('prompt'), count('observation')]);
  });
});

describe('chapter 9, dataset figures add up', () => {
  it('APIBench: the three hubs sum to the total, ten instructions each', () => {
    const m = /APIBench, collects model APIs from three hubs: ([\d,]+) from HuggingFace, ([\d,]+) from TensorFlow Hub and ([\d,]+) from Torch Hub, ([\d,]+) in all\. For each API the authors had a strong model write ten instructions[^.]*, giving ([\d,]+) instruction/.exec(source);
    expect(m).not.toBeNull();
    const [hf, tf, torch, total, pairs] = m!.slice(1).map(num);
    expect(hf + tf + torch).toBe(total);
    expect(total * 10).toBe(pairs);
  });

  it("AgentInstruct: the six splits sum to the stated number of trajectories", () => {
    const rows = [...source.matchAll(/^\| `(\w+)` \| [^|]+ \| ([\d,]+) \|$/gm)];
    expect(rows.map((r) => r[1])).toEqual(['alfworld', 'webshop', 'mind2web', 'kg', 'os', 'db']);
    const stated = /([\d,]+) trajectories collected by GPT-4 in six environments/.exec(source);
    expect(rows.reduce((s, r) => s + num(r[2]), 0)).toBe(num(stated![1]));
  });
});
