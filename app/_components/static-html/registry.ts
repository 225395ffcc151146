/**
 * Hands a static block's HTML from the server component that owns it (React Server Components) to the client
 * component that prints it during server-side rendering, without putting it in the RSC payload. Both render in the
 * same process at build time (each layer has its own copy of this module, so the map lives on globalThis).
 * Content-addressed: the same HTML always has the same id, on every render of every page.
 */
type Registry = Map<string, string>;

const KEY = Symbol.for('agentic-rl-lab.static-html');

function registry(): Registry {
  const holder = globalThis as typeof globalThis & { [KEY]?: Registry };
  return (holder[KEY] ??= new Map());
}

export function publishStaticHtml(id: string, html: string): void {
  registry().set(id, html);
}

/** The HTML published under `id`; throws when there is none, so a page can never be built with an empty block. */
export function takeStaticHtml(id: string): string {
  const html = registry().get(id);
  if (html === undefined) throw new Error(`static HTML block ${id} was not published in this process`);
  return html;
}
