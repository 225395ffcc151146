/**
 * The verdict box after a run, rendered to markup from a hand-built log: the learner's prediction, what the run
 * measured and whether the claim held (from the claim's own verdict), the seeds it is established on, how the
 * prediction fared, and a run too short to grade said so rather than graded.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { claims } from '@/lib/claims/grpo';
import type { Claim, Prediction } from '@/lib/claims/types';
import { trainerSettings } from '@/lib/spec/registry';
import { presetSettings } from '@/lib/train/config';
import type { LogLine } from '@/lib/train/run';
import { asShipped, VerdictBox, type PredictionRun } from '@/labs/shell/PredictionPanel';

const claim = claims.find((c) => c.id === 'grpo-lifts-accuracy') as Claim & { prediction: Prediction };
const { schema, presets } = trainerSettings('grpo');
const settings = { ...presetSettings(schema, presets.default), seed: 3, max_steps: 20 };
const log = (a20: number): LogLine[] => [
  { step: 0, kind: 'eval', metrics: { 'eval/accuracy': 0.275 } },
  ...Array.from({ length: 20 }, (_, i) => ({ step: i + 1, kind: 'train' as const, metrics: { reward: 0.5 } })),
  { step: 20, kind: 'eval', metrics: { 'eval/accuracy': a20 } },
];
const text = (run: PredictionRun, pick?: string, shipped = true) =>
  renderToStaticMarkup(createElement(VerdictBox, { claim, lab: 'grpo', run, pick, shipped }))
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'");

describe('the verdict box', () => {
  it('says what the run measured, that the claim held on this seed, where it is established, and how the prediction fared', () => {
    const shown = text({ preset: 'default', settings, state: 'done', history: log(0.5) }, 'rise');
    expect(shown).toContain('Your prediction: rise by more than 10 points.');
    expect(shown).toContain('This run measured: held-out accuracy 27.5% → 50.0% at step 20.');
    expect(shown).toContain('The claim held on this run (seed 3). It is established on seed 0 of the preset as shipped (npm run claims); one seed can differ.');
    expect(shown).toContain('You predicted what this run showed.');
    expect(shown).toContain(`Why: ${claim.prediction.why}`);
  });

  it('on a run where the claim fails it settles no prediction, and says when the settings were not the preset’s', () => {
    const shown = text({ preset: 'default', settings, state: 'done', history: log(0.3) }, 'fall', false);
    expect(shown).toContain('The claim did not hold on this run (seed 3).');
    expect(shown).toContain('The claim did not hold on this run, so the run cannot settle your prediction.');
    expect(shown).toContain('This run’s settings differ from the preset’s, so it tests another setting than the claim.');
  });

  it('grades nothing on a run that stopped before the step the claim reads, and says so with no prediction made', () => {
    const shown = text({ preset: 'default', settings, state: 'done', history: log(0.5).filter((l) => l.step <= 10) });
    expect(shown).toContain('You made no prediction before this run.');
    expect(shown).toContain('Not measured: no evaluation at step 20. Train the preset through step 20 to read the claim on your own run.');
    expect(shown).not.toContain('This run measured');
  });

  it('a run is the preset as shipped whatever its seed, length and evaluation interval, and not once another setting changed', () => {
    expect(asShipped(schema, presets, 'default', { ...settings, eval_steps: 5 })).toBe(true);
    expect(asShipped(schema, presets, 'default', { ...settings, learning_rate: 1e-3 })).toBe(false);
    expect(asShipped(schema, presets, 'lr_too_high', settings)).toBe(false);
  });
});
