/**
 * Runs a reader's JavaScript in the browser, isolated from the site: a hidden iframe with sandbox="allow-scripts"
 * (an opaque origin, so no access to the page, its cookies, localStorage or IndexedDB) whose Content-Security-Policy
 * forbids every network request, running the code in a Web Worker it starts itself. The worker keeps infinite loops
 * off the page's thread; the iframe stops the worker when a call runs past its time limit, and starts a fresh one
 * for the next call. Nothing is evaluated in the page: the page only posts data through a MessageChannel.
 *
 *   page ──port──▶ iframe (opaque origin, CSP: no network) ──▶ worker: new Function(source) … fn(...args)
 *
 * Browser-only (DOM); tfjs-free. The same contract in Node is lib/sandbox/node.ts.
 */
import { timeoutMessage, type CodeSandbox, type SandboxOutcome } from './outcome';

/** Lines new Function() puts before the body ("function anonymous(", ") {") plus our "use strict" line. */
const BODY_OFFSET = 3;

// The worker: compiles the source once per load, then calls its entry function with each call's arguments.
const WORKER_SOURCE = `
'use strict';
let fn = null;
const lineOf = (stack) => { const m = /<anonymous>:(\\d+):\\d+/.exec(String(stack || '')); const n = m ? Number(m[1]) - ${BODY_OFFSET} : 0; return n >= 1 ? n : undefined; };
const describe = (e) => (e && typeof e === 'object' && 'message' in e) ? ((typeof e.name === 'string' ? e.name : 'Error') + ': ' + String(e.message)) : ('threw ' + (typeof e === 'string' ? JSON.stringify(e) : String(e)));
self.onmessage = (event) => {
  const m = event.data;
  let reply;
  if (m.type === 'load') {
    try {
      const found = new Function('"use strict";\\n' + m.source + '\\n;return typeof ' + m.entry + ' === "function" ? ' + m.entry + ' : undefined;')();
      if (typeof found !== 'function') reply = { ok: false, kind: 'compile', message: 'the code must define a function named ' + m.entry };
      else { fn = found; reply = { ok: true, value: null }; }
    } catch (e) {
      reply = { ok: false, kind: e instanceof SyntaxError ? 'compile' : 'throw', message: describe(e), line: lineOf(e && e.stack) };
    }
  } else {
    try {
      const value = fn(...m.args);
      if (value && typeof value.then === 'function') reply = { ok: false, kind: 'result', message: 'it returned a Promise: return the value itself (no async, no await)' };
      else reply = { ok: true, value };
    } catch (e) {
      reply = { ok: false, kind: 'throw', message: describe(e), line: lineOf(e && e.stack) };
    }
  }
  try { self.postMessage({ id: m.id, outcome: reply }); }
  catch (e) { self.postMessage({ id: m.id, outcome: { ok: false, kind: 'result', message: 'it returned a value that cannot be copied out (a function or a class instance?)' } }); }
};
`;

// The iframe: owns the worker, enforces the time limit, and reloads the source into a fresh worker after a stop.
const FRAME_SCRIPT = `
'use strict';
let port = null, worker = null, loaded = null;
const workerUrl = URL.createObjectURL(new Blob([${JSON.stringify(WORKER_SOURCE)}], { type: 'text/javascript' }));
const pending = new Map();
function startWorker() {
  worker = new Worker(workerUrl);
  worker.onmessage = (e) => { const p = pending.get(e.data.id); if (!p) return; pending.delete(e.data.id); clearTimeout(p.timer); port.postMessage({ id: e.data.id, outcome: e.data.outcome }); };
  worker.onerror = (e) => { e.preventDefault(); fail('crash', 'the sandbox worker failed: ' + (e.message || 'unknown error')); };
}
function fail(kind, message) {
  if (worker) worker.terminate();
  worker = null;
  for (const [id, p] of pending) { clearTimeout(p.timer); port.postMessage({ id, outcome: { ok: false, kind, message: message || '' } }); }
  pending.clear();
}
function send(message, timeoutMs) {
  if (!worker) startWorker();
  const timer = setTimeout(() => fail('timeout'), timeoutMs);
  pending.set(message.id, { timer });
  worker.postMessage(message);
}
window.addEventListener('message', (event) => {
  if (event.source !== parent || port || !(event.ports && event.ports[0])) return;
  port = event.ports[0];
  port.onmessage = (e) => {
    const m = e.data;
    if (m.type === 'load') { loaded = m; if (worker) { worker.terminate(); worker = null; } send(m, m.timeoutMs); }
    else if (m.type === 'call') {
      if (!loaded) { port.postMessage({ id: m.id, outcome: { ok: false, kind: 'compile', message: 'no code was loaded' } }); return; }
      if (!worker) send({ ...loaded, id: -m.id }, m.timeoutMs);
      send(m, m.timeoutMs);
    }
  };
  port.postMessage({ ready: true });
});
`;

