/**
 * The self-improvement lab speaks in rounds (its trainer's step n is round n − 1): the charts' x-axis and data table,
 * the inspector's round picker and heat map, at the precision chapter 10 quotes; and its accuracy chart lists only
 * the difficulties a run's settings can fill. Rendered to static markup on made-up logs, as a page would draw them.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { LogLine } from '@/lib/train/run';
import type { SelfImproveInspection } from '@/lib/train/self-improve-trainer';
import { accuracySeries, ROUNDS, SELF_IMPROVE_CHARTS } from '@/labs/self-improve/charts';
import { percent, RoundInspector } from '@/labs/self-improve/RoundInspector';
import { MetricChart, type ChartRun } from '@/labs/shell/MetricChart';

const [ACCURACY, , , , LOSS] = SELF_IMPROVE_CHARTS;

/** A run's log: the evaluation before training, then per round a train line and the evaluation after it. */
function history(targetDigits: number, rounds: number): LogLine[] {
  const evaluation = (step: number): LogLine => ({
    step,
    kind: 'eval',
    metrics: Object.fromEntries(Array.from({ length: targetDigits }, (_, d) => [`eval/accuracy_${d + 1}_digits`, step / 10 + d / 100])),
  });
  const lines = [evaluation(0)];
  for (let step = 1; step <= rounds; step++) lines.push({ step, kind: 'train', metrics: { round: step - 1, loss: 1 / step } }, evaluation(step));
  return lines;
}
const run = (label: string, targetDigits: number): ChartRun => ({ label, history: history(targetDigits, 3), settings: { target_digits: targetDigits } });
const legend = (html: string) => [...(/<ul class="plot-legend"[^>]*>(.*?)<\/ul>/.exec(html)?.[1] ?? '').matchAll(/<li title="([^"]+)"/g)].map((m) => m[1]);

describe('self-improvement charts', () => {
  it('number rounds from 0 at step 1, and leave off the evaluation before round 0', () => {
    expect([0, 1, 2, 6].map(ROUNDS.at)).toEqual([null, 0, 1, 5]);
    for (const chart of SELF_IMPROVE_CHARTS) expect(chart.stepAxis).toBe(ROUNDS);
    const html = renderToStaticMarkup(createElement(MetricChart, { spec: LOSS, runs: [run('run 1', 3)] }));
    expect(html).toContain('<th scope="col">round</th>');
    expect(html).toContain('by round');
    expect(html).not.toMatch(/>step</);
  });

  it('list in the legend only the accuracies a run’s target_digits can fill', () => {
    expect(accuracySeries({ target_digits: 3 })).toEqual(['eval/accuracy_1_digits', 'eval/accuracy_2_digits', 'eval/accuracy_3_digits']);
    expect(accuracySeries({})).toHaveLength(3); // a run saved without the field: the schema's default target
    // The chart can hold every target the schema allows, so a 6-digit run has its line too.
    expect(accuracySeries({ target_digits: 6 }).every((m) => ACCURACY.metrics.includes(m))).toBe(true);

    const one = legend(renderToStaticMarkup(createElement(MetricChart, { spec: ACCURACY, runs: [run('run 1', 3)] })));
    expect(one).toEqual(['eval/accuracy_1_digits', 'eval/accuracy_2_digits', 'eval/accuracy_3_digits']);
    // Two runs, two targets: 3 + 4 entries, not 2 × 6.
    const two = legend(renderToStaticMarkup(createElement(MetricChart, { spec: ACCURACY, runs: [run('run 1 (3)', 3), run('run 2 (4)', 4)] })));
    expect(two).toHaveLength(7);
    expect(two.filter((m) => m === 'eval/accuracy_4_digits')).toHaveLength(1);
    expect(two).not.toContain('eval/accuracy_5_digits');
  });
});

describe('the round inspector', () => {
  const round = (r: number, accuracy: number[][]): SelfImproveInspection => ({
    round: r,
    difficulty: 3,
    filter: 'verifier',
    demonstrationDigits: 2,
    targetDigits: 3,
    roundZero: { loaded: true, steps: 1000 },
    samples: [],
    accuracy: accuracy.map((byDifficulty, i) => ({ round: i, byDifficulty })),
  });

  it('picks rounds by their number and writes accuracies with one decimal, as chapter 10 does', () => {
    expect(percent(0.095)).toBe('9.5%');
    expect(percent(0.6)).toBe('60.0%');
    const samples = [
      { step: 1, data: round(0, [[1, 0.97, 0.095]]) },
      { step: 2, data: round(1, [[1, 0.97, 0.095], [1, 0.98, 0.2]]) },
    ];
    const html = renderToStaticMarkup(createElement(RoundInspector, { samples }));
    expect(html).toMatch(/<label for="[^"]+-round">Round<\/label>/);
    expect([...html.matchAll(/<option value="(\d+)"[^>]*>(\d+)<\/option>/g)].map((m) => [Number(m[1]), Number(m[2])])).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect(html).toContain('Round 1 sampled 3-digit sums');
    expect(html).toContain('9.5%');
    expect(html).toContain('20.0%');
    expect(html).not.toMatch(/>10%</);
  });

  it('says what round 0 was: loaded from the shipped checkpoint (the default), or trained in the run', () => {
    const loaded = renderToStaticMarkup(createElement(RoundInspector, { samples: [{ step: 1, data: round(0, [[1, 0.95, 0.095]]) }] }));
    expect(loaded).toContain('Round 0 was loaded, not trained in this run: 1,000 steps of SFT on the human-written demonstrations (up to 2 digits), done ahead of time');
    const trained = { ...round(0, [[1, 0.95, 0.095]]), roundZero: { loaded: false, steps: 1000 } };
    const html = renderToStaticMarkup(createElement(RoundInspector, { samples: [{ step: 1, data: trained }] }));
    expect(html).toContain('Round 0 fine-tuned from an untrained model: 1,000 steps of SFT on the human-written demonstrations (up to 2 digits).');
  });
});
