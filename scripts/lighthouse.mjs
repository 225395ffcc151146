// Lighthouse with its default mobile settings, as `npx lighthouse <url>` runs it: the mobile form factor, simulated
// throttling (4× CPU slowdown, a slow 4G network), each run in a Chrome of its own. Pages: the home page, the longest
// chapter (and the heaviest, if another), every lab, the labs index and the learning path.
// Usage: npm run build && npm run lighthouse [-- /path/ ...]   (LIGHTHOUSE_RUNS=3 by default: the median run counts)
// Targets: performance >= 0.9 and total blocking time < 200 ms on every page, every other category 1.0. Prints per page
// the scores, LCP, TBT, CLS and the largest main-thread tasks (as Lighthouse simulates them, with the script they are
// attributed to); writes bench-results/lighthouse.json and each median run's report to bench-results/lighthouse/;
// exits 1 below a target. A busy machine measures worse: the script says so when the load is high. Uses Debian's
// Chromium (lighthouse 12.2.3 is the last release that runs on Node 20).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { findChromium } from './chromium.mjs';
import { serveOut } from './serve-out.mjs';

const TARGETS = { performance: 0.9, accessibility: 1, 'best-practices': 1, seo: 1 };
const TBT_TARGET_MS = 200;
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
// Lighthouse's own default config: no overrides, so that this measures what the CLI measures.
const CONFIG = { extends: 'lighthouse:default' };

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
const paths = process.argv.slice(2).length ? process.argv.slice(2) : ['/', ...longestChapters(), ...labPaths, '/labs/', '/path/'];

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });

const load = os.loadavg()[0];
if (load > os.cpus().length / 2) console.error(`Warning: the load average is ${load.toFixed(1)} on ${os.cpus().length} cores. Lighthouse multiplies the main-thread time it observes, so a busy machine reports more blocking time than an idle one.`);

const port = await freePort();
const server = await serveOut(port);

/** One run in a fresh Chrome, as the CLI does it: nothing cached or compiled from an earlier page. */
async function measure(url) {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox'] });
  try {
    const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' }, CONFIG);
    return lhr;
  } finally {
    await chrome.kill();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
let settings = null;
try {
  for (const pagePath of paths) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measure(`http://127.0.0.1:${port}${pagePath}`));
    settings ??= runs[0].configSettings;
    // The run with the median blocking time counts (the score follows it closely; TBT is what the target is about).
    const tbtOf = (r) => r.audits['total-blocking-time'].numericValue;
    const lhr = runs.find((r) => tbtOf(r) === median(runs.map(tbtOf)));
    fs.mkdirSync('bench-results/lighthouse', { recursive: true });
    fs.writeFileSync(`bench-results/lighthouse/${pagePath.replace(/^\/|\/$/g, '').replace(/\//g, '-') || 'home'}.json`, JSON.stringify(lhr));
    const scores = Object.fromEntries(Object.entries(lhr.categories).map(([id, c]) => [id, c.score]));
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
      .filter((a) => Object.values(lhr.categories).some((c) => c.id !== 'performance' && c.auditRefs.some((r) => r.id === a.id && r.weight > 0)))
      .map((a) => a.id);
    const origin = `http://127.0.0.1:${port}`;
    const tasks = (lhr.audits['long-tasks'].details?.items ?? [])
      .sort((a, b) => b.duration - a.duration)
      .slice(0, 3)
      .map((t) => ({ ms: Math.round(t.duration), at: Math.round(t.startTime ?? 0), script: t.url.replace(origin, '') || t.url }));
    results.push({
      path: pagePath,
      scores,
      lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
      tbtMs: Math.round(tbtOf(lhr)),
      cls: +lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3),
      largestTasks: tasks,
      failing,
      runs: runs.map((r) => ({ performance: r.categories.performance.score, tbtMs: Math.round(tbtOf(r)), lcpMs: Math.round(r.audits['largest-contentful-paint'].numericValue) })),
      benchmarkIndex: lhr.environment.benchmarkIndex,
      warnings: lhr.runWarnings,
    });
  }
} finally {
  server.stop();
}

const cats = Object.keys(TARGETS);
const fmt = (s) => (s === null || s === undefined ? '  –  ' : s.toFixed(2).padStart(5));
const t = settings.throttling;
console.log(
  `Lighthouse defaults: ${settings.formFactor}, ${settings.throttlingMethod} throttling (CPU ×${t.cpuSlowdownMultiplier}, RTT ${t.rttMs} ms, ${(t.throughputKbps / 1024).toFixed(1)} Mbps), ${RUNS} run(s) per page, median TBT run shown.\n`,
);
console.log(`${'page'.padEnd(26)} ${cats.map((c) => c.slice(0, 5).padStart(5)).join(' ')}   LCP ms  TBT ms   CLS  largest main-thread tasks (simulated ms @ start ms, script)`);
for (const r of results) {
  const tasks = r.largestTasks.map((x) => `${x.ms}@${x.at} ${x.script}`).join('; ') || 'none over 50 ms';
  console.log(`${r.path.padEnd(26)} ${cats.map((c) => fmt(r.scores[c])).join(' ')}  ${String(r.lcpMs).padStart(7)} ${String(r.tbtMs).padStart(7)} ${r.cls.toFixed(3).padStart(5)}  ${tasks}`);
  if (r.failing.length) console.log(`  failing: ${r.failing.join(', ')}`);
}
const below = results.filter((r) => r.tbtMs >= TBT_TARGET_MS || cats.some((c) => (r.scores[c] ?? 0) < TARGETS[c]));
fs.mkdirSync('bench-results', { recursive: true });
fs.writeFileSync('bench-results/lighthouse.json', JSON.stringify({ targets: { ...TARGETS, tbtMs: TBT_TARGET_MS }, settings: { formFactor: settings.formFactor, throttlingMethod: settings.throttlingMethod, throttling: t }, loadAverage: load, results }, null, 2));
console.log(`\nTargets: performance >= ${TARGETS.performance} and TBT < ${TBT_TARGET_MS} ms on every page, other categories 1.0: ${below.length ? `NOT met on ${below.map((r) => r.path).join(', ')}` : 'met'}.`);
console.log(`Benchmark index of this machine (Lighthouse's CPU score; higher is faster): ${results.map((r) => r.benchmarkIndex).join(', ')}. Written to bench-results/lighthouse.json`);
process.exit(below.length ? 1 : 0);
