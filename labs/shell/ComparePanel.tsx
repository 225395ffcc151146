'use client';

import { useState } from 'react';
import type { LabComparison } from './labDefinition';
import type { ChartRun } from './MetricChart';
import { ReplaceRunsPrompt } from './ReplaceRunsPrompt';
import { RunsSummary } from './RunsSummary';

/** The lab's comparison: a button that runs its presets one after another, their progress, and the runs side by side. */
export function ComparePanel({
  comparison,
  queue,
  busy,
  runs,
  chartsInUse,
  onStart,
}: {
  comparison: LabComparison;
  /** The presets still to run, the one running first. */
  queue: string[];
  busy: boolean;
  runs: ChartRun[];
  /** Runs are on the charts: the panel asks before the comparison clears them. */
  chartsInUse: boolean;
  onStart(): void;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <section className="lab-section" aria-label="Compare">
      <h3>Compare</h3>
      <p>
        {comparison.label}{' '}
        <button type="button" onClick={() => (chartsInUse ? setAsking(true) : onStart())} disabled={queue.length > 0 || busy || asking}>
          Run {comparison.presets.join(', ')}
        </button>
      </p>
      {asking ? (
        <ReplaceRunsPrompt
          what="comparison"
          onConfirm={() => {
            setAsking(false);
            onStart();
          }}
          onCancel={() => setAsking(false)}
        />
      ) : null}
      {queue.length > 0 ? (
        <p role="status" className="lab-notice">
          Running {queue[0]} ({comparison.presets.length - queue.length + 1} of {comparison.presets.length}); the others follow on the same seed.
        </p>
      ) : null}
      <RunsSummary runs={runs} columns={comparison.columns} />
    </section>
  );
}
