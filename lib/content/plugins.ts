/**
 * Unified plugins that make chapter compilation strict and collect what the pages and tests need.
 * Each check throws a ChapterError carrying the source line, so a bad chapter fails the build by name.
 */
import katex from 'katex';
import { toString as hastToString } from 'hast-util-to-string';
import { visit } from 'unist-util-visit';
import { errorMessage } from '@/lib/errors';
import { isChapterComponent, quizPropsSchema, figurePropsSchema, labEmbedPropsSchema, exercisePropsSchema } from './components';
import { referenceForTitle, referenceForUrl } from './references';

interface Position {
  start: { line: number; column: number };
}
interface AnyNode {
  type: string;
  value?: string;
  name?: string | null;
  url?: string;
  data?: Record<string, unknown>;
  tagName?: string;
  depth?: number;
  properties?: Record<string, unknown>;
  attributes?: JsxAttribute[];
  children?: AnyNode[];
  position?: Position;
}
interface JsxAttribute {
  type: string;
  name: string;
  value?: string | null | { type: string; value: string; data?: { estree?: EstreeProgram } };
}
interface EstreeProgram {
  body: { type: string; expression?: EstreeNode }[];
}
interface EstreeNode {
  type: string;
  value?: unknown;
  elements?: (EstreeNode | null)[];
  operator?: string;
  argument?: EstreeNode;
}

export class ChapterError extends Error {
  constructor(file: string, line: number | undefined, message: string) {
    super(`${file}${line ? `:${line}` : ''}: ${message}`);
    this.name = 'ChapterError';
  }

  /** Rebuild an error whose message already reads "file:line: reason" (after esbuild wrapped it). */
  static withMessage(message: string): ChapterError {
    const error = new ChapterError('', undefined, '');
    error.message = message;
    return error;
  }
}

export interface Heading {
  depth: 2 | 3;
  text: string;
  id: string;
}

export interface CollectedLink {
  url: string;
  line: number | undefined;
}

/** Render every formula with KaTeX in strict mode; rehype-katex alone would only warn. */
export function remarkCheckMath(file: string) {
  return () => (tree: AnyNode) => {
    visit(tree as never, (node: AnyNode) => {
      if (node.type !== 'math' && node.type !== 'inlineMath') return;
      try {
        katex.renderToString(node.value ?? '', { displayMode: node.type === 'math', throwOnError: true });
      } catch (error) {
        const reason = errorMessage(error);
        throw new ChapterError(file, node.position?.start.line, `KaTeX cannot parse "${node.value}": ${reason}`);
      }
    });
  };
}

/** Read a JSX attribute as a plain value. Only literals are accepted: chapters hold data, not code. */
function attributeValue(file: string, attr: JsxAttribute, line: number | undefined): unknown {
  if (attr.value === null || attr.value === undefined) return true;
  if (typeof attr.value === 'string') return attr.value;
  const expression = attr.value.data?.estree?.body[0]?.expression;
  const literal = (node: EstreeNode | null | undefined): unknown => {
    if (!node) throw new ChapterError(file, line, `attribute "${attr.name}" must be a literal`);
    if (node.type === 'Literal') {
      // In a JS string "\theta" is a tab + "heta": catch the escape before KaTeX silently renders nonsense.
      if (typeof node.value === 'string' && /[\x00-\x1f]/.test(node.value)) {
        throw new ChapterError(file, line, `attribute "${attr.name}" holds a control character: inside {...} write backslashes twice (\\\\theta)`);
      }
      return node.value;
    }
    if (node.type === 'ArrayExpression') return (node.elements ?? []).map(literal);
    if (node.type === 'UnaryExpression' && node.operator === '-') return -(literal(node.argument) as number);
    throw new ChapterError(file, line, `attribute "${attr.name}" must be a literal (string, number or array of them)`);
  };
  return literal(expression);
}

const propSchemas = { Quiz: quizPropsSchema, Figure: figurePropsSchema, LabEmbed: labEmbedPropsSchema, Exercise: exercisePropsSchema } as const;

