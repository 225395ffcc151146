// Not a test: the main thread's (and the worker's) work while a lab trains, summed by trace event (devtools.timeline). Usage: node scripts/probes/main-thread-trace.mjs grpo ['query']
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from './../chromium.mjs';
import { serveOut } from './../serve-out.mjs';
const [slug, query] = process.argv.slice(2);
const server = await serveOut(4213);
const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:4213/labs/${slug}/?${query ?? ''}`);
  await page.mouse.move(5, 5); await page.mouse.move(12, 9);
  await page.waitForFunction(() => document.querySelector('.lab[data-boot-pending]') === null);
  await browser.startTracing(page, { path: path.join(os.tmpdir(), 'main-thread-trace.json'), categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await page.locator('.lab-status[data-elapsed-ms]').waitFor({ timeout: 900_000 });
  console.log('elapsed', await page.locator('.lab-status[data-elapsed-ms]').getAttribute('data-elapsed-ms'));
  await browser.stopTracing();
} finally { await browser.close(); server.stop(); }
const { traceEvents } = JSON.parse(fs.readFileSync(path.join(os.tmpdir(), 'main-thread-trace.json'), 'utf8'));
const threads = new Map(traceEvents.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
const by = new Map();
let frames = 0;
for (const e of traceEvents) {
  const t = threads.get(`${e.pid}:${e.tid}`) ?? '?';
  if (e.ph !== 'X' || !e.dur) continue;
  const k = `${t} | ${e.name}`;
  const v = by.get(k) ?? [0, 0];
  by.set(k, [v[0] + e.dur / 1000, v[1] + 1]);
}
console.log([...by].sort((a, b) => b[1][0] - a[1][0]).slice(0, 30).map(([k, [ms, n]]) => `${ms.toFixed(0).padStart(7)} ms ${String(n).padStart(6)}× ${k}`).join('\n'));
