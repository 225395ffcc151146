/**
 * Makes the Python environment the export smoke test runs in (tests/export-smoke, scripts/export/smoke.md): a virtual
 * environment with exactly the versions an exported project pins (lib/export/versions.ts SMOKE_PINS, everything but
 * deepspeed) on CPU torch. .ci/run calls it on every submission; it stops with one clear message when the environment
 * cannot be made, never with a half-made one that the test would then blame on the export.
 *
 *   npx tsx scripts/export/smoke-env.ts [DIR]     (default .venv-export; prints DIR/bin/python)
 *
 * Where pip is configured with local package indexes (this project's machines: `pip config list`), they are passed
 * as --index-url/--extra-index-url, so pip does not spend minutes retrying a default index it cannot reach.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SMOKE_PINS, SMOKE_TORCH, TRL_RELEASE } from '@/lib/export/versions';
import { PILLOW } from '@/lib/export/vision';

const dir = path.resolve(process.argv[2] ?? '.venv-export');
const python = path.join(dir, 'bin', 'python');

function fail(message: string): never {
  console.error(`\nThe export smoke test's Python environment could not be made: ${message}`);
  process.exit(1);
}

function run(command: string, args: string[], what: string): string {
  const started = Date.now();
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) fail(`${what}: ${result.error.message}`);
  if (result.status !== 0) fail(`${what} exited ${result.status}:\n${`${result.stdout}\n${result.stderr}`.trim().slice(-3000)}`);
  console.log(`  ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.stdout;
}

/** The indexes pip is configured with, as flags that replace its default index; none where nothing is configured. */
function indexFlags(): string[] {
  const result = spawnSync('python3', ['-m', 'pip', 'config', 'get', 'global.extra-index-url'], { encoding: 'utf8' });
  const urls = result.status === 0 ? result.stdout.split(/\s+/).filter(Boolean) : [];
  if (urls.length === 0) return [];
  return ['--index-url', urls[0], ...urls.slice(1).flatMap((url) => ['--extra-index-url', url])];
}

// Pillow for the vision project's pictures (its requirements.txt pins it beside PINS).
const wanted = [SMOKE_TORCH, ...SMOKE_PINS.map((p) => `${p.name}==${p.version}`), `${PILLOW.name}==${PILLOW.version}`];
console.log(`Making ${dir} with ${wanted.join(' ')}`);
if (!fs.existsSync(python)) run('python3', ['-m', 'venv', dir], 'python3 -m venv');
const flags = indexFlags();
// torch first and alone: with no local index, its CPU build comes from PyTorch's own index, not PyPI's CUDA build.
run(python, ['-m', 'pip', 'install', '--quiet', ...(flags.length ? flags : ['--index-url', 'https://download.pytorch.org/whl/cpu']), SMOKE_TORCH], `pip install ${SMOKE_TORCH}`);
run(python, ['-m', 'pip', 'install', '--quiet', ...flags, ...wanted.slice(1)], 'pip install the pinned libraries');

// What is installed is what the pins say (pip may have kept an older version already in the environment otherwise).
const report = run(
  python,
  ['-c', `import json, importlib.metadata as m; print(json.dumps({n: m.version(n) for n in ${JSON.stringify(SMOKE_PINS.map((p) => p.name))}}))`],
  'read the installed versions',
);
const installed = JSON.parse(report.trim().split('\n').at(-1)!) as Record<string, string>;
const wrong = SMOKE_PINS.filter((p) => installed[p.name] !== p.version).map((p) => `${p.name} ${installed[p.name]} (pinned ${p.version})`);
if (wrong.length) fail(`installed versions differ from the pins: ${wrong.join(', ')}`);
if (installed.trl !== TRL_RELEASE) fail(`TRL ${installed.trl} installed, the course pins ${TRL_RELEASE}`);
console.log(python);
