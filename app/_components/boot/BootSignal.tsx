'use client';

import { useEffect } from 'react';

declare global {
  interface Window {
    __arlBoot?: { boot(): void; hydrated(): void; booted(): boolean; live(): boolean; pending(): number };
  }
}

/** Tells the deferred boot (deferred-boot.ts) that React has hydrated the page: the root layout's effect runs last. */
export function BootSignal() {
  useEffect(() => window.__arlBoot?.hydrated(), []);
  return null;
}
