'use client';

import { useEffect } from 'react';

declare global {
  interface Window {
    __arlBoot?: { boot(): void; hydrated(): void; booted(): boolean; live(): boolean; pending(): number };
  }
}

/**
 * Tells the deferred boot (deferred-boot.ts) that React has hydrated the page's root: placed after the page in the
 * root layout, its effect runs once the whole root has hydrated and every effect before it (the islands' listeners
 * among them) has run. Regions that hydrate later say so themselves (`data-boot-pending`).
 */
export function BootSignal() {
  useEffect(() => window.__arlBoot?.hydrated(), []);
  return null;
}
