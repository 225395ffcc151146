'use client';

import { useEffect, useLayoutEffect } from 'react';

declare global {
  interface Window {
    __arlBoot?: { boot(): void; committed(): void; hydrated(): void; booted(): boolean; live(): boolean; pending(): number };
  }
}

/**
 * Tells the deferred boot (deferred-boot.ts) that React has hydrated the page, twice. The layout effect runs inside the
 * commit that hydrates the root, before the browser can deliver another event: from then on a press on the page is
 * React's to hear, and the boot script must not press it again (a press that makes React hydrate on the spot also
 * commits, and so reports, before React's handler runs). The passive effect runs after every effect of the page (the
 * root layout's come last), the islands' listeners among them: the page is live, and what the reader did before is
 * done again.
 */
export function BootSignal() {
  useLayoutEffect(() => window.__arlBoot?.committed(), []);
  useEffect(() => window.__arlBoot?.hydrated(), []);
  return null;
}