/** Refuse unknown components and malformed props of the data-bearing ones (Quiz, Figure, LabEmbed, Exercise). */
export function remarkCheckComponents(file: string, found: { quizIds: string[]; figures: string[]; labs: string[]; exercises: string[] }) {
  return () => (tree: AnyNode) => {
    visit(tree as never, (node: AnyNode) => {
      if (node.type !== 'mdxJsxFlowElement' && node.type !== 'mdxJsxTextElement') return;
      const name = node.name ?? '';
      const line = node.position?.start.line;
      if (/^[a-z]/.test(name)) return; // plain HTML elements
      if (!isChapterComponent(name)) {
        throw new ChapterError(file, line, `unknown component <${name}>; chapters may use only those in lib/content/components.ts`);
      }
      if (!(name in propSchemas)) return;
      const props: Record<string, unknown> = {};
      for (const attr of node.attributes ?? []) {
        if (attr.type !== 'mdxJsxAttribute') throw new ChapterError(file, line, `<${name}> does not accept spread attributes`);
        props[attr.name] = attributeValue(file, attr, line);
      }
      const parsed = propSchemas[name as keyof typeof propSchemas].safeParse(props);
      if (!parsed.success) {
        const detail = parsed.error.issues.map((i) => `${i.path.join('.') || name}: ${i.message}`).join('; ');
        throw new ChapterError(file, line, `invalid <${name}>: ${detail}`);
      }
      if (name === 'Quiz') found.quizIds.push(props.id as string);
      if (name === 'Figure') found.figures.push(props.src as string);
      if (name === 'LabEmbed') found.labs.push(props.lab as string);
      if (name === 'Exercise') found.exercises.push(props.id as string);
    });
  };
}

function textOf(node: AnyNode): string {
  return node.value ?? (node.children ?? []).map(textOf).join('');
}

/**
 * Each entry of a chapter's <References> list must be a work listed in content/references.ts (matched by its
 * arXiv id, URL, or title when it has no link); the entry gains a link to its record on /references/. An entry
 * that matches nothing fails the build, so the references page can never miss a cited work.
 */
export function remarkLinkReferences(file: string, cited: string[]) {
  return () => (tree: AnyNode) => {
    visit(tree as never, (node: AnyNode) => {
      if (node.type !== 'mdxJsxFlowElement' || node.name !== 'References') return;
      visit(node as never, 'listItem', (item: AnyNode) => {
        const line = item.position?.start.line;
        const links: AnyNode[] = [];
        visit(item as never, 'link', (link: AnyNode) => void links.push(link));
        const titles: string[] = [];
        visit(item as never, 'emphasis', (em: AnyNode) => void titles.push(textOf(em)));
        const found = links.length > 0 ? links.map((l) => referenceForUrl(l.url ?? '')) : [referenceForTitle(titles[0] ?? '')];
        const missing = found.findIndex((r) => !r);
        if (missing >= 0) {
          const what = links[missing]?.url ?? `"${titles[0] ?? textOf(item).slice(0, 60)}"`;
          throw new ChapterError(file, line, `reference ${what} is not in content/references.ts; add it there`);
        }
        const paragraph = item.children?.find((c) => c.type === 'paragraph') ?? item;
        for (const ref of new Set(found)) {
          if (!ref) continue;
          cited.push(ref.id);
          paragraph.children = [
            ...(paragraph.children ?? []),
            { type: 'text', value: ' · ' },
            {
              type: 'link',
              url: `/references/#${ref.id}`,
              data: { hProperties: { 'aria-label': `${ref.title}, in the course references` } },
              children: [{ type: 'text', value: 'course references' }],
            },
          ];
        }
      });
    });
  };
}

/** Keep every link's URL and line, for the link checks in tests. */
export function remarkCollectLinks(file: string, links: CollectedLink[]) {
  return () => (tree: AnyNode) => {
    visit(tree as never, (node: AnyNode) => {
      if (node.type === 'link' && node.url) links.push({ url: node.url, line: node.position?.start.line });
    });
  };
}

/** After rehype-slug (which makes ids unique): record h2/h3 ids and text for the table of contents. */
export function rehypeCollectHeadings(headings: Heading[]) {
  return () => (tree: AnyNode) => {
    visit(tree as never, (node: AnyNode) => {
      if (node.type !== 'element' || (node.tagName !== 'h2' && node.tagName !== 'h3')) return;
      const id = String(node.properties?.id ?? '');
      headings.push({ depth: node.tagName === 'h2' ? 2 : 3, text: hastToString(node as never), id });
    });
  };
}

/**
 * Tables and code blocks scroll sideways when they are wider than the page (globals.css): a scrollable region must be
 * reachable by keyboard, so that its hidden part can be scrolled into view without a mouse, and every table and
 * <pre> in a chapter is focusable (axe's scrollable-region-focusable).
 */
export function rehypeFocusableScrollers() {
  return (tree: AnyNode) => {
    visit(tree as never, 'element', (node: AnyNode) => {
      if (node.tagName === 'table' || node.tagName === 'pre') node.properties = { ...node.properties, tabIndex: 0 };
    });
  };
}
