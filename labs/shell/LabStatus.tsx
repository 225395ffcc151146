'use client';

import { BackendReport } from './BackendReport';
import { formatCount } from './format';
import { durationWords, estimateMsLeft, positionWords, timeLeftWords } from './progress';
import type { LabWorkerState } from './useLabWorker';

const STATE_WORDS = { idle: 'ready', running: 'training', paused: 'paused', stopped: 'stopped', done: 'finished', failed: 'stopped on an error' } as const;

/**
 * Where the run stands, under the controls: the status line (backend, step of the run's total, speed, state, the time
 * left while it trains or how long it took once finished, the last evaluation), the backends not used and why, how
 * sampling runs, what 'auto' measured, and the run's error.
 */
export function LabStatus({
  status,
  evalMetric,
  stepWord = 'step',
  countDone = false,
  nextTotal,
}: {
  status: Pick<LabWorkerState<never>, 'state' | 'backend' | 'fallbacks' | 'sampler' | 'history' | 'error' | 'probe' | 'switched' | 'total' | 'stepTimes' | 'elapsedMs' | 'pausing'> & {
    phase?: string | null;
  };
  /** The length the next fresh run will have (the form's max_steps): shown until a run starts with its own. */
  nextTotal?: number;
  /** What one step is called in this lab ("round" where a step is a self-improvement round). */
  stepWord?: string;
  /** Count the steps done ("2 of 6 rounds done") where the lab numbers them from 0 (LabDefinition.stepAxis). */
  countDone?: boolean;
  /** The lab's evaluation metric: its name in the history, its label, and whether it reads as a percentage. */
  evalMetric: [name: string, label: string, percent: boolean];
}) {
  const steps = status.history.filter((l) => l.kind === 'train');
  const total = status.total ?? (nextTotal !== undefined && Number.isInteger(nextTotal) && nextTotal > 0 ? nextTotal : null);
  const last = steps.at(-1)?.metrics;
  const stepMs = last?.['timing/step_ms'];
  // Seconds once a step takes ten of them (a self-improvement round), where milliseconds would read as a long number.
  const speed = stepMs === undefined ? null : stepMs >= 10_000 ? `${formatCount(Math.round(stepMs / 1000))} s/${stepWord}` : `${formatCount(Math.round(stepMs))} ms/${stepWord}`;
  const [evalName, evalLabel, evalPercent] = evalMetric;
  const lastEval = status.history.filter((l) => l.kind === 'eval').at(-1)?.metrics[evalName];
  const msLeft = status.state === 'running' && status.total !== null ? estimateMsLeft(status.stepTimes, status.total) : null;
  // A finished run says how long it took; a paused one says nothing of time, as its clock is stopped.
  const stateWord =
    status.state === 'done' && status.elapsedMs !== null
      ? `${STATE_WORDS.done} in ${durationWords(status.elapsedMs)}`
      : status.state === 'running' && status.pausing
        ? // Said at once: a step with a long part (a round's sampling) pauses when that part ends.
          `pausing${status.phase ? ` after ${status.phase.replace(/…$/, '')}` : ' after this step'}…`
        : STATE_WORDS[status.state];
  return (
    <>
      {/* data-elapsed-ms: a finished run's training time, exact, for npm run record:browser-times (the text rounds it). */}
      <p role="status" className="lab-status" data-elapsed-ms={status.state === 'done' && status.elapsedMs !== null ? Math.round(status.elapsedMs) : undefined}>
        {status.backend ?? (status.state === 'running' ? 'choosing a backend…' : 'backend chosen on Train')} ·{' '}
        {positionWords(stepWord, steps.length, total, countDone)}
        {speed !== null ? ` · ${speed}` : ''} · {stateWord}
        {msLeft !== null ? ` · ${timeLeftWords(msLeft)}` : ''}
        {status.phase && status.state === 'running' ? ` · now: ${status.phase}` : ''}
        {lastEval !== undefined ? ` · ${evalLabel} ${evalPercent ? `${(lastEval * 100).toFixed(1)}%` : lastEval.toFixed(2)}` : ''}
      </p>
      {status.fallbacks.length > 0 ? (
        <ul className="lab-fallbacks" aria-label="Backends not used">
          {status.fallbacks.map((f) => (
            <li key={f.backend}>
              {f.backend} not used: {f.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {status.sampler && status.backend ? (
        <p className="lab-sampler">
          {status.sampler === 'fused'
            ? `Sampling runs in a fused WebAssembly SIMD kernel on the CPU, one call per token step; the training step runs on ${status.backend}.`
            : `Sampling runs as tfjs kernels on ${status.backend}: the fused WebAssembly kernel cannot run in this browser.`}
        </p>
      ) : null}
      <BackendReport probe={status.probe} switched={status.switched} />
      {status.error ? <p className="lab-error" role="alert">{status.error}</p> : null}
    </>
  );
}
