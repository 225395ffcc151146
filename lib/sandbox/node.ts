/**
 * Runs a reader's JavaScript in Node (the command lines: a reward file, a graded exercise), isolated the way the
 * browser sandbox isolates it: a worker thread that compiles the source into a fresh V8 context with nothing in it
 * (no require, no process, no fetch, no import: an import is refused when the module is linked), copies arguments in
 * as JSON and results out by structured clone, and bounds each call with the context's own time limit. The thread
 * has a memory cap; if it dies or hangs anyway, it is stopped and a fresh one takes the next call.
 *
 * `vm` is not a security boundary against a determined attacker on this machine (Node says so); it is one against
 * accidents and against code that reaches for modules, storage or the network, which is what a learner's reward
 * file needs. Node-only.
 */
import { Worker } from 'node:worker_threads';
import { timeoutMessage, type CodeSandbox, type SandboxOutcome } from './outcome';

// CommonJS, evaluated as the worker's entry. `file` names the source in stacks, so errors give the reader's line.
const WORKER_SOURCE = `
'use strict';
const { parentPort } = require('node:worker_threads');
const vm = require('node:vm');
let context = null;
const FILE = 'user-code.js';
const lineOf = (stack) => { const m = /user-code\\.js:(\\d+)/.exec(String(stack || '')); return m ? Number(m[1]) : undefined; };
const describe = (e) => (e && typeof e === 'object' && 'message' in e) ? ((typeof e.name === 'string' ? e.name : 'Error') + ': ' + String(e.message)) : ('threw ' + (typeof e === 'string' ? JSON.stringify(e) : String(e)));
const failure = (e, kind) => e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' ? { ok: false, kind: 'timeout', message: '' } : { ok: false, kind, message: describe(e), line: lineOf(e && e.stack) };
// V8 gives a module's syntax errors no line: compile the same text as a script (export default → a declaration, on
// the same lines) to find it. Returns undefined when the script parses (the error was module-only).
function syntaxLine(source) {
  try { new vm.Script(source.replace(/\\bexport\\s+default\\b/, 'var __default ='), { filename: FILE }); }
  catch (e) { return lineOf(e && e.stack); }
  return undefined;
}
async function load(m) {
  context = vm.createContext(Object.create(null), { codeGeneration: { strings: true, wasm: false } });
  if (m.entry === 'default') {
    let mod;
    try { mod = new vm.SourceTextModule(m.source, { context, identifier: FILE }); }
    catch (e) { return { ok: false, kind: 'compile', message: describe(e), line: syntaxLine(m.source) }; }
    if (mod.moduleRequests ? mod.moduleRequests.length : mod.dependencySpecifiers.length) {
      const first = mod.moduleRequests ? mod.moduleRequests[0].specifier : mod.dependencySpecifiers[0];
      return { ok: false, kind: 'compile', message: 'imports are not allowed here ("' + first + '"): the file must stand alone' };
    }
    await mod.link(() => { throw new Error('imports are not allowed here'); });
    await mod.evaluate({ timeout: m.timeoutMs });
    const fn = mod.namespace.default;
    if (typeof fn !== 'function') return { ok: false, kind: 'compile', message: 'the file must "export default" a function' };
    context.__entry = fn;
  } else {
    new vm.Script(m.source, { filename: FILE }).runInContext(context, { timeout: m.timeoutMs });
    const fn = vm.runInContext('typeof ' + m.entry + ' === "function" ? ' + m.entry + ' : undefined', context);
    if (typeof fn !== 'function') return { ok: false, kind: 'compile', message: 'the code must define a function named ' + m.entry };
    context.__entry = fn;
  }
  return { ok: true, value: null };
}
function call(m) {
  context.__args = m.argsJson;
  const value = vm.runInContext('__entry(...JSON.parse(__args))', context, { timeout: m.timeoutMs });
  if (value && typeof value.then === 'function') return { ok: false, kind: 'result', message: 'it returned a Promise: return the value itself (no async, no await)' };
  return { ok: true, value };
}
parentPort.on('message', async (m) => {
  let outcome;
  try {
    outcome = m.type === 'load' ? await load(m) : context ? call(m) : { ok: false, kind: 'compile', message: 'no code was loaded' };
  } catch (e) {
    outcome = failure(e, e && e.name === 'SyntaxError' ? 'compile' : 'throw');
  }
  try { parentPort.postMessage({ id: m.id, outcome }); }
  catch { parentPort.postMessage({ id: m.id, outcome: { ok: false, kind: 'result', message: 'it returned a value that cannot be copied out (a function or a class instance?)' } }); }
});
`;

