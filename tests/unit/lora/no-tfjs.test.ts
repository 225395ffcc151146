import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');

/** Every module a file reaches through static imports (project files only), with the bare packages they name. */
function importGraph(entry: string): { files: string[]; packages: Set<string> } {
  const files: string[] = [];
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.includes(file)) return;
    files.push(file);
    const source = fs.readFileSync(file, 'utf8');
    for (const [, spec] of source.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      if (!spec) continue;
      if (!spec.startsWith('.') && !spec.startsWith('@/')) {
        packages.add(spec);
        continue;
      }
      const base = spec.startsWith('@/') ? path.join(ROOT, spec.slice(2)) : path.resolve(path.dirname(file), spec);
      const resolved = ['.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find((f) => fs.existsSync(f));
      if (resolved) visit(resolved);
    }
  };
  visit(path.join(ROOT, entry));
  return { files, packages };
}

describe('the LoRA budget core', () => {
  it.each(['lib/lora/budget.ts', 'lib/lora/format.ts', 'app/_components/widgets/LoraCalculatorClient.tsx'])(
    '%s imports no tfjs, even transitively',
    (entry) => {
      const { files, packages } = importGraph(entry);
      expect(files.length).toBeGreaterThan(0);
      expect([...packages].filter((p) => p.includes('tensorflow'))).toEqual([]);
      // The graph is real: budget.ts reaches the shared scaling function in lib/rl/lora.ts.
      if (entry === 'lib/lora/budget.ts') expect(files.some((f) => f.endsWith(path.join('lib', 'rl', 'lora.ts')))).toBe(true);
    },
  );
});
