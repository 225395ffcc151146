'use client';

import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from 'react';

const Loading = () => <p className="lab-loading">Loading the lab…</p>;

/**
 * Each lab's UI is labs/<slug>/Lab.tsx, a chunk of its own: nothing of it (charts, worker) loads until the lab is
 * opened. The template import lets the bundler split every labs/<slug>/Lab.tsx without a list to keep in step.
 */
const components = new Map<string, LazyExoticComponent<ComponentType>>();
function labComponent(slug: string): LazyExoticComponent<ComponentType> {
  let component = components.get(slug);
  if (!component) {
    component = lazy(() => import(`@/labs/${slug}/Lab.tsx`));
    components.set(slug, component);
  }
  return component;
}

/**
 * On a lab's own page the lab is rendered at once, on the server too: the page's HTML holds its controls with the
 * preset's settings, and its workers, storage and address are read once the page is live (the first interaction:
 * app/_components/boot/deferred-boot.ts). Inside a chapter it waits for the reader to ask. `slug` is a lab of
 * content/labs.ts: the server components that render this check it, so the registry's text stays out of the page's
 * JavaScript.
 */
export function LabLoader({ slug, deferred = false, title }: { slug: string; deferred?: boolean; title?: string }) {
  const [open, setOpen] = useState(!deferred);
  if (open) {
    const Lab = labComponent(slug);
    return (
      <Suspense fallback={<Loading />}>
        <Lab />
      </Suspense>
    );
  }
  return (
    <div className="lab-placeholder">
      <button type="button" className="lab-primary" onClick={() => setOpen(true)}>
        Open the lab here{title ? `: ${title}` : ''}
      </button>
      <p>Training runs in a background worker in your browser; nothing is uploaded.</p>
    </div>
  );
}
