// After `next build`: a gzip and a brotli copy beside every text file of the static export (and the wasm), as a
// static host serves them (nginx gzip_static, a CDN's precompressed assets, scripts/serve.mjs through sirv).
// A chapter's HTML is ~160 KB raw and ~30 KB compressed: on a phone's network that difference is seconds.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const ROOT = process.argv[2] ?? 'out';
const COMPRESSIBLE = /\.(html|js|css|txt|json|svg|xml|wasm)$/; // not .map: only developer tools read those
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    return COMPRESSIBLE.test(entry.name) ? [full] : [];
  });
}

if (!fs.existsSync(path.join(ROOT, 'index.html'))) {
  console.error(`No built site in ${ROOT}: run "npm run build" first.`);
  process.exit(1);
}
const started = Date.now();
let raw = 0;
let compressed = 0;
// zlib's async calls run on libuv's thread pool, so a few files at a time use every core.
const queue = files(ROOT);
async function worker() {
  for (let file = queue.pop(); file; file = queue.pop()) {
    const body = fs.readFileSync(file);
    const [gz, br] = await Promise.all([
      gzip(body, { level: 9 }),
      brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    ]);
    fs.writeFileSync(`${file}.gz`, gz);
    fs.writeFileSync(`${file}.br`, br);
    raw += body.length;
    compressed += br.length;
  }
}
const count = queue.length;
await Promise.all(Array.from({ length: 4 }, worker));
console.log(`Compressed ${count} files in ${ROOT}/ (${(raw / 1e6).toFixed(1)} MB → ${(compressed / 1e6).toFixed(1)} MB brotli) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
