/**
 * scripts/defer-runtime.mjs, run after `next build`: every framework <script src> of a page becomes inert until the
 * boot script starts it, nothing else on the page changes, and a page it cannot defer fails the build.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootScript } from '@/app/_components/boot/deferred-boot';

const BOOT = `<script>${bootScript}</script>`;
const page = (body: string) => `<!DOCTYPE html><html><head>${BOOT}<link rel="preload" as="script" href="/_next/static/chunks/a.js"/></head><body>${body}</body></html>`;

function run(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-defer-'));
  for (const [name, html] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), html);
  }
  const result = spawnSync(process.execPath, ['scripts/defer-runtime.mjs', dir], { encoding: 'utf8' });
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, read };
}

describe('defer-runtime', () => {
  it('turns each framework script into an inert tag naming its source, and leaves everything else', () => {
    const body =
      '<p>text</p><script src="/_next/static/chunks/a.js" async=""></script><script src="/_next/static/chunks/b-1.js" async=""></script>' +
      '<script>self.__next_f.push([1,"x"])</script><script src="/other.js" async=""></script>';
    const { status, stdout, read } = run({ 'index.html': page(body), 'labs/grpo/index.html': page(body), '_next/static/x.html': 'untouched' });
    expect(status).toBe(0);
    expect(stdout).toContain('Deferred 4 framework scripts on 2 pages');
    const html = read('labs/grpo/index.html');
    expect(html).toContain('<script type="text/arl-deferred" data-src="/_next/static/chunks/a.js"></script><script type="text/arl-deferred" data-src="/_next/static/chunks/b-1.js"></script>');
    expect(html).not.toMatch(/<script src="\/_next\/static\/chunks/);
    // Inline data, other scripts, preloads and the boot script itself are kept as they were.
    expect(html).toContain('<script>self.__next_f.push([1,"x"])</script><script src="/other.js" async=""></script>');
    expect(html).toContain('<link rel="preload" as="script" href="/_next/static/chunks/a.js"/>');
    expect(html).toContain(BOOT);
    expect(read('_next/static/x.html')).toBe('untouched');
  });

  it('fails, naming the page, when a page lacks the boot script or has no framework script (a Next.js upgrade changed them)', () => {
    const withoutBoot = '<html><head></head><body><script src="/_next/static/chunks/a.js" async=""></script></body></html>';
    const withoutScripts = page('<p>static</p>');
    const { status, stderr } = run({ 'a/index.html': withoutBoot, 'b/index.html': withoutScripts });
    expect(status).toBe(1);
    expect(stderr).toMatch(/a\/index\.html: no deferred-boot script in <head>/);
    expect(stderr).toMatch(/b\/index\.html: no framework <script src> to defer/);
  });

  it('fails when a region that hydrates after the page (a Suspense boundary with content) is not marked data-boot-pending', () => {
    const script = '<script src="/_next/static/chunks/a.js" async=""></script>';
    const marked = page(`<main><!--$?--><template id="B:0"></template><p>Loading</p><!--/$--></main><!--$--><!--/$-->${script}<div hidden id="S:0"><div class="lab" data-boot-pending=""><button>Train</button></div></div>`);
    const streamed = page(`<main><!--$?--><template id="B:0"></template><!--/$--></main>${script}<div hidden id="S:0"><div class="lab"><button>Train</button></div></div>`);
    const inline = page(`<main><!--$--><form><input/></form><!--/$--></main>${script}`);
    const gaveUp = page(`<main><!--$!--><template></template><p>Loading</p><!--/$--></main>${script}`);
    const { status, stderr } = run({ 'ok/index.html': marked, 'streamed/index.html': streamed, 'inline/index.html': inline, 'gave-up/index.html': gaveUp });
    expect(status).toBe(1);
    expect(stderr).not.toMatch(/ok\/index\.html/);
    expect(stderr).toMatch(/streamed\/index\.html: a region hydrated after the page is not marked data-boot-pending: S:0 starting "<div class=\\"lab\\">/);
    expect(stderr).toMatch(/inline\/index\.html: a region hydrated after the page is not marked data-boot-pending: an inline Suspense boundary/);
    expect(stderr).toMatch(/gave-up\/index\.html: a region hydrated after the page is not marked data-boot-pending: a Suspense boundary the server could not render/);
  });
});
