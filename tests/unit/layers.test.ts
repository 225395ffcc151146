/**
 * The architecture's layers, read from the import statements of every source file: a new import that breaks a rule
 * fails here, naming the file and the import. From the top down, with no way back up:
 *
 *   app/      routes and their private UI; reaches a lab only through labs/LabLoader.tsx
 *   labs/     one folder per lab and the shell they share
 *   ui/       what app/ and labs/ both use (code editor, Markdown, download, settings form and link state, progress)
 *   lib/      the core, UI-free; lib/spec on top, lib/tasks below lib/train
 *   content/  data: prose, the course map, exercises; may read lib's types, never run its code
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['app', 'content', 'labs', 'lib', 'scripts', 'ui'];
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
function edgesOf(file: string, text = fs.readFileSync(file, 'utf8')): Edge[] {
  const edges: Edge[] = [];
  // The clause before `from` is spelled out (default name, `* as ns`, `{ … }`) so that a match cannot start at an
  // earlier `export type X = …` or `export function` and run on to the next import, taking that statement's kind.
  const statement = /^[ \t]*(import|export)[ \t]+(type[ \t]+)?(?:(?:[\w$]+\s*,?\s*)?(?:\*\s*(?:as\s+[\w$]+)?|\{[^}]*\})?\s*from\s*)?['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(statement)) edges.push({ from: file, to: resolveImport(file, m[3]), kind: m[2] ? 'type' : 'static' });
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) edges.push({ from: file, to: resolveImport(file, m[1]), kind: 'dynamic' });
  return edges;
}

const files = ROOTS.flatMap(sourceFiles);
const edges = files.flatMap((file) => edgesOf(file));
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
    // Every layer the rules below name is read, so none of them passes for want of files.
    for (const root of ROOTS) expect(files.some((f) => inside(f, root)), root).toBe(true);
    expect(files).toContain('labs/LabLoader.tsx');
    expect(edges).toContainEqual({ from: 'labs/shell/RewardPanel.tsx', to: 'ui/CodeEditor.tsx', kind: 'static' });
    expect(edges).toContainEqual({ from: 'app/_components/LabPage.tsx', to: 'labs/LabLoader.tsx', kind: 'static' });
  });

  it("reads each statement's own kind, however the statements before it are written", () => {
    const text = [
      "export type Colour = 'red' | 'blue';",
      'export interface Scene { size: number }',
      "import { createRng, type Rng } from '@/lib/random';",
      'export function size(scene: Scene) { return scene.size; }',
      "import type { Schema } from '@/lib/train/config';",
      "import Default, * as all from 'zod';",
      "export * from './colours';",
    ].join('\n');
    expect(edgesOf('content/example.ts', text)).toEqual([
      { from: 'content/example.ts', to: 'lib/random.ts', kind: 'static' },
      { from: 'content/example.ts', to: 'lib/train/config.ts', kind: 'type' },
      { from: 'content/example.ts', to: 'zod', kind: 'static' },
      { from: 'content/example.ts', to: 'content/colours', kind: 'static' },
    ]);
  });

  it('finds the client components', () => {
    expect(clientModules.length).toBeGreaterThan(10);
  });

  it('lib/ never imports the UI (app/, labs/, ui/)', () => {
    expect(violations((e) => inside(e.from, 'lib') && ['app', 'labs', 'ui'].some((ui) => inside(e.to, ui)))).toEqual([]);
  });

  it('app/ reaches labs/ only through the lab loader', () => {
    // A lab is a heavy island that loads lazily behind LabLoader; anything else app/ wants from a lab belongs in ui/.
    expect(violations((e) => inside(e.from, 'app') && inside(e.to, 'labs') && e.to !== 'labs/LabLoader.tsx')).toEqual([]);
  });

  it('labs/ never imports app/', () => {
    expect(violations((e) => inside(e.from, 'labs') && inside(e.to, 'app'))).toEqual([]);
  });

  it('ui/ imports neither app/ nor labs/: it sits below both', () => {
    expect(violations((e) => inside(e.from, 'ui') && (inside(e.to, 'app') || inside(e.to, 'labs')))).toEqual([]);
  });

  it('content/ runs no lib/ code: it may import lib types only', () => {
    // Content is data that lib reads (lib/exercises/check.ts reads the exercises); code content needs lives in lib.
    expect(violations((e) => inside(e.from, 'content') && inside(e.to, 'lib') && e.kind !== 'type')).toEqual([]);
  });

  it('lib/spec is the top of lib: only lib/teach and lib/content (which dispatch through the specs) import it', () => {
    // The specs name the trainers, graders, exporters and claims below them; none of those may name the specs back.
    const above = ['lib/spec', 'lib/teach', 'lib/content'];
    expect(violations((e) => inside(e.from, 'lib') && !above.some((d) => inside(e.from, d)) && inside(e.to, 'lib/spec'))).toEqual([]);
    expect(violations((e) => ['lib/train', 'lib/export', 'lib/claims', 'lib/models', 'lib/tasks', 'lib/rl'].some((d) => inside(e.from, d)) && (inside(e.to, 'lib/teach') || inside(e.to, 'lib/content')))).toEqual([]);
    expect(edges.some((e) => inside(e.from, 'lib/spec') && inside(e.to, 'lib/export'))).toBe(true); // the rule reads a real edge's layers
  });

  it('lib/claims runs in a browser as in Node: it reaches no Node built-in, even through import()', () => {
    const problems: string[] = [];
    for (const start of files.filter((f) => inside(f, 'lib/claims'))) {
      for (const [to, chain] of closure(start, ['static', 'dynamic'])) if (/^(node:|fs$|path$|child_process$|os$)/.test(to)) problems.push(chain.join(' → '));
    }
    expect(problems).toEqual([]);
  });

  it('lib/rl (the math) never imports lib/train (the trainers)', () => {
    expect(violations((e) => inside(e.from, 'lib/rl') && inside(e.to, 'lib/train'))).toEqual([]);
  });

  it('lib/tasks (environments, data, rewards) imports neither lib/models nor tfjs: tasks are model-free', () => {
    expect(violations((e) => inside(e.from, 'lib/tasks') && (inside(e.to, 'lib/models') || isTfjs(e.to)))).toEqual([]);
  });

  it('lib/tasks never imports lib/train, not even a type: the trainers are built on the tasks', () => {
    expect(violations((e) => inside(e.from, 'lib/tasks') && inside(e.to, 'lib/train'))).toEqual([]);
  });

  it('modules the pages read for constants, and every client component, load no tfjs', () => {
    const constants = [
      'lib/tf/names.ts',
      'lib/rl/choices.ts',
      'lib/train/config.ts',
      'lib/spec/registry.ts',
      // The export dialog's dispatch loads with the lab page; the exporters it calls are tfjs-free too.
      'lib/spec/export.ts',
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
