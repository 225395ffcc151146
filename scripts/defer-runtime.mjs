// After `next build`: every page's framework scripts start on the reader's first interaction instead of at load
// (app/_components/boot/deferred-boot.ts says why and how). Each `<script src="/_next/static/chunks/…" async="">` the
// build wrote becomes an inert `<script type="text/arl-deferred" data-src="…">`, which the boot script in <head>
// turns back into a real one. Fails the build if a page lacks the boot script or has no framework script to defer:
// a Next.js upgrade that changes either must not silently leave pages eager (or dead).
// It also fails the build when a page's HTML holds a region that React hydrates after the page's root (a Suspense
// boundary with content: streamed in, like a lab, or inline) whose first element does not carry `data-boot-pending`:
// the boot script takes everything outside such a marked element for React's once the root has reported, so an
// unmarked late region would have the reader's presses and typing handed to a React that has not hydrated it yet.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = process.argv[2] ?? 'out';
const SCRIPT = /<script src="(\/_next\/static\/chunks\/[^"]+\.js)" async=""><\/script>/g;
const BOOT_MARK = "script[type=\"text/arl-deferred\"]";
// A Suspense boundary's content as React's server renderer writes it: streamed ones in a hidden div swapped in by an
// inline script (`<div hidden id="S:0">…`), complete ones between `<!--$-->` and `<!--/$-->`, and ones the server gave
// up on (`<!--$!-->`: rendered in the browser, after the root).
const LATE_REGION = /<div hidden id="(S:\d+)">|<!--\$-->|<!--\$!-->/g;
const PENDING_FIRST = /^\s*<[a-zA-Z][^>]*\sdata-boot-pending[\s=>]/;

/** The late regions of a page whose first element is not marked pending (an empty boundary needs nothing). */
function unmarkedLateRegions(html) {
  const found = [];
  for (const match of html.matchAll(LATE_REGION)) {
    const rest = html.slice(match.index + match[0].length, match.index + match[0].length + 2000);
    if (match[0] === '<!--$!-->') found.push('a Suspense boundary the server could not render');
    else if (match[1] ? rest.startsWith('</div>') : rest.startsWith('<!--/$-->')) continue;
    else if (!PENDING_FIRST.test(rest)) found.push(`${match[1] ?? 'an inline Suspense boundary'} starting ${JSON.stringify(rest.slice(0, 60))}`);
  }
  return found;
}

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
  for (const region of unmarkedLateRegions(html)) problems.push(`${file}: a region hydrated after the page is not marked data-boot-pending: ${region}`);
  fs.writeFileSync(file, out);
  deferred += count;
}
if (problems.length) {
  console.error(`defer-runtime: ${problems.length} page(s) not deferred:\n  ${problems.slice(0, 10).join('\n  ')}`);
  process.exit(1);
}
console.log(`Deferred ${deferred} framework scripts on ${pages(ROOT).length} pages until the first interaction.`);
