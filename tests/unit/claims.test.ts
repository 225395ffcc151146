/**
 * The fast claims of scripts/claims/catalog.ts, inside `npm test`; `npm run claims` runs them all. Each is a seeded
 * run on wasm with an assertion on what it logged, the same code path as the CLI's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '@/lib/tf/backend';
import { TRAINER_NAMES, trainerSettings } from '@/lib/spec/registry';
import { CLAIMS } from '../../scripts/claims/catalog';
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
