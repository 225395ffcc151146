/** What a chart says before it has anything to draw, and how it names the steps it thins out. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { everyNth, MetricChart, type ChartSpec } from '@/labs/shell/MetricChart';
import type { LogLine } from '@/lib/train/run';

const sft = (step: number): LogLine => ({ step, kind: 'train', metrics: { 'sft/loss': 1 } });
const grpo = (step: number): LogLine => ({ step, kind: 'train', metrics: { loss: 0.01 } });
/** A chart of the vision lab's GRPO phase, which starts after sft_steps steps of SFT. */
const GRPO_LOSS: ChartSpec = { title: 'GRPO phase: loss', metrics: ['loss'], kind: 'train', startsAt: (s) => ({ step: Number(s.sft_steps) + 1, phase: 'GRPO phase' }) };
const KL: ChartSpec = { title: 'KL', metrics: ['kl'], kind: 'train' };
const text = (spec: ChartSpec, history: LogLine[], settings = { sft_steps: 800 }) =>
  renderToStaticMarkup(createElement(MetricChart, { spec, runs: [{ label: 'run 1', history, settings }] })).replace(/<[^>]+>/g, ' ');

describe('an empty chart', () => {
  it('of a later phase says when its data comes, not that a setting is wrong', () => {
    expect(text(GRPO_LOSS, [sft(1), sft(2)])).toContain('From the GRPO phase, step 801: nothing to draw before it.');
    expect(text(GRPO_LOSS, [sft(1), sft(2)])).not.toContain('may not produce');
  });

  it('past the phase’s start, or with no phase, says the settings may not produce its metrics', () => {
    expect(text(GRPO_LOSS, [sft(1), sft(2)], { sft_steps: 1 })).toContain('may not produce it');
    expect(text(KL, [grpo(1)])).toContain('Not logged so far (kl)');
  });
});

describe('everyNth', () => {
  it('writes ordinals in words up to ten, then with the right suffix', () => {
    expect([2, 3, 4, 10].map(everyNth)).toEqual(['second', 'third', 'fourth', 'tenth']);
    expect([11, 12, 13, 21, 22, 23, 67, 101, 112].map(everyNth)).toEqual(['11th', '12th', '13th', '21st', '22nd', '23rd', '67th', '101st', '112th']);
  });
});
