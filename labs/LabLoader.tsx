'use client';

import dynamic from 'next/dynamic';
import { useState } from 'react';

/** Each lab's UI is its own chunk: nothing of it (charts, worker) loads until the lab is opened. */
const LABS = {
  grpo: dynamic(() => import('./grpo/GrpoLab'), { ssr: false, loading: () => <p className="lab-loading">Loading the lab…</p> }),
  dpo: dynamic(() => import('./dpo/DpoLab'), { ssr: false, loading: () => <p className="lab-loading">Loading the lab…</p> }),
  ppo: dynamic(() => import('./ppo/PpoLab'), { ssr: false, loading: () => <p className="lab-loading">Loading the lab…</p> }),
};

/** On a lab's own page the lab loads at once; inside a chapter it waits for the reader to ask. */
export function LabLoader({ lab, deferred = false, title }: { lab: string; deferred?: boolean; title?: string }) {
  const [open, setOpen] = useState(!deferred);
  const Lab = LABS[lab as keyof typeof LABS];
  if (!Lab) return <p className="lab-error">No interactive lab is registered for “{lab}” in labs/LabLoader.tsx.</p>;
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
