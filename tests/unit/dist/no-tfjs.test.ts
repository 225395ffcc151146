import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every module a file imports, followed through relative and '@/' imports (type-only imports included). */
function importsOf(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = fs.readFileSync(file, 'utf8');
  for (const [, spec] of source.matchAll(/(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/g)) {
    if (!spec.startsWith('.') && !spec.startsWith('@/')) {
      seen.add(spec);
      continue;
    }
    const base = spec.startsWith('@/') ? path.resolve(spec.slice(2)) : path.resolve(path.dirname(file), spec);
    const resolved = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
    if (!resolved) throw new Error(`${file}: cannot resolve ${spec}`);
    importsOf(resolved, seen);
  }
  return seen;
}

describe('the numeric face lib/dist/index.ts', () => {
  it('imports no tfjs, even transitively, so a chapter page can use it', () => {
    const all = [...importsOf(path.resolve('lib/dist/index.ts'))];
    expect(all.filter((m) => m.includes('@tensorflow') || m.endsWith('equivalence.ts'))).toEqual([]);
    expect(all.some((m) => m.endsWith('lib/dist/zero.ts'))).toBe(true); // the walk does follow imports
  });

  it('while the demonstrations do use tfjs (they run in a worker)', () => {
    expect([...importsOf(path.resolve('lib/dist/equivalence.ts'))]).toContain('@tensorflow/tfjs');
  });
});
