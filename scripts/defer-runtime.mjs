// After `next build`: every page's framework scripts start on the reader's first interaction instead of at load
// (app/_components/boot/deferred-boot.ts says why and how). Each `<script src="/_next/static/chunks/…" async="">` the
// build wrote becomes an inert `<script type="text/arl-deferred" data-src="…">`, which the boot script in <head>
// turns back into a real one. Fails the build if a page lacks the boot script or has no framework script to defer:
// a Next.js upgrade that changes either must not silently leave pages eager (or dead).
import fs from 'node:fs';
import path from 'node:path';

const ROOT = process.argv[2] ?? 'out';
const SCRIPT = /<script src="(\/_next\/static\/chunks\/[^"]+\.js)" async=""><\/script>/g;
const BOOT_MARK = "script[type=\"text/arl-deferred\"]";

function pages(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '_next' ? [] : pages(full);
    return entry.name.endsWith('.html') ? [full] : [];
  });
}

let deferred = 0;
const problems = [];
for (const file of pages(ROOT)) {
  const html = fs.readFileSync(file, 'utf8');
  let count = 0;
  const out = html.replace(SCRIPT, (_, src) => {
    count += 1;
    return `<script type="text/arl-deferred" data-src="${src}"></script>`;
  });
  if (!html.includes(BOOT_MARK)) problems.push(`${file}: no deferred-boot script in <head>`);
  if (count === 0) problems.push(`${file}: no framework <script src> to defer`);
  fs.writeFileSync(file, out);
  deferred += count;
}
if (problems.length) {
  console.error(`defer-runtime: ${problems.length} page(s) not deferred:\n  ${problems.slice(0, 10).join('\n  ')}`);
  process.exit(1);
}
console.log(`Deferred ${deferred} framework scripts on ${pages(ROOT).length} pages until the first interaction.`);
