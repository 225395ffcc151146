// `npm test`: unit and content tests, then a fresh static build, then end-to-end tests in real Chromium.
// Chromium is installed from Debian when running as root; otherwise we stop and say how. Never skipped.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { findChromium } from './chromium.mjs';

fs.mkdirSync('.tmp', { recursive: true });
const VITEST_JSON = '.tmp/vitest-results.json';
const PLAYWRIGHT_JSON = '.tmp/playwright-results.json';
// The build's sitemap lists every page (the e2e tests walk it) only with an origin: the local server's, unless one is set.
const env = { SITE_URL: 'http://localhost:3000', ...process.env, NEXT_TELEMETRY_DISABLED: '1', PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON };

function run(command, args, label) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  console.log(`  ${label}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function ensureChromium() {
  if (findChromium()) return;
  if (process.getuid?.() !== 0) {
    console.error(
      '\nChromium is needed for the end-to-end tests and is not installed.\n' +
        'Install it with:  sudo apt-get update && sudo apt-get install -y chromium\n' +
        '(or set CHROMIUM_PATH to a Chromium binary), then run npm test again.',
    );
    process.exit(1);
  }
  run('apt-get', ['update', '-qq'], 'apt-get update');
  run('apt-get', ['install', '-y', '-qq', 'chromium'], 'install Debian chromium for the browser tests');
  if (!findChromium()) {
    console.error('apt-get reported success but no Chromium binary was found at /usr/lib/chromium/chromium.');
    process.exit(1);
  }
}

run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`], 'unit and content tests (vitest)');
ensureChromium();
run('npm', ['run', 'build'], 'static build (npm run build → out/)');
run('npx', ['playwright', 'test', '--reporter=list,json'], 'end-to-end tests (Playwright, Chromium)');

// One closing line for the whole suite, counted from both runners' JSON reports.
const unit = JSON.parse(fs.readFileSync(VITEST_JSON, 'utf8'));
const e2e = JSON.parse(fs.readFileSync(PLAYWRIGHT_JSON, 'utf8')).stats;
const passed = unit.numPassedTests + e2e.expected + e2e.flaky;
const failed = unit.numFailedTests + e2e.unexpected;
const skipped = unit.numPendingTests + unit.numTodoTests + e2e.skipped;
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
