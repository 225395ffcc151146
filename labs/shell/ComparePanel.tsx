'use client';

import { useState } from 'react';
import type { LabComparison } from './labDefinition';
import type { ChartRun } from './MetricChart';
import { ReplaceRunsPrompt } from './ReplaceRunsPrompt';
import { RunsSummary } from './RunsSummary';

/**
 * The lab's comparisons: for each, what it shows, what the click will run (`plans`, said before the click) and a
 * button that runs its presets one after another; the progress of the one running, and the runs side by side under
 * the columns of the comparison started last.
 */
export function ComparePanel({
  comparisons,
  plans,
  compared,
  queue,
  busy,
  runs,
  chartsInUse,
  onStart,
}: {
  comparisons: readonly LabComparison[];
  /** For each comparison, the runs its button starts and their length (comparison.ts comparisonPlan). */
  plans: readonly string[];
  /** The comparison started last, or null. */
  compared: number | null;
  /** The presets still to run, the one running first. */
  queue: readonly string[];
  busy: boolean;
  runs: ChartRun[];
  /** Runs are on the charts: the panel asks before the comparison clears them. */
  chartsInUse: boolean;
  onStart(index: number): void;
}) {
  const [asking, setAsking] = useState<number | null>(null);
  const running = compared === null ? undefined : comparisons[compared];
  return (
    <section className="lab-section" aria-label="Compare">
      <h3>Compare</h3>
      {comparisons.map((comparison, index) => (
        <div key={comparison.presets.join()}>
          <p>
            {comparison.label} <span className="setting-help">{plans[index]}</span>{' '}
            <button type="button" onClick={() => (chartsInUse ? setAsking(index) : onStart(index))} disabled={queue.length > 0 || busy || asking !== null}>
              Run {comparison.presets.join(', ')}
            </button>
          </p>
          {asking === index ? (
            <ReplaceRunsPrompt
              what="comparison"
              onConfirm={() => {
                setAsking(null);
                onStart(index);
              }}
              onCancel={() => setAsking(null)}
            />
          ) : null}
        </div>
      ))}
      {queue.length > 0 && running ? (
        <p role="status" className="lab-notice">
          Running {queue[0]} ({running.presets.length - queue.length + 1} of {running.presets.length}); the others follow on the same seed.
        </p>
      ) : null}
      <RunsSummary runs={runs} columns={(running ?? comparisons[0]).columns} />
    </section>
  );
}
