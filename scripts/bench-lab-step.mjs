// npm run bench:lab-step — the GRPO lab's step in headless Chromium (wasm, default preset, no evaluation) against a
// fixed tfjs-wasm anchor step timed in the same page before and after it (scripts/bench/anchor-step.ts), so that the
// ratio reads the same on a fast and a slow machine. Target: the lab's median ms/step within 4× the anchor's. Also prints the lab step's phases
// (the trainer's own timing/*_ms, from the exported run), to say where a slow step spends its time.
// Needs a build (npm run build). A benchmark, not a test. Usage: npm run bench:lab-step [-- --steps 40 --runs 3]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from './chromium.mjs';
import { serveOut } from './serve-out.mjs';

const { values } = parseArgs({ options: { steps: { type: 'string', default: '40' }, runs: { type: 'string', default: '3' } } });
const steps = Number(values.steps);
const runs = Number(values.runs);
if (!(Number.isInteger(steps) && steps >= 10 && Number.isInteger(runs) && runs >= 1)) {
  console.error('--steps takes a whole number from 10, --runs one from 1.');
  process.exit(2);
}
if (!fs.existsSync('out/index.html')) {
  console.error('No build in out/: run "npm run build" first.');
  process.exit(1);
}
const TARGET_RATIO = 4;
const WARMUP_STEPS = 5;
const load = os.loadavg()[0];
if (load > os.cpus().length / 2) console.error(`Warning: the load average is ${load.toFixed(1)} on ${os.cpus().length} cores.`);

const bundle = await build({
  entryPoints: [path.resolve('scripts/bench/anchor-step.ts')],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  alias: { '@': path.resolve('.') },
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'silent',
});
const anchorCode = bundle.outputFiles[0].text;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const PORT = 4700 + Math.floor(Math.random() * 100);
const server = await serveOut(PORT);
const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
const rows = [];
try {
  for (let run = 1; run <= runs; run++) {
    const page = await browser.newPage({ acceptDownloads: true });
    await page.route('**/__anchor-step.js', (route) => route.fulfill({ contentType: 'text/javascript', body: anchorCode }));
    await page.goto(`http://127.0.0.1:${PORT}/labs/grpo/?backend=wasm&max_steps=${steps + WARMUP_STEPS}&eval_steps=0`);
    // The anchor runs on the same page before and after the lab (never alongside it, so that the two do not share the
    // CPU), and the ratio uses the mean of the two: a machine that speeds up or slows down during the run moves both.
    await page.addScriptTag({ url: '/__anchor-step.js', type: 'module' });
    await page.waitForFunction(() => 'anchorStep' in globalThis);
    const anchorBefore = await page.evaluate(() => globalThis.anchorStep());
    await page.getByRole('button', { name: 'Train' }).click();
    await page.waitForFunction(() => /finished/.test(document.querySelector('.lab-status')?.textContent ?? ''), null, { timeout: 600_000, polling: 500 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export run (JSON)' }).click()]);
    const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    const lines = exported.history.filter((l) => l.kind === 'train' && l.step > WARMUP_STEPS);
    const phases = Object.keys(lines[0].metrics).filter((k) => k.startsWith('timing/'));
    const lab = Object.fromEntries(phases.map((k) => [k.replace(/^timing\/|_ms$/g, ''), +median(lines.map((l) => l.metrics[k])).toFixed(1)]));
    const anchorAfter = await page.evaluate(() => globalThis.anchorStep());
    const anchorMs = (anchorBefore.msPerStep + anchorAfter.msPerStep) / 2;
    const ratio = lab.step / anchorMs;
    rows.push({ run, labMsPerStep: lab.step, anchorMsPerStep: +anchorMs.toFixed(1), anchorBeforeAfter: [+anchorBefore.msPerStep.toFixed(1), +anchorAfter.msPerStep.toFixed(1)], ratio: +ratio.toFixed(2), phases: lab });
    console.log(`run ${run}: lab ${lab.step} ms/step, anchor ${anchorMs.toFixed(1)} ms/step on ${anchorAfter.backend} (${anchorBefore.msPerStep.toFixed(1)} before, ${anchorAfter.msPerStep.toFixed(1)} after): ${ratio.toFixed(2)}×; lab phases (median ms): ${JSON.stringify(lab)}`);
    await page.close();
  }
} finally {
  await browser.close();
  server.stop();
}
const worst = Math.max(...rows.map((r) => r.ratio));
fs.mkdirSync('bench-results', { recursive: true });
fs.writeFileSync('bench-results/lab-step.json', JSON.stringify({ date: new Date().toISOString(), cpu: os.cpus()[0]?.model, cores: os.cpus().length, loadAverage: +load.toFixed(2), targetRatio: TARGET_RATIO, rows }, null, 2));
console.log(worst <= TARGET_RATIO ? `Target met: the lab's step is within ${TARGET_RATIO}× the anchor in every run (worst ${worst.toFixed(2)}×).` : `Target not met: ${worst.toFixed(2)}× the anchor (target ${TARGET_RATIO}×).`);
console.log('Written to bench-results/lab-step.json');
process.exit(worst <= TARGET_RATIO ? 0 : 1);
