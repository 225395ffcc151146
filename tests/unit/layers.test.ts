/**
 * The architecture's layers, read from the import statements of every source file: a new import that breaks a rule
 * fails here, naming the file and the import.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['app', 'content', 'labs', 'lib', 'scripts'];
const EXTENSIONS = ['.ts', '.tsx', '.mts'];

interface Edge {
  from: string;
  /** Repo-relative file, or the package name for a bare import. */
  to: string;
  kind: 'static' | 'type' | 'dynamic';
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return EXTENSIONS.includes(path.extname(entry.name)) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string {
  let base: string;
  if (specifier.startsWith('@/')) base = specifier.slice(2);
  else if (specifier.startsWith('.')) base = path.join(path.dirname(from), specifier);
  else return specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.normalize(candidate);
  }
  return path.normalize(base); // an asset (CSS) or a missing file: kept as written
}

/** import/export … from '…', import '…', import('…'); `import type` and `export type` are erased at build time. */
function edgesOf(file: string): Edge[] {
  const text = fs.readFileSync(file, 'utf8');
  const edges: Edge[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(statement)) edges.push({ from: file, to: resolveImport(file, m[3]), kind: m[2] ? 'type' : 'static' });
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) edges.push({ from: file, to: resolveImport(file, m[1]), kind: 'dynamic' });
  return edges;
}

const files = ROOTS.flatMap(sourceFiles);
const edges = files.flatMap(edgesOf);
const isTfjs = (to: string) => to.startsWith('@tensorflow/');
const inside = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);

/** Files reachable from `start` through static (non-type) imports, and dynamic ones if asked, with the chain that reached each. */
function closure(start: string, kinds: readonly Edge['kind'][] = ['static']): Map<string, string[]> {
  const reached = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const edge of edges) {
      if (edge.from !== file || !kinds.includes(edge.kind) || reached.has(edge.to)) continue;
      reached.set(edge.to, [...reached.get(file)!, edge.to]);
      if (files.includes(edge.to)) queue.push(edge.to);
    }
  }
  return reached;
}

// 'use client' modules run on the page's main thread.
const clientModules = files.filter((f) => /^\s*['"]use client['"]/.test(fs.readFileSync(f, 'utf8')));

const violations = (rule: (edge: Edge) => boolean) => edges.filter(rule).map((e) => `${e.from} imports ${e.to} (${e.kind})`);

describe('layers', () => {
  it('reads a real import graph (a guard against a parser that finds nothing)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges).toContainEqual({ from: 'lib/train/grpo-update.ts', to: '@tensorflow/tfjs', kind: 'static' });
    expect(edges).toContainEqual({ from: 'lib/spec/registry.ts', to: 'lib/train/grpo-trainer.ts', kind: 'dynamic' });
    expect(edges.some((e) => e.kind === 'type')).toBe(true);
    expect(files.filter((f) => inside(f, 'lib/teach')).length).toBeGreaterThan(5);
  });

  it('finds the client components', () => {
    expect(clientModules.length).toBeGreaterThan(10);
  });

  it('lib/ never imports the UI (app/, labs/)', () => {
    expect(violations((e) => inside(e.from, 'lib') && (inside(e.to, 'app') || inside(e.to, 'labs')))).toEqual([]);
  });

  it('lib/rl (the math) never imports lib/train (the trainers)', () => {
    expect(violations((e) => inside(e.from, 'lib/rl') && inside(e.to, 'lib/train'))).toEqual([]);
  });

  it('lib/tasks (environments, data, rewards) imports neither lib/models nor tfjs: tasks are model-free', () => {
    expect(violations((e) => inside(e.from, 'lib/tasks') && (inside(e.to, 'lib/models') || isTfjs(e.to)))).toEqual([]);
  });

  it('modules the pages read for constants, and every client component, load no tfjs', () => {
    const constants = [
      'lib/tf/names.ts',
      'lib/rl/choices.ts',
      'lib/train/config.ts',
      'lib/spec/registry.ts',
      'content/labs.ts',
      ...files.filter((f) => /^lib\/train\/[a-z-]+-config\.ts$/.test(f)),
      // Assignments, submissions and grading rules serve pages; only the evaluation (a worker's and the CLI's) loads tfjs.
      ...files.filter((f) => inside(f, 'lib/teach') && f !== 'lib/teach/evaluate.ts'),
    ];
    const problems: string[] = [];
    for (const start of [...constants, ...clientModules]) {
      for (const [to, chain] of closure(start)) if (isTfjs(to)) problems.push(chain.join(' → '));
    }
    expect(problems).toEqual([]);
  });

  it("the chapter widgets reach no tfjs even through import(): their numeric face runs in a Web Worker", () => {
    // A worker starts from new Worker(new URL(...)), not an import, so its tfjs is not on this graph. (Lab pages
    // reach the trainers' lazy loaders in lib/spec/registry.ts, which only their training worker calls.)
    const widgets = clientModules.filter((f) => inside(f, 'app/_components/widgets'));
    expect(widgets.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const start of widgets) {
      for (const [to, chain] of closure(start, ['static', 'dynamic'])) if (isTfjs(to)) problems.push(chain.join(' → '));
    }
    expect(problems).toEqual([]);
  });

  it('pages link to pages with plain <a>, never next/link: a chapter body exists only in its server-rendered HTML', () => {
    // app/_components/static-html keeps chapter prose out of the RSC payload, so a client-side navigation would
    // have no prose to show. Full page loads of static files are what this site is made of.
    expect(violations((e) => e.to === 'next' && /['"]next\/link['"]/.test(fs.readFileSync(e.from, 'utf8')))).toEqual([]);
    expect(files.filter((f) => /\buseRouter\(|\brouter\.push\(/.test(fs.readFileSync(f, 'utf8')))).toEqual([]);
  });
});