/** Extra time before a worker that does not answer is called broken (the context's own limit fires first). */
const GRACE_MS = 3000;
const MEMORY_LIMIT_MB = 256;

export function createNodeSandbox(): CodeSandbox {
  let worker: Worker | null = null;
  let loaded: { source: string; entry: string; timeoutMs: number } | null = null;
  let nextId = 1;
  let disposed = false;
  const waiting = new Map<number, (outcome: SandboxOutcome) => void>();

  const stop = (outcome: SandboxOutcome) => {
    const dead = worker;
    worker = null;
    void dead?.terminate();
    for (const settle of waiting.values()) settle(outcome);
    waiting.clear();
  };
  const start = () => {
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      execArgv: ['--experimental-vm-modules', '--no-warnings'],
      resourceLimits: { maxOldGenerationSizeMb: MEMORY_LIMIT_MB },
      stdout: true,
      stderr: true,
    });
    w.on('message', ({ id, outcome }: { id: number; outcome: SandboxOutcome }) => {
      const settle = waiting.get(id);
      waiting.delete(id);
      settle?.(outcome);
    });
    w.on('error', (error) => {
      if (worker === w) stop({ ok: false, kind: 'crash', message: `the sandbox stopped: ${error.message}` });
    });
    w.unref();
    worker = w;
    return w;
  };
  const send = (message: Record<string, unknown>, timeoutMs: number): Promise<SandboxOutcome> =>
    new Promise((resolve) => {
      const w = worker ?? start();
      const id = nextId++;
      const timer = setTimeout(() => {
        if (waiting.has(id)) stop({ ok: false, kind: 'timeout', message: timeoutMessage(timeoutMs) });
      }, timeoutMs + GRACE_MS);
      waiting.set(id, (outcome) => {
        clearTimeout(timer);
        if (!outcome.ok && outcome.kind === 'timeout') {
          // As in the browser, code that was stopped does not run on: the next call starts from a fresh load.
          if (worker === w) stop(outcome);
          return resolve({ ...outcome, message: timeoutMessage(timeoutMs) });
        }
        resolve(outcome);
      });
      w.postMessage({ ...message, id, timeoutMs });
    });

  return {
    load(source, entry, timeoutMs) {
      if (disposed) return Promise.resolve({ ok: false, kind: 'crash', message: 'the sandbox was closed' });
      if (entry !== 'default' && !/^[A-Za-z_$][\w$]*$/.test(entry)) throw new Error(`not a function name: ${entry}`);
      loaded = { source, entry, timeoutMs };
      return send({ type: 'load', source, entry }, timeoutMs);
    },
    async call(args, timeoutMs) {
      if (disposed) return { ok: false, kind: 'crash', message: 'the sandbox was closed' };
      if (!loaded) return { ok: false, kind: 'compile', message: 'no code was loaded' };
      // After a stop the worker is fresh and empty: load the code into it again before calling.
      if (!worker) {
        const reload = await send({ type: 'load', ...loaded }, loaded.timeoutMs);
        if (!reload.ok) return reload;
      }
      return send({ type: 'call', argsJson: JSON.stringify(args) }, timeoutMs);
    },
    dispose() {
      disposed = true;
      stop({ ok: false, kind: 'crash', message: 'the sandbox was closed' });
    },
  };
}
