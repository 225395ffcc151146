// Not a test: the lab's training loop (bare-worker.ts) in a Chromium worker on a blank page of the built site, without the lab page
// beside it, to compare with Node (node-gap.ts) and the lab page (lab-gap.mjs) for issue 50. Usage: node scripts/probes/bare-worker.mjs grpo '{json}'
import { build } from 'esbuild';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../chromium.mjs';
const [trainer, json] = process.argv.slice(2);
const bundle = await build({ entryPoints: [path.resolve('scripts/probes/bare-worker.ts')], bundle: true, write: false, format: 'esm', platform: 'browser', alias: { '@': path.resolve('.') }, define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'silent', minify: true });
const code = bundle.outputFiles[0].text;
const child = spawn('node', ['scripts/serve.mjs', 'out'], { env: { ...process.env, PORT: '4213' }, stdio: 'pipe', detached: true });
await new Promise((resolve) => child.stdout.once('data', resolve));
const browser = await chromium.launch({ executablePath: findChromium(), args: [...chromiumArgs, ...(process.env.EXTRA_CHROMIUM_ARGS ? [process.env.EXTRA_CHROMIUM_ARGS] : [])] });
try {
  const page = await browser.newPage();
  await page.route('**/__bare-worker.js', (route) => route.fulfill({ contentType: 'text/javascript', body: code }));
  await page.goto('http://127.0.0.1:4213/404.html');
  const r = await page.evaluate(({ trainer, overrides }) => new Promise((res, rej) => {
    const w = new Worker('/__bare-worker.js', { type: 'module' });
    w.onmessage = (e) => res(e.data);
    w.onerror = (e) => rej(new Error(e.message));
    w.postMessage({ trainer, overrides });
  }), { trainer, overrides: JSON.parse(json ?? '{}') });
  console.log(JSON.stringify({ where: 'chromium bare worker', trainer, json, ...r }));
} finally { await browser.close(); process.kill(-child.pid); }
