/** Every metric a lab charts has words for its legend (labs/shell/metricWords.ts), so no legend shows a raw log name. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METRIC_WORDS, metricWords } from '@/labs/shell/metricWords';

const LABS = ['grpo', 'ppo', 'dpo', 'lora', 'agent', 'vision'];
/** A lab's chart specs are in its Lab.tsx, or in a charts.ts of their own beside it (the agent lab's). */
const chartSources = (slug: string) => ['Lab.tsx', 'charts.ts'].map((file) => `labs/${slug}/${file}`).filter((file) => fs.existsSync(file)).map((file) => fs.readFileSync(file, 'utf8'));

describe('metric words', () => {
  it('cover every metric in every lab’s charts', () => {
    const charted = LABS.flatMap(chartSources).flatMap((source) =>
      [...source.matchAll(/metrics: \[([^\]]*)\]/g)].flatMap((m) => [...m[1].matchAll(/'([^']+)'/g)].map((q) => q[1])),
    );
    expect(charted.length).toBeGreaterThan(30);
    expect(charted.filter((metric) => !(metric in METRIC_WORDS))).toEqual([]);
  });

  it('every chart of several metrics names its value axis (a single metric’s axis is the metric’s words)', () => {
    const specs = LABS.flatMap(chartSources).flatMap((source) => [...source.matchAll(/\{ title: '[^\n]*metrics: \[[^\]]*\][^\n]*\}/g)].map((m) => m[0]));
    expect(specs.length).toBeGreaterThan(30);
    const several = specs.filter((spec) => /metrics: \['[^']+', '/.test(spec));
    expect(several.length).toBeGreaterThan(8);
    expect(several.filter((spec) => !/axis: '[^']{1,22}'/.test(spec))).toEqual([]);
  });

  it('fall back to the metric’s own name', () => {
    expect(metricWords('kl')).toBe('KL to the reference');
    expect(metricWords('some/new_metric')).toBe('some/new_metric');
  });
});
