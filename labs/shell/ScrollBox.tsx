import type { ReactNode } from 'react';

/**
 * A wide table's own sideways scroll box, so the page stays 390 px wide. Focusable and named: a keyboard reader can
 * scroll it with the arrow keys (axe's scrollable-region-focusable), and a screen reader hears what it holds.
 */
export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="inspector-scroll" tabIndex={0} role="group" aria-label={`${label} (scrolls sideways)`}>
      {children}
    </div>
  );
}
