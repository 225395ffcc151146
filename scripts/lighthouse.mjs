// Lighthouse (mobile preset) on the built site: the home page, the longest chapter (and the heaviest, if another)
// and every lab page.
// Usage: npm run build && npm run lighthouse [-- /path/ ...]
// Targets: performance >= 0.9, every other category 1.0. Prints a table, writes bench-results/lighthouse.json,
// (and each page's full report to bench-results/lighthouse/), exits 1 below a target. Uses Debian's Chromium (lighthouse 12.2.3 is the last release that runs on Node 20).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { findChromium } from './chromium.mjs';
import { serveOut } from './serve-out.mjs';

const TARGETS = { performance: 0.9, accessibility: 1, 'best-practices': 1, seo: 1 };
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1); // the median run of each page counts

if (!fs.existsSync('out/index.html')) {
  console.error('No build in out/: run "npm run build" first.');
  process.exit(1);
}
const chromePath = findChromium();
if (!chromePath) {
  console.error('Chromium not found: apt-get install -y chromium (or set CHROMIUM_PATH).');
  process.exit(1);
}

const largest = (sizes) => sizes.sort((a, b) => b[1] - a[1])[0][0];
/** The longest chapter (the most source text), and the heaviest chapter page (the most HTML), if that is another. */
function longestChapters() {
  const source = fs.readdirSync('content/chapters').filter((f) => f.endsWith('.mdx')).map((f) => [f.replace(/^\d+-|\.mdx$/g, ''), fs.statSync(path.join('content/chapters', f)).size]);
  const html = fs.readdirSync('out/chapters').map((slug) => [slug, fs.statSync(path.join('out/chapters', slug, 'index.html')).size]);
  return [...new Set([largest(source), largest(html)])].map((slug) => `/chapters/${slug}/`);
}
const labPaths = fs.readdirSync('out/labs', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `/labs/${d.name}/`);
const paths = process.argv.slice(2).length ? process.argv.slice(2) : ['/', ...longestChapters(), ...labPaths];

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });

const port = await freePort();
const server = await serveOut(port);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
let chrome;
try {
  chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  for (const pagePath of paths) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const { lhr } = await lighthouse(`http://127.0.0.1:${port}${pagePath}`, { port: chrome.port, output: 'json', logLevel: 'error' });
      runs.push(lhr);
    }
    const lhr = runs.find((r) => r.categories.performance.score === median(runs.map((x) => x.categories.performance.score)));
    fs.mkdirSync('bench-results/lighthouse', { recursive: true });
    fs.writeFileSync(`bench-results/lighthouse/${pagePath.replace(/^\/|\/$/g, '').replace(/\//g, '-') || 'home'}.json`, JSON.stringify(lhr));
    const scores = Object.fromEntries(Object.entries(lhr.categories).map(([id, c]) => [id, c.score]));
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
      .filter((a) => Object.values(lhr.categories).some((c) => c.id !== 'performance' && c.auditRefs.some((r) => r.id === a.id && r.weight > 0)))
      .map((a) => a.id);
    results.push({
      path: pagePath,
      scores,
      lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
      tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
      cls: +lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3),
      failing,
      runs: runs.map((r) => r.categories.performance.score),
      benchmarkIndex: lhr.environment.benchmarkIndex,
      warnings: lhr.runWarnings,
    });
  }
} finally {
  await chrome?.kill();
  server.stop();
}

const cats = Object.keys(TARGETS);
const fmt = (s) => (s === null || s === undefined ? '  –  ' : s.toFixed(2).padStart(5));
console.log(`${'page'.padEnd(32)} ${cats.map((c) => c.slice(0, 5).padStart(5)).join(' ')}   LCP ms  TBT ms   CLS`);
for (const r of results) {
  console.log(`${r.path.padEnd(32)} ${cats.map((c) => fmt(r.scores[c])).join(' ')}  ${String(r.lcpMs).padStart(7)} ${String(r.tbtMs).padStart(7)} ${r.cls.toFixed(3).padStart(5)}`);
  if (r.failing.length) console.log(`  failing: ${r.failing.join(', ')}`);
}
const below = results.filter((r) => cats.some((c) => (r.scores[c] ?? 0) < TARGETS[c]));
fs.mkdirSync('bench-results', { recursive: true });
fs.writeFileSync('bench-results/lighthouse.json', JSON.stringify({ targets: TARGETS, results }, null, 2));
console.log(`\nTargets: performance >= ${TARGETS.performance}, others 1.0: ${below.length ? `NOT met on ${below.map((r) => r.path).join(', ')}` : 'met'}.`);
console.log(`Benchmark index of this machine: ${results.map((r) => r.benchmarkIndex).join(', ')}. Written to bench-results/lighthouse.json`);
process.exit(below.length ? 1 : 0);
