'use client';

import type { LabWorkerState } from './useLabWorker';

/** What 'auto' measured and decided: each backend's time for this lab's step, and whether the run moved. */
export function BackendReport({ probe, switched }: Pick<LabWorkerState<never>, 'probe' | 'switched'>) {
  if (!probe && !switched) return null;
  return (
    <div className="lab-backend-report" aria-label="Backend timing">
      {probe ? (
        <>
          <p>{probe.decision ? probe.decision.reason : 'Timing this lab’s step on the other backends while it trains…'}</p>
          {probe.timings.length > 0 ? (
            <ul>
              {probe.timings.map((t) => (
                <li key={t.backend}>
                  {t.backend}: {'msPerStep' in t ? `${Math.round(t.msPerStep)} ms/step (median of ${t.steps})` : `not timed: ${t.skipped}`}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
      {switched ? (
        <p role="status">{switched.error ? `Could not move to the faster backend: ${switched.error}. The run continues on ${switched.backend}.` : `Moved to ${switched.backend} after step ${switched.step}; the run continues with the same weights and optimizer state.`}</p>
      ) : null}
    </div>
  );
}
