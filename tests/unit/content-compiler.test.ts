import { describe, expect, it } from 'vitest';
import { compileSource } from '@/lib/content/compile';
import { countWords } from '@/lib/content/chapters';

const FILE = 'content/chapters/99-fixture.mdx';
const frontmatter = [
  '---',
  'title: A fixture chapter',
  'summary: A chapter used only by the compiler tests.',
  'objectives:',
  '  - Check that good chapters compile',
  '  - Check that bad chapters fail by name',
  'minutes: 10',
  '---',
  '',
].join('\n');
// The body's first line is line 9 of the file.
const chapter = (...bodyLines: string[]) => frontmatter + bodyLines.join('\n') + '\n';

describe('chapter compiler', () => {
  it('compiles math, tables, code, quizzes, and collects headings and links', async () => {
    const result = await compileSource(
      FILE,
      chapter(
        '## The MDX view',
        '',
        'Inline $\\pi_\\theta(a \\mid s)$ and a [link](/chapters/ppo/#the-clip).',
        '',
        '$$',
        'J(\\theta) = \\mathbb{E}[R]',
        '$$',
        '',
        '### A table',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
        '',
        '```python',
        'print("hi")',
        '```',
        '',
        '<Quiz id="ch99-q" question="Pick $x$" choices={["one", "two"]} answer={1} explanation="Two is right." />',
      ),
    );
    expect(result.headings).toEqual([
      { depth: 2, text: 'The MDX view', id: 'the-mdx-view' },
      { depth: 3, text: 'A table', id: 'a-table' },
    ]);
    expect(result.links).toEqual([{ url: '/chapters/ppo/#the-clip', line: 11 }]);
    expect(result.quizIds).toEqual(['ch99-q']);
    expect(result.code).toContain('katex');
    expect(result.code).toContain('hljs');
    expect(result.frontmatter.title).toBe('A fixture chapter');
  });

  it.each([
    ['a formula KaTeX cannot parse', chapter('Text.', '', 'Bad $\\frac{a}{$ math.'), /99-fixture\.mdx:11: KaTeX cannot parse/],
    ['display math KaTeX cannot parse', chapter('', '$$', '\\begin{nope} x', '$$'), /99-fixture\.mdx:10: KaTeX cannot parse/],
    ['an unknown component', chapter('Text.', '', '<Carousel />'), /99-fixture\.mdx:11: unknown component <Carousel>/],
    ['a quiz whose answer is not a choice', chapter('<Quiz id="ch99-q" question="Pick one" choices={["a", "b"]} answer={2} explanation="Because." />'), /99-fixture\.mdx:9: invalid <Quiz>: answer/],
    ['a quiz with a computed prop', chapter('<Quiz id="ch99-q" question="Pick one" choices={["a", "b"].reverse()} answer={0} explanation="Because." />'), /99-fixture\.mdx:9: .*must be a literal/],
    ['a quiz choice whose backslash became an escape', chapter('<Quiz id="ch99-q" question="Pick one" choices={["$\\theta$", "b"]} answer={0} explanation="Because." />'), /99-fixture\.mdx:9: attribute "choices" holds a control character/],
    ['a figure outside public/figures', chapter('<Figure src="https://example.com/x.png" alt="An image" />'), /99-fixture\.mdx:9: invalid <Figure>: src/],
    ['an MDX syntax error', chapter('Text.', '', 'A stray { brace'), /99-fixture\.mdx:11: MDX syntax error/],
    ['a missing frontmatter field', frontmatter.replace('minutes: 10\n', '') + 'Body\n', /99-fixture\.mdx: frontmatter minutes/],
    ['an invalid frontmatter value', frontmatter.replace('minutes: 10', 'minutes: ten') + 'Body\n', /99-fixture\.mdx:7: frontmatter minutes/],
    ['an unknown frontmatter key', frontmatter.replace('minutes: 10', 'minutes: 10\nauthor: me') + 'Body\n', /99-fixture\.mdx: frontmatter \(root\).*author/],
    ['no frontmatter at all', '## Hello\n', /99-fixture\.mdx:1: missing YAML frontmatter/],
    ['unreadable YAML', frontmatter.replace('minutes: 10', 'minutes: [10'), /99-fixture\.mdx:\d+: unreadable frontmatter/],
  ])('refuses %s, naming the file and line', async (_label, source, message) => {
    await expect(compileSource(FILE, source)).rejects.toThrow(message);
  });

  it('counts prose words, not code or math', () => {
    expect(countWords('One two $x + y$ three.\n\n```js\nconst a = 1;\n```\n\n$$\na+b\n$$\n<Callout>four</Callout>')).toBe(5);
  });
});
