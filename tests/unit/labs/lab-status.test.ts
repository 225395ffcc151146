/** The status line as a reader sees it: position out of the total, time left, a finished run's duration, and a pause asked for. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LabStatus } from '@/labs/shell/LabStatus';
import type { LogLine } from '@/lib/train/run';

const train = (step: number): LogLine => ({ step, kind: 'train', metrics: { 'timing/step_ms': 1200 } });
const base = {
  backend: 'wasm' as const,
  fallbacks: [],
  sampler: null,
  error: null,
  probe: null,
  switched: null,
  total: 6,
  elapsedMs: null,
  pausing: false,
  phase: null as string | null,
};
const text = (status: Parameters<typeof LabStatus>[0]['status'], stepWord = 'round', countDone = false) =>
  renderToStaticMarkup(createElement(LabStatus, { status, stepWord, countDone, evalMetric: ['eval/accuracy_target', 'target accuracy', true] })).replace(/<[^>]+>/g, '');

describe('the status line', () => {
  const history = [train(1), train(2)];
  it('says at once that a pause was asked for, and what the run finishes first', () => {
    const running = { ...base, state: 'running' as const, history, stepTimes: [1000, 2200], phase: 'round 2: sampling 8 answers…' };
    expect(text(running)).toContain('round 2 of 6');
    expect(text(running)).toContain('training');
    const pausing = text({ ...running, pausing: true });
    expect(pausing).toContain('pausing after round 2: sampling 8 answers…');
    expect(pausing).not.toContain('· training');
    expect(text({ ...running, pausing: true, phase: null }, 'step')).toContain('pausing after this step…');
  });

  it('says paused once the worker has paused, and a finished run how long it took', () => {
    expect(text({ ...base, state: 'paused', history, stepTimes: [1000, 2200] })).toContain('· paused');
    expect(text({ ...base, state: 'done', history: [1, 2, 3, 4, 5, 6].map(train), stepTimes: [], elapsedMs: 8_000 })).toMatch(/round 6 of 6 .*finished in 8(\.0)? s/);
  });

  it('counts rounds done where the lab numbers rounds from 0, so it never names a round the charts lack', () => {
    // Rounds 0 and 1 logged, round 2 under way: "round 2 of 6" would read as the charts' round 2.
    const running = { ...base, state: 'running' as const, history, stepTimes: [1000, 2200], phase: 'round 2: sampling 8 answers…' };
    expect(text(running, 'round', true)).toContain('2 of 6 rounds done');
    expect(text(running, 'round', true)).not.toMatch(/round \d of/);
    const finished = text({ ...base, state: 'done', history: [1, 2, 3, 4, 5, 6].map(train), stepTimes: [], elapsedMs: 8_000 }, 'round', true);
    expect(finished).toMatch(/6 of 6 rounds done .*finished in 8(\.0)? s/);
  });
});
