// npm run bench:lab — time from pressing Train in the GRPO lab (default preset) to a held-out accuracy target,
// in headless Chromium, for each tfjs backend. Needs a build (npm run build). A benchmark, not a test.
// Usage: npm run bench:lab [-- --target 0.45 --backends auto,wasm,webgl,webgpu,cpu --limit 120] (auto: the lab's own choice, by measurement)
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from './chromium.mjs';
import { serveOut } from './serve-out.mjs';

const { values } = parseArgs({ options: { target: { type: 'string', default: '0.45' }, backends: { type: 'string', default: 'auto,wasm,webgl,webgpu,cpu' }, limit: { type: 'string', default: '120' } } });
const target = Number(values.target);
const limitS = Number(values.limit);
if (!fs.existsSync('out/index.html')) {
  console.error('No build in out/: run "npm run build" first.');
  process.exit(1);
}
const PORT = 4400 + Math.floor(Math.random() * 100);
const server = await serveOut(PORT);
const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
const results = [];
try {
  for (const backend of values.backends.split(',')) {
    const page = await browser.newPage();
    // Evaluate every 5 steps so the target is seen soon after it is reached.
    await page.goto(`http://127.0.0.1:${PORT}/labs/grpo/?backend=${backend}&eval_steps=5&max_steps=200`);
    const started = Date.now();
    await page.getByRole('button', { name: 'Train' }).click();
    let row = { backend, target, reached: false, seconds: null, steps: null, accuracy: null, used: null };
    while ((Date.now() - started) / 1000 < limitS) {
      await page.waitForTimeout(500);
      const text = (await page.locator('.lab-status').textContent()) ?? '';
      const accuracy = Number(/held-out accuracy ([\d.]+)%/.exec(text)?.[1] ?? NaN) / 100;
      const steps = Number(/step (\d+)/.exec(text)?.[1] ?? 0);
      row = { ...row, used: text.split(' · ')[0], steps, accuracy: Number.isFinite(accuracy) ? accuracy : null };
      if (accuracy >= target) {
        row = { ...row, reached: true, seconds: +((Date.now() - started) / 1000).toFixed(1) };
        break;
      }
      if (/stopped on an error|finished/.test(text)) break;
    }
    results.push(row);
    console.log(`${backend.padEnd(7)} (ran on ${row.used}): ${row.reached ? `${row.seconds} s, ${row.steps} steps to ${target * 100}% held-out accuracy` : `not reached in ${limitS} s (step ${row.steps}, accuracy ${row.accuracy})`}`);
    await page.close();
  }
} finally {
  await browser.close();
  server.stop();
}
fs.mkdirSync('bench-results', { recursive: true });
const report = { date: new Date().toISOString(), cpu: os.cpus()[0]?.model, cores: os.cpus().length, target, results };
fs.writeFileSync('bench-results/lab.json', JSON.stringify(report, null, 2));
console.log('Written to bench-results/lab.json');
