/**
 * Most of a chapter is static: prose, math, tables, code. As React elements it would be sent twice, once as HTML and
 * once more in the page's RSC payload (a JSON copy of every <span> and <mi>, twice the HTML's size), and hydrated
 * node by node. This plugin, the last rehype step, serialises each run of static nodes to one HTML string in a
 * <StaticHtml html="…"> element; the page renders it as HTML and keeps it out of the payload
 * (app/_components/mdx/StaticBlock.tsx). Chapter components (widgets, quizzes, callouts) stay React elements; the
 * static runs inside a callout's children become blocks of their own.
 */
import { toHtml } from 'hast-util-to-html';

export const STATIC_BLOCK = 'StaticHtml';

interface Node {
  type: string;
  value?: string;
  children?: Node[];
  name?: string | null;
  attributes?: unknown[];
}

/** A node is static when nothing in it is MDX (a component, an expression, an import). */
function isStatic(node: Node): boolean {
  if (node.type.startsWith('mdx')) return false;
  return (node.children ?? []).every(isStatic);
}

function block(run: Node[]): Node {
  return {
    type: 'mdxJsxFlowElement',
    name: STATIC_BLOCK,
    attributes: [{ type: 'mdxJsxAttribute', name: 'html', value: toHtml({ type: 'root', children: run } as never) }],
    children: [],
  };
}

function collapse(parent: Node): void {
  const out: Node[] = [];
  let run: Node[] = [];
  const flush = () => {
    // A run of whitespace alone stays as it was: a block must hold an element.
    if (run.some((n) => n.type === 'element')) out.push(block(run));
    else out.push(...run);
    run = [];
  };
  for (const child of parent.children ?? []) {
    if (isStatic(child)) {
      run.push(child);
      continue;
    }
    flush();
    if (child.type === 'mdxJsxFlowElement') collapse(child);
    out.push(child);
  }
  flush();
  parent.children = out;
}

/** Rehype plugin: the root's and every flow component's static children, as HTML blocks. */
export function rehypeStaticBlocks() {
  return (tree: Node) => collapse(tree);
}
