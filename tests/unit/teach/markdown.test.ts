import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '@/ui/Markdown';
import { parseInline, parseMarkdown } from '@/lib/teach/markdown';

const html = (source: string) => renderToStaticMarkup(createElement(Markdown, { source }));

describe('parseMarkdown', () => {
  it('reads paragraphs, headings, both kinds of list and fenced code', () => {
    const blocks = parseMarkdown('# Task\nTrain the model\nuntil it learns.\n\n- one\n- two\n\n1. first\n2) second\n\n```\nnpm run train\n```');
    expect(blocks.map((b) => b.type)).toEqual(['h', 'p', 'ul', 'ol', 'pre']);
    expect(blocks[1]).toEqual({ type: 'p', children: [{ type: 'text', text: 'Train the model until it learns.' }] });
    expect(blocks[2]).toEqual({ type: 'ul', items: [[{ type: 'text', text: 'one' }], [{ type: 'text', text: 'two' }]] });
    expect(blocks[4]).toEqual({ type: 'pre', text: 'npm run train' });
  });

  it('reads code, strong, emphasis and http(s) links inline', () => {
    expect(parseInline('Set `beta` to **0.04**, *then* see [the chapter](https://example.org/grpo).')).toEqual([
      { type: 'text', text: 'Set ' },
      { type: 'code', text: 'beta' },
      { type: 'text', text: ' to ' },
      { type: 'strong', children: [{ type: 'text', text: '0.04' }] },
      { type: 'text', text: ', ' },
      { type: 'em', children: [{ type: 'text', text: 'then' }] },
      { type: 'text', text: ' see ' },
      { type: 'link', href: 'https://example.org/grpo', text: 'the chapter' },
      { type: 'text', text: '.' },
    ]);
  });

  it('leaves field names with underscores alone', () => {
    expect(parseInline('raise learning_rate and num_generations')).toEqual([{ type: 'text', text: 'raise learning_rate and num_generations' }]);
  });

  it('keeps links to anything but http(s) as the text they are', () => {
    for (const href of ['javascript:alert(1)', 'data:text/html,x', '//evil.example', 'vbscript:x']) {
      expect(parseInline(`[click](${href})`), href).toEqual([{ type: 'text', text: `[click](${href})` }]);
    }
  });
});

describe('<Markdown>', () => {
  it('shows raw HTML and script as visible text, never as markup', () => {
    const out = html('<script>alert(1)</script>\n\n<img src=x onerror=alert(2)> **<b>bold</b>**');
    expect(out).not.toMatch(/<script|<img|<b>/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('<strong>&lt;b&gt;bold&lt;/b&gt;</strong>');
  });

  it('renders safe links that open apart from the lab, and drops unsafe ones', () => {
    expect(html('[docs](https://example.org/a?b=1&c=2)')).toBe('<div><p><a href="https://example.org/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow">docs</a></p></div>');
    expect(html('[x](javascript:alert(1))')).not.toContain('href');
  });

  it('renders nothing for empty instructions', () => {
    expect(html('')).toBe('');
  });
});
