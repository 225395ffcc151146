/**
 * A small, safe Markdown subset for assignment instructions: paragraphs, headings, bullet and numbered lists, fenced
 * code, `code`, **strong**, *emphasis* and [links](https://…) to http(s) addresses only. It parses into plain data
 * that a renderer turns into elements: nothing is ever treated as HTML, so "<script>" stays visible text. Anything
 * else (images, tables, raw HTML, javascript: links) is shown as the text it is. No `_emphasis_`: instructions name
 * fields such as learning_rate.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong' | 'em'; children: Inline[] }
  | { type: 'link'; href: string; text: string };

export type Block =
  | { type: 'p'; children: Inline[] }
  | { type: 'h'; children: Inline[] }
  | { type: 'ul' | 'ol'; items: Inline[][] }
  | { type: 'pre'; text: string };

const INLINE = /`([^`\n]+)`|\*\*(.+?)\*\*|\*([^*\s](?:[^*]*[^*\s])?)\*|\[([^\]\n]+)\]\(([^)\s]+)\)/g;
const SAFE_HREF = /^https?:\/\/[^\s<>"']+$/i;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  const push = (t: string) => {
    if (!t) return;
    const prev = out.at(-1);
    if (prev?.type === 'text') prev.text += t;
    else out.push({ type: 'text', text: t });
  };
  for (const m of text.matchAll(INLINE)) {
    push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] !== undefined) out.push({ type: 'code', text: m[1] });
    else if (m[2] !== undefined) out.push({ type: 'strong', children: parseInline(m[2]) });
    else if (m[3] !== undefined) out.push({ type: 'em', children: parseInline(m[3]) });
    else if (SAFE_HREF.test(m[5])) out.push({ type: 'link', href: m[5], text: m[4] });
    else push(m[0]); // not an http(s) address: the text as written
  }
  push(text.slice(last));
  return out;
}

const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;

export function parseMarkdown(source: string, maxLength = 20_000): Block[] {
  const lines = source.slice(0, maxLength).replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ type: 'p', children: parseInline(paragraph.join(' ')) });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
      blocks.push({ type: 'pre', text: code.join('\n') });
      continue;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    const list = BULLET.test(line) ? 'ul' : NUMBERED.test(line) ? 'ol' : null;
    if (heading) {
      flush();
      blocks.push({ type: 'h', children: parseInline(heading[1]) });
    } else if (list) {
      flush();
      const pattern = list === 'ul' ? BULLET : NUMBERED;
      const items: Inline[][] = [];
      for (; i < lines.length && pattern.test(lines[i]); i++) items.push(parseInline(pattern.exec(lines[i])![1]));
      i--;
      blocks.push({ type: list, items });
    } else if (line.trim() === '') flush();
    else paragraph.push(line.trim());
  }
  flush();
  return blocks;
}
