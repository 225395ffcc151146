/**
 * The Node sandbox (lib/sandbox/node.ts) that runs a reader's reward file or exercise in the command lines: it
 * returns values, turns every failure into one outcome (with the reader's line where there is one), stops infinite
 * loops and memory bombs, and gives the code nothing of Node (no require, no process, no imports).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeSandbox } from '@/lib/sandbox/node';
import { describeFailure, type CodeSandbox, type SandboxOutcome } from '@/lib/sandbox/outcome';

let sandbox: CodeSandbox;
afterEach(() => sandbox?.dispose());

const failure = (outcome: SandboxOutcome) => {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome;
};

describe('node sandbox', () => {
  it('loads an ES module and calls its default export with copies of the arguments', async () => {
    sandbox = createNodeSandbox();
    expect(await sandbox.load('export default function (completions, ctx) {\n  return completions.map((c, i) => c.length + ctx.answers[i].length);\n}', 'default', 2000)).toEqual({ ok: true, value: null });
    expect(await sandbox.call([['ab', 'c'], { answers: ['1', '22'] }], 1000)).toEqual({ ok: true, value: [3, 3] });
    // Structured clone out: NaN and Infinity survive for the caller to refuse.
    await sandbox.load('export default () => [NaN, Infinity, -0]', 'default', 2000);
    const out = await sandbox.call([], 1000);
    expect(out.ok && (out.value as number[]).map(String)).toEqual(['NaN', 'Infinity', '0']);
  });

  it('loads a script that defines a named function (an exercise)', async () => {
    sandbox = createNodeSandbox();
    expect((await sandbox.load('function gae(r, v) {\n  return r.map((x, i) => x + v[i]);\n}', 'gae', 2000)).ok).toBe(true);
    expect(await sandbox.call([[1, 2], [3, 4]], 1000)).toEqual({ ok: true, value: [4, 6] });
    expect(failure(await sandbox.load('const gea = () => 1;', 'gae', 2000))).toMatchObject({ kind: 'compile', message: 'the code must define a function named gae' });
  });

  it('refuses imports, and a file without a default export, before running anything', async () => {
    sandbox = createNodeSandbox();
    expect(failure(await sandbox.load("import fs from 'node:fs';\nexport default () => [1];", 'default', 2000))).toMatchObject({ kind: 'compile', message: expect.stringContaining('imports are not allowed here ("node:fs")') });
    expect(failure(await sandbox.load('export const reward = () => [1];', 'default', 2000))).toMatchObject({ kind: 'compile', message: 'the file must "export default" a function' });
  });

  it('names the line of a throw and of a syntax error', async () => {
    sandbox = createNodeSandbox();
    await sandbox.load('export default function (c) {\n  const n = c.length;\n  if (n > 1) throw new TypeError("too many: " + n);\n  return [0];\n}', 'default', 2000);
    const thrown = failure(await sandbox.call([['a', 'b']], 1000));
    expect(thrown).toMatchObject({ kind: 'throw', line: 3 });
    expect(describeFailure(thrown)).toBe('line 3: TypeError: too many: 2');
    expect(failure(await sandbox.load('export default function (c) {\n  return c.map(x => \n}', 'default', 2000))).toMatchObject({ kind: 'compile', line: 3, message: expect.stringContaining('SyntaxError') });
    // Something thrown that is not an Error still reads as one sentence.
    await sandbox.load('export default () => { throw "nope"; }', 'default', 2000);
    expect(failure(await sandbox.call([], 1000)).message).toBe('threw "nope"');
  });

  it('stops an infinite loop at the time limit, then runs the next call in a fresh worker', async () => {
    sandbox = createNodeSandbox();
    await sandbox.load('let calls = 0;\nexport default (c) => {\n  calls += 1;\n  if (c === "spin") while (true) {}\n  return [calls];\n}', 'default', 2000);
    expect(await sandbox.call(['x'], 1000)).toEqual({ ok: true, value: [1] });
    const started = Date.now();
    expect(failure(await sandbox.call(['spin'], 300))).toMatchObject({ kind: 'timeout', message: 'stopped after 300 ms: the code did not return (an infinite loop?)' });
    expect(Date.now() - started).toBeLessThan(2500);
    // The module was evaluated again from scratch: its state starts over.
    expect(await sandbox.call(['x'], 1000)).toEqual({ ok: true, value: [1] });
    // A loop at the top level is stopped too.
    expect(failure(await sandbox.load('while (true) {}\nexport default () => [1];', 'default', 300))).toMatchObject({ kind: 'timeout' });
  });

  it('gives the code nothing of Node: no process, require, fetch or the host realm through the arguments', async () => {
    sandbox = createNodeSandbox();
    await sandbox.load(
      'export default (c) => [typeof process, typeof require, typeof fetch, typeof globalThis.setTimeout, c.constructor.constructor("return typeof process")()]',
      'default',
      2000,
    );
    expect(await sandbox.call([[1]], 1000)).toEqual({ ok: true, value: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined'] });
  });

  it('reports results it cannot copy out, a Promise, and a memory bomb as failures', async () => {
    sandbox = createNodeSandbox();
    await sandbox.load('export default () => () => 1', 'default', 2000);
    expect(failure(await sandbox.call([], 1000)).kind).toBe('result');
    await sandbox.load('export default async () => [1]', 'default', 2000);
    expect(failure(await sandbox.call([], 1000))).toMatchObject({ kind: 'result', message: expect.stringContaining('Promise') });
    await sandbox.load('export default () => { const a = []; while (true) a.push(new Array(1e6).fill(1)); }', 'default', 2000);
    expect(failure(await sandbox.call([], 20_000))).toMatchObject({ kind: 'crash', message: expect.stringContaining('memory') });
  }, 30_000);
});
