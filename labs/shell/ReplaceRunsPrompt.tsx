'use client';

/**
 * Asked in the page (not a browser dialog, which a reader may not see and an automated browser dismisses) before a
 * comparison or a sweep clears the runs on the charts: what will go, how to keep the current run, and two buttons.
 */
export function ReplaceRunsPrompt({ what, onConfirm, onCancel }: { what: string; onConfirm(): void; onCancel(): void }) {
  return (
    <div className="lab-confirm" role="group" aria-label={`Start the ${what}?`}>
      <p>
        The {what} takes every place on the charts, so the runs there now will be cleared. To keep the current run, export it first (Export run, under Runs).
      </p>
      <button type="button" className="lab-primary" onClick={onConfirm}>
        Clear the charts and start the {what}
      </button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
