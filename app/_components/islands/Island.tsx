'use client';

import { use, useEffect, useId, useRef } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { islandElement } from './element';
import type { IslandName, IslandProps } from './runtime';

/**
 * Interactive parts of a chapter (widgets, quizzes, an embedded lab's button) as islands. The server renders each in
 * full, so its build-time content is in the HTML; the browser fetches and hydrates its code only when the reader
 * comes to it: a pointer over it, a touch, focus, a key, a click. Until then it is plain HTML; what the reader types or
 * picks meanwhile stays in it and the widget reads it when it mounts, and a button pressed meanwhile is pressed again
 * once it is live (replay.ts). A chapter page thus loads none of their code.
 *
 * Each island is a React root of its own. The page's root sees only an opaque element (React hydrates
 * dangerouslySetInnerHTML without reading or touching the content); the server prints the island's HTML into it,
 * rendered as a root (server-render.ts), and the browser hydrates that root when the island wakes (runtime.ts), with
 * the same identifier prefix, so that useId agrees on both sides. No Suspense boundary is involved: React would
 * move a large boundary's HTML to the end of the document and swap it in by script.
 *
 * This module is all a page loads up front: the listeners that wake an island, and the hydration (React's own
 * hydrateRoot, already on the page). What each island's code is, and the replay, come with the first to wake.
 */
const WAKE_ON = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input', 'change', 'click'];

const wakers = new Map<IslandName, Set<() => void>>();

/** Load and hydrate every island called `name` on this page (once). */
export function wakeIslands(name: IslandName): void {
  wakers.get(name)?.forEach((wake) => wake());
}

// Server only (the condition is decided when each bundle is built, so the browser's has no trace of the server
// renderer): an island's HTML, by its props object, which stays the same while React retries the waiting render.
const renderedOnServer =
  typeof window === 'undefined'
    ? (() => {
        const rendered = new WeakMap<object, Promise<string>>();
        return (name: IslandName, props: object, id: string): Promise<string> => {
          let html = rendered.get(props);
          if (!html) {
            html = import('./server-render').then((server) => server.renderIsland(name, props, id));
            rendered.set(props, html);
          }
          return html;
        };
      })()
    : null;

export function Island<N extends IslandName>({ name, props }: { name: N; props: IslandProps<N> }) {
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const html = renderedOnServer ? use(renderedOnServer(name, props as object, id)) : '';
  useEffect(() => {
    const element = root.current!;
    const early: Event[] = [];
    let woken = false;
    const stop = () => {
      for (const type of WAKE_ON) {
        element.removeEventListener(type, listener, { capture: true });
        window.removeEventListener(type, whileHydrating, { capture: true });
      }
      wakers.get(name)?.delete(wake);
    };
    const wake = () => {
      if (woken) return;
      woken = true;
      void import('./runtime').then(async (runtime) => {
        const Code = await runtime.load(name);
        // Right after React's effects, outside them (a click dispatched inside them goes unheard). Listening stops only
        // then, so that a click in between is kept too.
        const live = () =>
          queueMicrotask(() => {
            stop();
            element.dataset.island = 'live';
            runtime.replay(element, early);
          });
        hydrateRoot(element, islandElement(Code, props as object, live), { identifierPrefix: id });
        // After hydrateRoot, in the same task (no event comes between): if it throws, nothing is left guarding.
        for (const type of WAKE_ON) window.addEventListener(type, whileHydrating, { capture: true });
        element.dataset.island = 'hydrating'; // its state, for tests: none (server HTML), hydrating, live
      }).catch(() => {
        woken = false; // its code did not arrive (offline): the next click or focus tries again
      });
    };
    const listener = (event: Event) => {
      early.push(event);
      wake();
    };
    // Once hydrateRoot has made the island a root of its own, the page's React (listening on the document) sees the
    // island's HTML as not yet hydrated: a click there makes it try to hydrate the island on the spot, and it drops the
    // click, or (on a loaded machine) lets it through before the replay presses the button again. Until the island is
    // live, its events stop at the window, before any React, and are the replay's alone.
    const whileHydrating = (event: Event) => {
      if (!(event.target instanceof Node) || !element.contains(event.target)) return;
      event.stopImmediatePropagation();
      early.push(event);
    };
    for (const type of WAKE_ON) element.addEventListener(type, listener, { capture: true, passive: true });
    if (!wakers.has(name)) wakers.set(name, new Set());
    wakers.get(name)!.add(wake);
    return stop;
  }, [name, props, id]);
  return <div ref={root} className="island" dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />;
}
