import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

// Chapter 9 after the review of issue 32: the AgentInstruct mask follows the stored `loss` flags (not the roles),
// ToolBench is described as one example per decision step, and the per-step cost is a printed number checked here.
const source = fs.readFileSync('content/chapters/09-agent-data.mdx', 'utf8');
const prose = source.replace(/\s+/g, ' ');

describe('chapter 9, AgentInstruct mask', () => {
  it('no longer claims that a role mask agrees with the stored loss flags', () => {
    expect(prose).not.toMatch(/agrees with the stored `?loss`? flags/i);
    expect(prose).not.toMatch(/the flag becomes the assistant mask/i);
    expect(prose).not.toMatch(/the mask comes from the roles/i);
  });

  it('names the scripted agent turns and the ways to honour the flag', () => {
    expect(prose).toContain("OK. I'll follow your instructions and try my best to solve the task.");
    expect(prose).toMatch(/a mask built from roles is not the stored mask/);
    expect(prose).toMatch(/move those turns into the prompt/);
    expect(prose).toMatch(/`assistant_masks`/);
  });
});

describe('chapter 9, one example per step', () => {
  it('cites ToolBench’s preprocessing and training files at a named commit', () => {
    for (const file of ['preprocess/preprocess_toolllama_data.py', 'toolbench/train/train.py', 'scripts/train_toolllama.sh']) {
      expect(source).toContain(file);
    }
    expect(source).toContain('d56fdd89faf8c91fa135090b212bb9057ee5cfc2');
  });

  it('prints the cost of N rows against one row as computed from 1 + 2 + … + N', () => {
    const m = /For \$N = (\d+)\$ that is (\d+) step-lengths instead of (\d+), so ([\d.]+) times the tokens/.exec(prose);
    expect(m).not.toBeNull();
    const [n, perStep, whole, ratio] = m!.slice(1).map(Number);
    let sum = 0;
    for (let k = 1; k <= n; k++) sum += k; // the history before step k holds k - 1 steps, plus step k itself
    expect(perStep).toBe(sum);
    expect(perStep).toBe((n * (n + 1)) / 2);
    expect(whole).toBe(n);
    expect(ratio).toBeCloseTo(perStep / whole, 10);
    expect(ratio).toBeCloseTo((n + 1) / 2, 10);
  });
});

describe('chapter 9, the mixing share', () => {
  it('no longer asserts that 0.2 is not the paper’s number', () => {
    expect(prose).not.toMatch(/not a number taken from the paper/);
    expect(source).toContain('probabilities=[0.2, 0.8]');
  });
});

describe('chapter 9, review additions are quizzed and cited', () => {
  it('has a quiz for each new section', () => {
    for (const id of ['ch09-parallel-calls', 'ch09-per-step', 'ch09-loss-flag', 'ch09-bfcl']) {
      expect(source).toContain(`<Quiz id="${id}"`);
    }
  });

  it('cites only references that exist, numbered 1..n without gaps', () => {
    const refs = source.slice(source.indexOf('<References>'));
    const numbers = [...refs.matchAll(/^(\d+)\. /gm)].map((r) => Number(r[1]));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const body = source.slice(0, source.indexOf('<References>'));
    const cited = [...body.matchAll(/\[(\d+)\](?!\()/g)].map((r) => Number(r[1]));
    for (const c of cited) expect(c).toBeLessThanOrEqual(numbers.length);
  });

  it('names the new sources inline, with the repositories at commits', () => {
    for (const s of ['arXiv:2406.18518', 'arXiv:2409.00920', 'gorilla.cs.berkeley.edu/leaderboard', 'e33a45d7eab2b63cac4d1956da1e6377fca9fcc7', '3ef9235d23e68e7c2920c5422ad957dc8ced5c6c']) {
      expect(source).toContain(s);
    }
  });
});
