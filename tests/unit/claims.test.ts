/**
 * The claims as lib/claims keeps them (each trainer's in its own module, loadable by a page) and the fast ones run
 * inside `npm test`; `npm run claims` runs them all. Each is a seeded run on wasm with an assertion on what it logged,
 * the same code path as the CLI's.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClaimContext } from '@/lib/claims/types';
import { selectBackend } from '@/lib/tf/backend';
import { TRAINER_NAMES, trainerSettings } from '@/lib/spec/registry';
import type { LogLine } from '@/lib/train/run';
import { CLAIMS, CLAIMS_BY_TRAINER } from '../../scripts/claims/catalog';
import { runClaims } from '../../scripts/claims/run';

beforeAll(async () => {
  await selectBackend({ requested: 'wasm', order: ['wasm'] });
});

describe('claims (fast subset, seed 0, wasm)', () => {
  it('checks every preset of every trainer: each is run by a claim or named in one, and ids are unique', () => {
    expect(new Set(CLAIMS.map((c) => c.id)).size).toBe(CLAIMS.length);
    const covered = new Set<string>();
    for (const claim of CLAIMS) {
      for (const run of Object.values(claim.runs)) covered.add(`${run.trainer}/${run.preset ?? 'default'}`);
      for (const m of claim.where.matchAll(/\b(\w+) presets? ([\w, ]+)/g)) for (const name of m[2].split(/,\s*/)) covered.add(`${m[1]}/${name.trim()}`);
    }
    const missing = TRAINER_NAMES.flatMap((t) => Object.keys(trainerSettings(t).presets).map((p) => `${t}/${p}`)).filter((p) => !covered.has(p));
    expect(missing).toEqual([]);
  });

  it.each(CLAIMS.filter((c) => c.fast).map((c) => [c.id, c] as const))('%s', async (_id, claim) => {
    const [result] = await runClaims([claim]);
    expect(result.holds, `${claim.text} — measured: ${result.figure}`).toBe(true);
  }, 180_000);
});

describe('claims live per trainer, in modules a page can load', () => {
  it('each trainer’s module, lib/claims/<trainer>.ts, holds the claims of that trainer’s runs and no other', async () => {
    for (const trainer of TRAINER_NAMES) {
      const module = (await import(`@/lib/claims/${trainer.replace('_', '-')}.ts`)) as { claims: unknown };
      expect(module.claims, trainer).toBe(CLAIMS_BY_TRAINER[trainer]);
      expect(CLAIMS_BY_TRAINER[trainer].length, trainer).toBeGreaterThan(0);
      const foreign = CLAIMS_BY_TRAINER[trainer].flatMap((c) => Object.entries(c.runs).filter(([, run]) => run.trainer !== trainer).map(([name, run]) => `${c.id}/${name}: ${run.trainer}`));
      expect(foreign, trainer).toEqual([]);
    }
  });

  it('ids are unique across trainers, and the flat list is every trainer’s claims, each once', () => {
    const ids = TRAINER_NAMES.flatMap((t) => CLAIMS_BY_TRAINER[t].map((c) => c.id));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(CLAIMS.map((c) => c.id)).toEqual(ids);
  });

  it('lib/claims reaches no Node built-in through its static imports, and reads no process', () => {
    const nodeModules = new Set(builtinModules);
    const isNodeBuiltin = (specifier: string) => specifier.startsWith('node:') || nodeModules.has(specifier.split('/')[0]);
    const resolveFile = (from: string, specifier: string) => {
      const base = specifier.startsWith('@/') ? specifier.slice(2) : path.join(path.dirname(from), specifier);
      return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
    };
    const claimFiles = fs.readdirSync('lib/claims').map((f) => path.join('lib/claims', f));
    expect(claimFiles).toContain('lib/claims/vision.ts'); // a guard against reading an empty folder
    const reached = new Map(claimFiles.map((f) => [f, [f]]));
    const queue = [...claimFiles];
    const problems: string[] = [];
    while (queue.length > 0) {
      const file = queue.shift()!;
      const text = fs.readFileSync(file, 'utf8');
      // Static imports and re-exports (`import type` is erased from the bundle) and dynamic import() alike.
      const specifiers = [
        ...[...text.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]),
        ...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
      ];
      for (const specifier of specifiers) {
        const chain = [...reached.get(file)!, specifier].join(' → ');
        if (isNodeBuiltin(specifier)) problems.push(chain);
        if (!specifier.startsWith('.') && !specifier.startsWith('@/')) continue;
        const target = resolveFile(file, specifier);
        if (!target) problems.push(`${chain} (not found)`);
        else if (!reached.has(target)) {
          reached.set(target, [...reached.get(file)!, target]);
          queue.push(target);
        }
      }
      if (/\bprocess\./.test(text)) problems.push(`${reached.get(file)!.join(' → ')} reads process`);
    }
    expect(reached.has('lib/train/sweep.ts')).toBe(true); // the grpo claims' sweep is followed, not skipped
    expect(problems).toEqual([]);
  });

  it('a claim that prints its figures in a chapter fails when the chapter read does not print them, and holds when it does', () => {
    const claim = CLAIMS_BY_TRAINER.grpo.find((c) => c.id === 'grpo-custom-reward-hack')!;
    // A made-up run that meets every threshold: the custom reward climbs 0.2 → 0.9 and held-out accuracy falls to 0.
    const train = (step: number, reward: number): LogLine => ({ step, kind: 'train', metrics: { 'rewards/custom/mean': reward } });
    const evalLine = (step: number, accuracy: number): LogLine => ({ step, kind: 'eval', metrics: { 'eval/accuracy': accuracy } });
    const run = [evalLine(0, 0.275), ...Array.from({ length: 20 }, (_, i) => train(i + 1, i < 15 ? 0.2 : 0.9)), evalLine(10, 0.01), evalLine(20, 0)];
    const read: string[] = [];
    const chapterSaying = (text: string): ClaimContext => ({ chapter: (file) => (read.push(file), text) });

    const silent = claim.check({ run }, chapterSaying('# GRPO\n\nA chapter whose numbers were edited.'));
    expect(silent.holds).toBe(false);
    expect(read).toContain('06-grpo.mdx');
    const sentence = /06-grpo\.mdx does not print: (.*)$/.exec(silent.figure)?.[1];
    expect(sentence).toContain('went from 0.20 at the first step to 0.90 over the last five');

    const printing = claim.check({ run }, chapterSaying(`# GRPO\n\nIn our run ${sentence}.`));
    expect(printing.figure).not.toContain('does not print');
    expect(printing.holds).toBe(true);
  });
});
