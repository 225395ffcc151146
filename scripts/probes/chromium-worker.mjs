// Not a test (issue 50): runs a probe's worker script (bundled from TypeScript) in a Chromium worker on a blank page of
// the built site (out/, for tfjs-wasm's binaries), sends it one message and returns its one reply. EXTRA_CHROMIUM_ARGS
// adds a flag to Chromium's command line (e.g. --js-flags=…).
import { build } from 'esbuild';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../chromium.mjs';

export async function runInChromiumWorker(entry, message) {
  const bundle = await build({ entryPoints: [path.resolve(entry)], bundle: true, write: false, format: 'esm', platform: 'browser', alias: { '@': path.resolve('.') }, define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'silent', minify: true });
  const code = bundle.outputFiles[0].text;
  const child = spawn('node', ['scripts/serve.mjs', 'out'], { env: { ...process.env, PORT: '4213' }, stdio: 'pipe', detached: true });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  const browser = await chromium.launch({ executablePath: findChromium(), args: [...chromiumArgs, ...(process.env.EXTRA_CHROMIUM_ARGS ? [process.env.EXTRA_CHROMIUM_ARGS] : [])] });
  try {
    const page = await browser.newPage();
    await page.route('**/__probe-worker.js', (route) => route.fulfill({ contentType: 'text/javascript', body: code }));
    await page.goto('http://127.0.0.1:4213/404.html');
    return await page.evaluate((data) => new Promise((resolve, reject) => {
      const worker = new Worker('/__probe-worker.js', { type: 'module' });
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(e.message));
      worker.postMessage(data);
    }), message);
  } finally {
    await browser.close();
    process.kill(-child.pid);
  }
}
