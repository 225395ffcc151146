/** lib/export runs in the lab's page and in Node: no tfjs, no UI, no Node built-ins, even through another module. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function resolveLocal(from: string, spec: string): string | null {
  const base = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.join(path.dirname(from), spec) : null;
  if (base === null) return null;
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) if (fs.existsSync(c) && fs.statSync(c).isFile()) return path.normalize(c);
  return null;
}

/**
 * Every package a module reaches through static, non-type imports, with the chain that reached it. (import() is
 * left out, as in tests/unit/layers.test.ts: the registry's lazy trainer loaders reach tfjs only when a run starts.)
 */
function packagesReached(start: string): Map<string, string[]> {
  const seen = new Set([start]);
  const packages = new Map<string, string[]>();
  const queue: [string, string[]][] = [[start, [start]]];
  while (queue.length) {
    const [file, chain] = queue.shift()!;
    if (!/\.tsx?$/.test(file)) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
      if (m[1]) continue;
      const spec = m[2];
      const local = resolveLocal(file, spec);
      if (local === null) packages.set(spec, [...chain, spec]);
      else if (!seen.has(local)) {
        seen.add(local);
        queue.push([local, [...chain, local]]);
      }
    }
  }
  return packages;
}

describe('lib/export', () => {
  it('reaches no tfjs, no UI and no Node built-in', () => {
    // Every exporter and the zip: the lab's dialog loads any of them in the page.
    const starts = fs.readdirSync('lib/export', { recursive: true }).map(String).filter((f) => f.endsWith('.ts')).map((f) => `lib/export/${f}`);
    expect(starts).toEqual(expect.arrayContaining(['lib/export/text-project.ts', 'lib/export/vision-project.ts', 'lib/export/zip.ts']));
    const bad: string[] = [];
    for (const start of starts) {
      const reached = packagesReached(start);
      expect(reached.has('fflate') || start !== 'lib/export/zip.ts').toBe(true);
      for (const [pkg, chain] of reached) if (/^@tensorflow\/|^node:|^(fs|path|react|next)(\/|$)/.test(pkg)) bad.push(chain.join(' → '));
    }
    const local = fs.readdirSync('lib/export', { recursive: true }).map(String).filter((f) => f.endsWith('.ts'));
    for (const f of local) if (/from ['"]@\/(app|labs)\//.test(fs.readFileSync(path.join('lib/export', f), 'utf8'))) bad.push(`lib/export/${f} imports UI`);
    expect(bad).toEqual([]);
  });
});
