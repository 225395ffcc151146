import { describe, expect, it } from 'vitest';
import { trainerSettings } from '@/lib/spec/registry';
import { presetSettings } from '@/lib/train/config';
import type { LogLine } from '@/lib/train/run';
import { labelRuns } from '@/labs/shell/runLabels';

const { schema, presets } = trainerSettings('grpo');
const settings = { ...presetSettings(schema, presets.default), max_steps: 60 };
const steps = (n: number): LogLine[] => Array.from({ length: n }, (_, i) => ({ step: i + 1, kind: 'train', metrics: { loss: 0 } }));

describe('labelRuns: a run that has not reached its last step says so', () => {
  it('marks a paused run and a run that stopped early, with where they are out of their total', () => {
    const [stopped, paused] = labelRuns(schema, [
      { settings: { ...settings, learning_rate: 0.01 }, history: steps(20) },
      { settings, history: steps(12), live: 'paused' },
    ]);
    expect(stopped.label).toBe('run 1 (learning_rate=0.01), stopped at step 20 of 60');
    expect(paused.label).toBe('run 2 (learning_rate=0.0003), paused at step 12 of 60');
  });

  it('leaves a finished run and a run still training as they were', () => {
    const labels = labelRuns(schema, [
      { settings, history: steps(60), preset: 'default' },
      { settings, history: steps(12), preset: 'kl', live: 'running' },
    ]).map((r) => r.label);
    expect(labels).toEqual(['run 1 (default)', 'run 2 (kl)']);
  });

  it('counts in the lab’s own unit', () => {
    expect(labelRuns(schema, [{ settings: { ...settings, max_steps: 6 }, history: steps(2), live: 'paused' }], 'round')[0].label).toBe('run 1, paused at round 2 of 6');
    expect(labelRuns(schema, [{ settings: { ...settings, max_steps: 6 }, history: steps(2), live: 'paused' }], 'round', true)[0].label).toBe('run 1, paused with 2 of 6 rounds done');
  });
});
