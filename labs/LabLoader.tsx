'use client';

import dynamic from 'next/dynamic';
import { useState, type ComponentType } from 'react';
import { labNamed } from '@/content/labs';

const Loading = () => <p className="lab-loading">Loading the lab…</p>;

/**
 * Each lab's UI is labs/<slug>/Lab.tsx, a chunk of its own: nothing of it (charts, worker) loads until the lab is
 * opened. The template import lets the bundler split every labs/<slug>/Lab.tsx without a list to keep in step.
 */
const components = new Map<string, ComponentType>();
function labComponent(slug: string): ComponentType {
  let component = components.get(slug);
  if (!component) {
    component = dynamic(() => import(`@/labs/${slug}/Lab.tsx`), { ssr: false, loading: Loading });
    components.set(slug, component);
  }
  return component;
}

/** On a lab's own page the lab loads at once; inside a chapter it waits for the reader to ask. */
export function LabLoader({ lab, deferred = false, title }: { lab: string; deferred?: boolean; title?: string }) {
  const [open, setOpen] = useState(!deferred);
  const entry = labNamed(lab);
  const Lab = entry ? labComponent(entry.slug) : null;
  if (!Lab) return <p className="lab-error">No interactive lab is registered for “{lab}” in content/labs.ts.</p>;
  if (open) return <Lab />;
  return (
    <div className="lab-placeholder">
      <button type="button" className="lab-primary" onClick={() => setOpen(true)}>
        Open the lab here{title ? `: ${title}` : ''}
      </button>
      <p>Training runs in a background worker in your browser; nothing is uploaded.</p>
    </div>
  );
}
