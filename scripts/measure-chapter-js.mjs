// Measure the JavaScript a chapter page pulls in a real browser, prefetches included, gzipped.
// Usage: npm run build && npm run measure:js [-- /chapters/<slug>/ ...]   (budget: 135 KB gzipped)
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from './chromium.mjs';
import { serveOut } from './serve-out.mjs';

const BUDGET_KB = 135;
const PORT = 4180 + Math.floor(Math.random() * 100);
if (!fs.existsSync('out/index.html')) {
  console.error('No build in out/: run "npm run build" first.');
  process.exit(1);
}
// By default every chapter page of the build, and the home page.
const chapterPaths = fs.readdirSync('out/chapters').map((slug) => `/chapters/${slug}/`);
const paths = process.argv.slice(2).length ? process.argv.slice(2) : [...chapterPaths, '/'];
const executablePath = findChromium();
if (!executablePath) {
  console.error('Chromium not found: apt-get install -y chromium (or set CHROMIUM_PATH).');
  process.exit(1);
}

const server = await serveOut(PORT);
const browser = await chromium.launch({ executablePath, args: chromiumArgs });
const results = [];
try {
  for (const path of paths) {
    const page = await browser.newPage();
    const scripts = new Map();
    page.on('response', async (response) => {
      const url = response.url();
      if (response.request().resourceType() !== 'script' && !url.split('?')[0].endsWith('.js')) return;
      const body = await response.body().catch(() => null);
      if (body) scripts.set(url, { raw: body.length, gzip: gzipSync(body).length });
    });
    await page.goto(`http://127.0.0.1:${PORT}${path}`, { waitUntil: 'networkidle' });
    // Scroll through the page so that every <Link> enters the viewport and gets prefetched.
    for (let y = 0; y < 30; y++) await page.mouse.wheel(0, 1000);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1500);
    const files = [...scripts].map(([url, size]) => ({ file: new URL(url).pathname, ...size })).sort((a, b) => b.gzip - a.gzip);
    const gzipKB = files.reduce((sum, f) => sum + f.gzip, 0) / 1024;
    const rawKB = files.reduce((sum, f) => sum + f.raw, 0) / 1024;
    results.push({ path, files, gzipKB: +gzipKB.toFixed(1), rawKB: +rawKB.toFixed(1) });
    await page.close();
  }
} finally {
  await browser.close();
  server.stop();
}

const verbose = process.env.VERBOSE === '1';
for (const r of results) {
  console.log(`${r.path.padEnd(34)} ${String(r.files.length).padStart(3)} scripts  ${r.gzipKB.toFixed(1).padStart(6)} KB gzipped (${r.rawKB} KB raw)`);
  if (verbose) for (const f of r.files) console.log(`  ${(f.gzip / 1024).toFixed(1).padStart(7)} KB  ${f.file}`);
}
fs.mkdirSync('bench-results', { recursive: true });
fs.writeFileSync('bench-results/chapter-js.json', JSON.stringify({ budgetKB: BUDGET_KB, results }, null, 2));
const over = results.filter((r) => r.path.startsWith('/chapters/') && r.gzipKB > BUDGET_KB);
console.log(`\nBudget ${BUDGET_KB} KB gzipped per chapter page: ${over.length ? `OVER on ${over.map((r) => r.path).join(', ')}` : 'met'}. Written to bench-results/chapter-js.json`);
process.exit(over.length ? 1 : 0);
