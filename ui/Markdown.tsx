import { Fragment, type ReactNode } from 'react';
import { parseMarkdown, type Inline } from '@/lib/teach/markdown';

function inline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={i}>{node.text}</Fragment>;
      case 'code':
        return <code key={i}>{node.text}</code>;
      case 'strong':
        return <strong key={i}>{inline(node.children)}</strong>;
      case 'em':
        return <em key={i}>{inline(node.children)}</em>;
      case 'link':
        return (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
            {node.text}
          </a>
        );
    }
  });
}

/** Untrusted Markdown (an assignment's instructions) as elements: React escapes every text, and no HTML is parsed. */
export function Markdown({ source, className }: { source: string; className?: string }) {
  const blocks = parseMarkdown(source);
  if (blocks.length === 0) return null;
  return (
    <div className={className}>
      {blocks.map((block, i) => {
        switch (block.type) {
          case 'p':
            return <p key={i}>{inline(block.children)}</p>;
          case 'h':
            return (
              <p key={i} className="markdown-heading">
                <strong>{inline(block.children)}</strong>
              </p>
            );
          case 'pre':
            return (
              <pre key={i} tabIndex={0}>
                <code>{block.text}</code>
              </pre>
            );
          case 'ul':
          case 'ol': {
            const List = block.type;
            return (
              <List key={i}>
                {block.items.map((item, j) => (
                  <li key={j}>{inline(item)}</li>
                ))}
              </List>
            );
          }
        }
      })}
    </div>
  );
}
