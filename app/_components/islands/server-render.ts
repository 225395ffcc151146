// The server renderer that Next.js itself renders app pages with: it shares their copy of React. Plain
// 'react-dom/server' would bring a second copy, whose hooks do not work in components built against the first.
// @ts-expect-error: Next.js ships this module without types; it is react-dom/server.
import * as vendored from 'next/dist/server/route-modules/app-page/vendored/ssr/react-dom-server';
import { islandElement } from './element';
import { load, type IslandName } from './runtime';

const { renderToReadableStream } = vendored as typeof import('react-dom/server.edge');

/** An island's HTML, rendered on the server as a root of its own (Island.tsx); never loaded by the browser. */
export async function renderIsland(name: IslandName, props: object, id: string): Promise<string> {
  const Code = await load(name);
  const stream = await renderToReadableStream(islandElement(Code, props, () => {}), {
    identifierPrefix: id,
    onError(error) {
      throw error; // a widget that cannot render fails the build, with its own message
    },
  });
  await stream.allReady;
  return new Response(stream).text();
}
