// Not a test (issue 50): kernel-profile.ts's profile in a Chromium worker. Usage: npx tsx scripts/probes/profile-worker.mjs grpo [steps] ['{json}']
import { build } from 'esbuild';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../chromium.mjs';
import { printProfile } from './profile-steps.ts';
const [trainer, stepsArg, json] = process.argv.slice(2);
const bundle = await build({ entryPoints: [path.resolve('scripts/probes/profile-worker.ts')], bundle: true, write: false, format: 'esm', platform: 'browser', alias: { '@': path.resolve('.') }, define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'silent', minify: true });
const code = bundle.outputFiles[0].text;
const child = spawn('node', ['scripts/serve.mjs', 'out'], { env: { ...process.env, PORT: '4213' }, stdio: 'pipe', detached: true });
await new Promise((resolve) => child.stdout.once('data', resolve));
const browser = await chromium.launch({ executablePath: findChromium(), args: [...chromiumArgs, ...(process.env.EXTRA_CHROMIUM_ARGS ? [process.env.EXTRA_CHROMIUM_ARGS] : [])] });
try {
  const page = await browser.newPage();
  await page.route('**/__profile-worker.js', (route) => route.fulfill({ contentType: 'text/javascript', body: code }));
  await page.goto('http://127.0.0.1:4213/404.html');
  const r = await page.evaluate(({ trainer, overrides, steps, shapes }) => new Promise((res, rej) => {
    const w = new Worker('/__profile-worker.js', { type: 'module' });
    w.onmessage = (e) => res(e.data);
    w.onerror = (e) => rej(new Error(e.message));
    w.postMessage({ trainer, overrides, steps, shapes });
  }), { trainer, overrides: JSON.parse(json ?? '{}'), steps: +(stepsArg ?? 5), shapes: (process.env.SHAPES ?? '').split(',') });
  console.log(printProfile(`${trainer}/wasm in a Chromium worker`, r));
} finally { await browser.close(); process.kill(-child.pid); }