const SRCDOC = `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob:"><script>${FRAME_SCRIPT.replace(/<\//g, '<\\/')}</script>`;

/** Extra time the page waits beyond a call's limit before it calls the sandbox itself broken. */
const GRACE_MS = 3000;

/** Starts a sandbox: a hidden iframe in `document.body`, ready when the promise resolves. */
export function createBrowserSandbox(): Promise<CodeSandbox> {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.title = 'Code sandbox';
  frame.style.display = 'none';
  frame.srcdoc = SRCDOC;
  const channel = new MessageChannel();
  const waiting = new Map<number, { resolve: (o: SandboxOutcome) => void; timer: ReturnType<typeof setTimeout>; timeoutMs: number }>();
  let nextId = 1;
  let disposed = false;

  const request = (message: Record<string, unknown>, timeoutMs: number): Promise<SandboxOutcome> =>
    new Promise((resolve) => {
      if (disposed) return resolve({ ok: false, kind: 'crash', message: 'the sandbox was closed' });
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve({ ok: false, kind: 'crash', message: 'the sandbox did not answer' });
      }, timeoutMs + GRACE_MS);
      waiting.set(id, { resolve, timer, timeoutMs });
      channel.port1.postMessage({ ...message, id, timeoutMs });
    });

  return new Promise((resolve, reject) => {
    const failed = setTimeout(() => reject(new Error('the code sandbox did not start')), 10_000);
    channel.port1.onmessage = (event: MessageEvent<{ ready?: true; id?: number; outcome?: SandboxOutcome }>) => {
      const data = event.data;
      if (data.ready) {
        clearTimeout(failed);
        resolve({
          load: (source, entry, timeoutMs) => {
            if (!/^[A-Za-z_$][\w$]*$/.test(entry)) throw new Error(`not a function name: ${entry}`);
            return request({ type: 'load', source, entry }, timeoutMs);
          },
          call: (args, timeoutMs) => request({ type: 'call', args }, timeoutMs),
          dispose() {
            disposed = true;
            for (const { resolve: settle, timer } of waiting.values()) {
              clearTimeout(timer);
              settle({ ok: false, kind: 'crash', message: 'the sandbox was closed' });
            }
            waiting.clear();
            channel.port1.close();
            frame.remove();
          },
        });
        return;
      }
      // A reload after a stop answers with a negative id: nobody waits for it.
      const entry = data.id !== undefined ? waiting.get(data.id) : undefined;
      if (!entry || !data.outcome) return;
      waiting.delete(data.id!);
      clearTimeout(entry.timer);
      const outcome = data.outcome;
      // The frame reports a stop without words; the page says it the same way every sandbox does.
      entry.resolve(!outcome.ok && outcome.kind === 'timeout' ? { ...outcome, message: timeoutMessage(entry.timeoutMs) } : outcome);
    };
    frame.addEventListener('load', () => frame.contentWindow?.postMessage('connect', '*', [channel.port2]), { once: true });
    document.body.appendChild(frame);
  });
}
