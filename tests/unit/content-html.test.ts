import { getMDXComponent } from 'mdx-bundler/client';
import { createElement, Fragment, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { compileSource } from '@/lib/content/compile';
import { fixMathVariants, renderInlineMath, toMathAlphanumerics } from '@/lib/content/mathml';

const FILE = 'content/chapters/99-fixture.mdx';
const chapter = (...body: string[]) =>
  ['---', 'title: Fixture', 'summary: A chapter for the HTML tests.', 'objectives:', '  - Check the HTML', '  - Check the math', 'minutes: 5', '---', '', ...body].join('\n') + '\n';

/** The HTML strings the compiler froze into <StaticHtml html="…"> blocks, in order, by rendering the chapter. */
function staticBlocks(code: string): string[] {
  const blocks: string[] = [];
  const Body = getMDXComponent(code);
  const passThrough = ({ children }: { children?: ReactNode }) => createElement(Fragment, null, children);
  const components = {
    StaticHtml: ({ html }: { html: string }) => (blocks.push(html.trim()), null),
    Callout: passThrough,
    Quiz: () => null,
  };
  renderToStaticMarkup(createElement(Body, { components }));
  return blocks;
}

describe('Unicode mathematical alphanumerics', () => {
  it.each([
    ['E', 'double-struck', '𝔼'], // U+1D538 + 4
    ['R', 'double-struck', 'ℝ'], // a hole in the block: the letterlike symbol
    ['D', 'script', '𝒟'], // U+1D49C + 3
    ['L', 'script', 'ℒ'],
    ['x', 'bold', '𝐱'], // U+1D400 + 26 + 23
    ['h', 'italic', 'ℎ'],
    ['KL', 'fraktur', '𝔎𝔏'], // U+1D504 + 10, + 11
    ['2', 'double-struck', '𝟚'], // U+1D7D8 + 2
  ])('%s in %s is %s', (text, variant, expected) => {
    expect(toMathAlphanumerics(text, variant)).toBe(expected);
  });

  it('gives up on what has no mathematical form', () => {
    expect(toMathAlphanumerics('α', 'bold')).toBeNull(); // Greek is not mapped here
    expect(toMathAlphanumerics('2', 'script')).toBeNull(); // no script digits
    expect(toMathAlphanumerics('E', 'blackletter')).toBeNull(); // not a MathML variant
  });

  it('rewrites a rendered quiz formula the same way', () => {
    expect(fixMathVariants('<mi mathvariant="double-struck">E</mi><mi mathvariant="normal">d</mi>')).toBe('<mi>𝔼</mi><mi mathvariant="normal">d</mi>');
    // \mathrm{ref} as one word, as in the chapters (a screen reader says "ref", not "r e f")
    expect(renderInlineMath('$\\pi_{\\mathrm{ref}}$')).toContain('<msub><mi>π</mi><mi>ref</mi></msub>');
  });

  it('renders text with $…$ spans as escaped text and MathML only (quizzes, the notation page)', () => {
    const html = renderInlineMath('<b>mean</b> $\\mathbb{E}[r]$ & more');
    expect(html.startsWith('&lt;b&gt;mean&lt;/b&gt; ')).toBe(true);
    expect(html).toContain('<math');
    expect(html).toContain('𝔼');
    expect(html).not.toContain('katex-html');
    expect(html.endsWith(' &amp; more')).toBe(true);
  });
});

describe('chapter HTML', () => {
  it('renders formulas as MathML only, with Unicode letters, upright words and focusable display blocks', async () => {
    const { code } = await compileSource(FILE, chapter('Inline $\\mathbb{E}[x]$ and $\\mathrm{clip}(r)$.', '', '$$', '\\mathcal{L} = 1', '$$'));
    const html = staticBlocks(code).join('');
    expect(html).toContain('<math');
    expect(html).not.toContain('katex-html'); // no second, visual copy of each formula
    expect(html).toContain('<mi>𝔼</mi>');
    expect(html).toContain('<mi>clip</mi>');
    expect(html).not.toContain('mathvariant="double-struck"');
    expect(html).toMatch(/<span class="katex-display" tabindex="0"><span class="katex"><math[^>]*display="block"/);
    expect(html).toContain('<mi>ℒ</mi>');
  });

  it('makes tables and code blocks focusable: both scroll sideways when wide, and a keyboard must reach them', async () => {
    const { code } = await compileSource(FILE, chapter('```python', 'x = 1', '```', '', '| a | b |', '| - | - |', '| 1 | 2 |'));
    const html = staticBlocks(code).join('');
    expect(html).toMatch(/<pre tabindex="0"><code class="[^"]*python/);
    expect(html).toContain('<table tabindex="0">');
  });

  it('freezes runs of static content into HTML blocks and leaves components as components', async () => {
    const { code } = await compileSource(
      FILE,
      chapter(
        '## First',
        '',
        'Prose with $x$.',
        '',
        '<Callout title="Note">',
        '',
        'Inside the callout.',
        '',
        '</Callout>',
        '',
        '<Quiz id="ch99-q" question="Pick one of these" choices={["a", "b"]} answer={1} explanation="It is b, of course." />',
        '',
        'After the quiz.',
      ),
    );
    const blocks = staticBlocks(code);
    expect(blocks).toHaveLength(3); // before the callout, inside it, after the quiz
    expect(blocks[0]).toMatch(/^<h2 id="first">First<\/h2>\s*<p>Prose with <span class="katex">/);
    expect(blocks[1]).toBe('<p>Inside the callout.</p>');
    expect(blocks[2]).toBe('<p>After the quiz.</p>');
    expect(code).toContain('Callout');
    expect(code).toContain('"ch99-q"'); // the quiz stays a component with its props
    expect(blocks.join('')).not.toContain('Quiz');
  });

  it('refuses the block tag in a chapter: it is the compiler\'s, not the authors\'', async () => {
    await expect(compileSource(FILE, chapter('<StaticHtml html="<script>x</script>" />'))).rejects.toThrow(/unknown component <StaticHtml>/);
  });
});
